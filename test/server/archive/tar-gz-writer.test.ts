import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib'
import tar from 'tar-stream'
import { TarGzWriter, ustarHeader } from '../../../src/server/archive/tar-gz-writer.js'

const mtime = new Date('2026-03-01T12:34:56.789Z')

/** The same members packed by tar-stream, uncompressed: the bytes our archive must hold. */
async function tarStreamPack(entries: { name: string; body?: Buffer }[]): Promise<Buffer> {
  const pack = tar.pack()
  const chunks: Buffer[] = []
  pack.on('data', (c: unknown) => void chunks.push(c as Buffer))
  const ended = new Promise((resolve) => pack.on('end', () => resolve(undefined)))
  for (const { name, body } of entries)
    await new Promise<void>((resolve, reject) =>
      body === undefined
        ? pack.entry({ name, type: 'directory', mode: 0o755, mtime }, (err) =>
            err ? reject(err) : resolve(),
          )
        : pack.entry({ name, type: 'file', mode: 0o644, mtime }, body, (err) =>
            err ? reject(err) : resolve(),
          ),
    )
  pack.finalize()
  await ended
  return Buffer.concat(chunks)
}

describe('TarGzWriter', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tar-gz-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  // 1.6 MB of lines, with multi-byte characters, so the streamed entry spans several segments.
  const lines = Array.from({ length: 40_000 }, (_, i) => `{"iid":${i},"title":"Issue ${i} ✓"}\n`)
  const big = Buffer.from(lines.join(''))

  async function write(file: string) {
    const archive = await TarGzWriter.create(file, mtime)
    archive.directory('./')
    archive.file('./VERSION', '0.2.4')
    archive.directory('./tree/')
    const issues = await archive.stream('./tree/issues.ndjson')
    // Strings, a Buffer, and one string too long to be copied into a 1 MiB segment.
    for (let i = 0; i < 20_000; i += 1000) issues.write(lines.slice(i, i + 1000).join(''))
    issues.write(Buffer.from(lines.slice(20_000, 21_000).join('')))
    issues.write(lines.slice(21_000, 40_000).join(''))
    issues.end()
    await finished(issues)
    const empty = await archive.stream('./tree/labels.ndjson')
    empty.end()
    await finished(empty)
    archive.file('./tree/project.json', '{"description":null}')
    await archive.close()
  }
  const members = [
    { name: './' },
    { name: './VERSION', body: Buffer.from('0.2.4') },
    { name: './tree/' },
    { name: './tree/issues.ndjson', body: big },
    { name: './tree/labels.ndjson', body: Buffer.alloc(0) },
    { name: './tree/project.json', body: Buffer.from('{"description":null}') },
  ]

  it('writes the very tar bytes tar-stream packs, streamed entries included', async () => {
    const file = join(dir, 'same.tar.gz')
    await write(file)
    expect(gunzipSync(await readFile(file)).equals(await tarStreamPack(members))).toBe(true)
  })

  it('is one gzip member whose trailer holds the CRC-32 and size of the tar', async () => {
    const file = join(dir, 'member.tar.gz')
    await write(file)
    const gz = await readFile(file)
    expect([...gz.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0])
    const { buffer: tarBytes, engine } = inflateRawSync(gz.subarray(10), { info: true }) as unknown as {
      buffer: Buffer
      engine: { bytesWritten: number }
    }
    // The DEFLATE stream ends right before the 8-byte trailer: no second member follows.
    expect(10 + engine.bytesWritten + 8).toBe(gz.length)
    expect(gz.readUInt32LE(gz.length - 8)).toBe(crc32(tarBytes))
    expect(gz.readUInt32LE(gz.length - 4)).toBe(tarBytes.length)
  })

  it('is read by GNU tar', async () => {
    const file = join(dir, 'gnu.tar.gz')
    await write(file)
    expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual(
      members.map((m) => m.name),
    )
    const out = join(dir, 'gnu-out')
    execFileSync('mkdir', ['-p', out])
    execFileSync('tar', ['-xzf', file, '-C', out])
    expect((await readFile(join(out, 'tree', 'issues.ndjson'))).equals(big)).toBe(true)
  })

  it('refuses another entry while a streamed one is open', async () => {
    const archive = await TarGzWriter.create(join(dir, 'open.tar.gz'), mtime)
    const open = await archive.stream('./a.ndjson')
    expect(() => archive.file('./b', 'x')).toThrow('a streamed tar entry is still open')
    await expect(archive.stream('./c')).rejects.toThrow('a streamed tar entry is still open')
    open.end()
    await finished(open)
    archive.file('./b', 'x')
    await archive.close()
  })
})

describe('ustarHeader', () => {
  it('writes sizes up to 11 octal digits in octal and larger ones in base-256', () => {
    const at = (size: number) => ustarHeader({ name: './big', type: 'file', size }, mtime).subarray(124, 136)
    expect(at(0o77777777777).toString('ascii')).toBe('77777777777 ')
    const huge = at(2 ** 33 + 5)
    expect(huge[0]).toBe(0x80)
    expect(huge.readUIntBE(6, 6)).toBe(2 ** 33 + 5)
  })

  it('refuses names tar would need a long-name extension for', () => {
    expect(() => ustarHeader({ name: `./${'x'.repeat(100)}`, type: 'file', size: 0 }, mtime)).toThrow(
      'tar member name not supported',
    )
    expect(() => ustarHeader({ name: './café', type: 'file', size: 0 }, mtime)).toThrow()
  })
})
