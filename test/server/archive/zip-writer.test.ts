import { randomBytes } from 'node:crypto'
import { unzipSync } from 'fflate'
import { zipFiles } from '../../../src/server/archive/zip-writer.js'

/** The central directory's entries of `zip` as ZIP readers see them (name, flags, method, DOS time and date). */
function centralEntries(zip: Buffer) {
  const end = zip.length - 22
  expect(zip.readUInt32LE(end)).toBe(0x06054b50)
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  expect(at + zip.readUInt32LE(end + 12)).toBe(end)
  const out = []
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50)
    const nameLength = zip.readUInt16LE(at + 28)
    const local = zip.readUInt32LE(at + 42)
    expect(zip.readUInt32LE(local)).toBe(0x04034b50)
    out.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      time: zip.readUInt16LE(at + 12),
      date: zip.readUInt16LE(at + 14),
      // The local header repeats the name.
      localName: zip.toString('utf8', local + 30, local + 30 + zip.readUInt16LE(local + 26)),
    })
    at += 46 + nameLength
  }
  return out
}

describe('zipFiles', () => {
  it('writes files another implementation reads back whole, in their order', () => {
    const noise = randomBytes(300_000)
    const mtime = new Date(2026, 11, 6, 14, 30, 58)
    const zip = zipFiles([
      { path: 'out/report.txt', content: Buffer.from('hello\n'.repeat(1000)), mtime },
      { path: 'noise.bin', content: noise, mtime },
      { path: 'empty', content: Buffer.alloc(0), mtime },
    ])
    const files = unzipSync(new Uint8Array(zip))
    expect(Object.keys(files)).toEqual(['out/report.txt', 'noise.bin', 'empty'])
    expect(Buffer.from(files['out/report.txt']!).toString()).toBe('hello\n'.repeat(1000))
    expect(Buffer.from(files['noise.bin']!).equals(noise)).toBe(true)
    expect(files['empty']!.length).toBe(0)
    // Compressed: the repeated text is far smaller than its 6,000 bytes.
    expect(zip.length).toBeLessThan(noise.length + 1000)
  })

  it('records the modification time in local MS-DOS form, and names outside ASCII as UTF-8', () => {
    const mtime = new Date(2026, 11, 6, 14, 30, 58)
    const [plain, accented] = centralEntries(
      zipFiles([
        { path: 'a.txt', content: Buffer.from('a'), mtime },
        { path: 'résumé.txt', content: Buffer.from('b'), mtime },
      ]),
    )
    expect(plain).toEqual({
      name: 'a.txt',
      localName: 'a.txt',
      flags: 0,
      method: 8,
      time: (14 << 11) | (30 << 5) | 29,
      date: ((2026 - 1980) << 9) | (12 << 5) | 6,
    })
    expect(accented).toMatchObject({ name: 'résumé.txt', localName: 'résumé.txt', flags: 0x0800 })
  })

  it('writes an empty archive as its end record alone', () => {
    const zip = zipFiles([])
    expect(zip.length).toBe(22)
    expect(unzipSync(new Uint8Array(zip))).toEqual({})
  })
})
