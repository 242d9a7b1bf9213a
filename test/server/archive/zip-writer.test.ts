import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { zipFiles, zipParts, type ZipEntry } from '../../../src/server/archive/zip-writer.js'

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
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
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
        { path: 'a.txt', content: Buffer.from('a'.repeat(100)), mtime },
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

  it('stores what DEFLATE does not make smaller, as git archive does', () => {
    const mtime = new Date(2026, 11, 6, 14, 30, 58)
    const [tiny, noise] = centralEntries(
      zipFiles([
        { path: 'tiny', content: Buffer.from('a'), mtime },
        { path: 'noise', content: randomBytes(1000), mtime },
      ]),
    )
    expect([tiny!.method, noise!.method]).toEqual([0, 0])
  })

  it('writes an empty archive as its end record alone', () => {
    const zip = zipFiles([])
    expect(zip.length).toBe(22)
    expect(unzipSync(new Uint8Array(zip))).toEqual({})
  })
})

/** `zipinfo`'s listing of a zip file: permissions, version, system, size, text/binary, method and name of each entry. */
const zipinfo = (file: string) =>
  execFileSync('zipinfo', [file], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => /^[-dl]/.test(l))
    .map((l) => {
      const f = l.split(/\s+/)
      return [f[0], f[1], f[2], f[3], f[4]![0], f[5], f.at(-1)].join(' ')
    })

describe('zipParts as git archive writes entries', () => {
  let tmp: string
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'zip-writer-'))
  })
  afterEach(() => rmSync(tmp, { recursive: true, force: true }))

  it('writes folders, symlinks, executables and files as `git archive --format=zip` does (zipinfo sees the same)', () => {
    const repo = join(tmp, 'repo')
    mkdirSync(join(repo, 'd/e'), { recursive: true })
    const text = 'line\n'.repeat(500)
    writeFileSync(join(repo, 'a.txt'), text)
    writeFileSync(join(repo, 'd/e/f.bin'), Buffer.from([0, 1, 2, 0, 1, 2]))
    writeFileSync(join(repo, 'empty'), '')
    writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 })
    symlinkSync('a.txt', join(repo, 'link'))
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' })
    git('init', '-q')
    git('add', '-A')
    git('-c', 'user.name=a', '-c', 'user.email=a@example.com', 'commit', '-qm', 'files')
    git('archive', '--format=zip', '--prefix=p/', '-o', join(tmp, 'git.zip'), 'HEAD')

    const mtime = new Date()
    const entries: ZipEntry[] = [
      { path: 'p/', content: Buffer.alloc(0), mtime, type: 'directory' },
      { path: 'p/a.txt', content: Buffer.from(text), mtime },
      { path: 'p/d/', content: Buffer.alloc(0), mtime, type: 'directory' },
      { path: 'p/d/e/', content: Buffer.alloc(0), mtime, type: 'directory' },
      { path: 'p/d/e/f.bin', content: Buffer.from([0, 1, 2, 0, 1, 2]), mtime },
      { path: 'p/empty', content: Buffer.alloc(0), mtime },
      { path: 'p/link', content: Buffer.from('a.txt'), mtime, type: 'symlink', unixMode: 0o777 },
      { path: 'p/run.sh', content: Buffer.from('#!/bin/sh\n'), mtime, unixMode: 0o755 },
    ]
    writeFileSync(join(tmp, 'ours.zip'), zipFiles(entries))
    expect(zipinfo(join(tmp, 'ours.zip'))).toEqual(zipinfo(join(tmp, 'git.zip')))
    expect(zipinfo(join(tmp, 'ours.zip'))).toContain('lrwxrwxrwx 2.3 unx 5 t stor p/link')
    // unzip extracts the link as a link, the folders as folders.
    execFileSync('unzip', ['-q', join(tmp, 'ours.zip'), '-d', join(tmp, 'out')])
    expect(execFileSync('readlink', [join(tmp, 'out/p/link')], { encoding: 'utf8' })).toBe('a.txt\n')
  })

  it('writes ZIP64 fields where sizes, offsets or the count pass the limits; unzip and Python read them', () => {
    const mtime = new Date(2026, 0, 2, 3, 4, 6)
    const files = Array.from({ length: 5 }, (_, i) => ({
      path: `f${i}.txt`,
      content: Buffer.from(`${i}`.repeat(300 + i)),
      mtime,
    }))
    const zip = Buffer.concat([...zipParts(files, { bytes: 200, entries: 3 })])
    writeFileSync(join(tmp, 'z64.zip'), zip)
    const test = spawnSync('unzip', ['-t', join(tmp, 'z64.zip')], { encoding: 'utf8' })
    expect([test.status, test.stdout]).toEqual([0, expect.stringContaining('No errors detected')])
    // The end records: a ZIP64 end record and its locator before the classic one, which holds all ones.
    const end = zip.length - 22
    expect(zip.readUInt32LE(end - 20)).toBe(0x07064b50)
    expect(zip.readUInt32LE(end - 76)).toBe(0x06064b50)
    expect([zip.readUInt16LE(end + 10), zip.readUInt32LE(end + 16)]).toEqual([0xffff, 0xffffffff])
    const py = spawnSync(
      '/usr/bin/python3',
      [
        '-c',
        `import io, json, sys, zipfile
z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
print(json.dumps([[i.filename, i.file_size, i.header_offset, len(z.read(i))] for i in z.infolist()]))`,
      ],
      { input: zip },
    )
    expect(py.stderr.toString()).toBe('')
    const seen = JSON.parse(py.stdout.toString()) as [string, number, number, number][]
    expect(seen.map(([name, size, , read]) => [name, size, read])).toEqual(
      files.map((f) => [f.path, f.content.length, f.content.length]),
    )
    // Past the first entry every offset is beyond 200: carried by ZIP64 fields, read back right.
    expect(seen[4]![2]).toBeGreaterThan(200)
  })
})
