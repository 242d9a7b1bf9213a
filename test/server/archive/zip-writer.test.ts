import { unzipSync } from 'fflate'
import { fromBuffer, type Entry, type ZipFile } from 'yauzl'
import { zipArchive } from '../../../src/server/archive/zip-writer.js'

/*
 * The artifacts archive of an emulated job (src/server/archive/zip-writer.ts), read back by two
 * readers that share no code with it: yauzl, strict about the format (the trigger-pipeline action
 * extracts with it), and fflate.
 */

/** Every entry yauzl reads, with its content. */
async function readWithYauzl(zip: Buffer): Promise<{ entry: Entry; content: Buffer }[]> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, z) =>
      err ? reject(err) : resolve(z),
    ),
  )
  const out: { entry: Entry; content: Buffer }[] = []
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: Entry) => {
      file.openReadStream(entry, (err, stream) => {
        if (err) return reject(err)
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          out.push({ entry, content: Buffer.concat(chunks) })
          file.readEntry()
        })
        stream.on('error', reject)
      })
    })
    file.on('end', resolve)
    file.on('error', reject)
    file.readEntry()
  })
  return out
}

describe('zipArchive', () => {
  const mtime = new Date(2026, 10, 2, 13, 45, 31) // local time, as zip tools write it
  const members = [
    { path: 'out/report.txt', content: Buffer.from('hello\n'.repeat(1000)), mtime },
    { path: 'empty.bin', content: Buffer.alloc(0), mtime },
    { path: 'dir/ünïcode ✓.txt', content: Buffer.from('utf-8 name'), mtime },
    {
      path: 'random.bin',
      content: Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)),
      mtime,
    },
  ]

  it('holds each member, DEFLATEd, with its name, size and time', async () => {
    const zip = zipArchive(members)
    const read = await readWithYauzl(zip)
    expect(read.map((r) => [r.entry.fileName, r.content])).toEqual(members.map((m) => [m.path, m.content]))
    for (const { entry } of read) {
      expect(entry.compressionMethod).toBe(8)
      // MS-DOS times have two-second steps
      expect(entry.getLastModDate().getTime()).toBe(new Date(2026, 10, 2, 13, 45, 30).getTime())
      expect(Boolean(entry.generalPurposeBitFlag & 0x800)).toBe(entry.fileName.includes('✓'))
    }
    expect(read[0]!.entry.compressedSize).toBeLessThan(members[0]!.content.length / 10)
    const unzipped = unzipSync(new Uint8Array(zip))
    expect(Object.keys(unzipped)).toEqual(members.map((m) => m.path))
    for (const m of members) expect(Buffer.from(unzipped[m.path]!)).toEqual(m.content)
  })

  it('stores members as they are at level 0, and makes an empty archive of none', async () => {
    const stored = await readWithYauzl(zipArchive(members, 0))
    expect(stored.map((r) => [r.entry.compressionMethod, r.content])).toEqual(
      members.map((m) => [0, m.content]),
    )
    const empty = zipArchive([])
    expect(empty).toHaveLength(22)
    expect(await readWithYauzl(empty)).toEqual([])
  })

  it('refuses a time before 1980, which MS-DOS times cannot hold', () => {
    expect(() => zipArchive([{ path: 'a', content: Buffer.alloc(1), mtime: new Date(1979, 0, 1) }])).toThrow(
      RangeError,
    )
  })
})
