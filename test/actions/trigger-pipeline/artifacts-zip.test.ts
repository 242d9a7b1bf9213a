import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import {
  ArchiveRefused,
  extractZip,
  saveLimited,
  selects,
} from '../../../src/actions/trigger-pipeline/artifacts-zip.js'
import { craftZip, type ZipMember } from '../../support/crafted-zip.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-zip-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const zipOf = (members: ZipMember[]) => {
  const file = join(dir, `a${Math.random()}.zip`)
  writeFileSync(file, craftZip(members))
  return file
}
/** Every path under `root`, relative, sorted. */
const tree = (root: string): string[] =>
  existsSync(root) ? (readdirSync(root, { recursive: true }) as string[]).sort() : []

describe('extractZip', () => {
  it('extracts files and folders inside the folder', async () => {
    const zip = zipOf([
      { name: 'out.txt', data: 'hello\n' },
      { name: 'dist/' },
      { name: 'dist/app.js', data: 'x()' },
      { name: 'dist/deep/map.json', data: '{}' },
    ])
    const got = await extractZip(zip, join(dir, 'out'), { maxBytes: 1000 })
    expect(got).toEqual({ files: ['out.txt', 'dist/app.js', 'dist/deep/map.json'], bytes: 11 })
    expect(readFileSync(join(dir, 'out', 'out.txt'), 'utf8')).toBe('hello\n')
    expect(readFileSync(join(dir, 'out', 'dist/deep/map.json'), 'utf8')).toBe('{}')
  })

  it('keeps only what a glob selects', async () => {
    const zip = zipOf([
      { name: 'out.txt', data: 'a' },
      { name: 'dist/app.js', data: 'b' },
      { name: 'logs/x.log', data: 'c' },
    ])
    expect((await extractZip(zip, join(dir, 'g'), { maxBytes: 100, glob: 'dist' })).files).toEqual([
      'dist/app.js',
    ])
    expect((await extractZip(zip, join(dir, 'h'), { maxBytes: 100, glob: '**/*.log' })).files).toEqual([
      'logs/x.log',
    ])
    expect(tree(join(dir, 'g'))).toEqual(['dist', 'dist/app.js'])
  })

  it.each([
    ['a parent path', [{ name: '../evil.txt', data: 'x' }]],
    [
      'a parent path deeper down',
      [
        { name: 'ok.txt', data: 'ok' },
        { name: 'a/../../evil.txt', data: 'x' },
      ],
    ],
    ['an absolute path', [{ name: '/tmp/evil.txt', data: 'x' }]],
    ['a drive path', [{ name: 'C:/evil.txt', data: 'x' }]],
    ['a backslash path', [{ name: '..\\evil.txt', data: 'x' }]],
    [
      'a symbolic link',
      [
        { name: 'ok.txt', data: 'ok' },
        { name: 'link', data: '/etc/passwd', mode: 0o120777 },
      ],
    ],
    ['a device', [{ name: 'dev', data: '', mode: 0o020644 }]],
  ])('refuses a zip holding %s, writing nothing of it', async (_what, members) => {
    const zip = zipOf(members as ZipMember[])
    const out = join(dir, 'out')
    await expect(extractZip(zip, out, { maxBytes: 1000 })).rejects.toBeInstanceOf(ArchiveRefused)
    expect(tree(out)).toEqual([])
    expect(existsSync(join(dir, 'evil.txt'))).toBe(false)
  })

  it('refuses a symbolic link with a clear message', async () => {
    const zip = zipOf([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }])
    await expect(extractZip(zip, join(dir, 'o'), { maxBytes: 1000 })).rejects.toThrow(
      "entry 'link' is a symbolic link",
    )
  })

  it('refuses more bytes than allowed, counted from what the entries declare, before writing', async () => {
    const zip = zipOf([
      { name: 'a.bin', data: Buffer.alloc(600) },
      { name: 'b.bin', data: Buffer.alloc(600) },
    ])
    await expect(extractZip(zip, join(dir, 'o'), { maxBytes: 1000 })).rejects.toThrow(
      'its files hold more than 1000 B once extracted',
    )
    expect(tree(join(dir, 'o'))).toEqual([])
    // Only what the glob selects counts.
    expect((await extractZip(zip, join(dir, 'p'), { maxBytes: 1000, glob: 'a.bin' })).bytes).toBe(600)
  })

  it('fails on an entry whose data is longer than it declares (a size that lies)', async () => {
    const zip = zipOf([{ name: 'bomb.bin', data: Buffer.alloc(5000), claimedSize: 10 }])
    await expect(extractZip(zip, join(dir, 'o'), { maxBytes: 100 })).rejects.toThrow()
  })

  it('does not follow a folder that is a link out of the target', async () => {
    const out = join(dir, 'out')
    mkdirSync(out)
    mkdirSync(join(dir, 'elsewhere'))
    symlinkSync(join(dir, 'elsewhere'), join(out, 'dist'))
    const zip = zipOf([{ name: 'dist/app.js', data: 'x' }])
    await expect(extractZip(zip, out, { maxBytes: 100 })).rejects.toThrow('outside the folder')
    expect(tree(join(dir, 'elsewhere'))).toEqual([])
  })

  it('refuses what is not a zip', async () => {
    const file = join(dir, 'not.zip')
    writeFileSync(file, '<html>login</html>')
    await expect(extractZip(file, join(dir, 'o'), { maxBytes: 100 })).rejects.toThrow(
      'not a readable zip archive',
    )
  })
})

describe('saveLimited', () => {
  it('saves a body under the limit and refuses one over it, leaving no file', async () => {
    const file = join(dir, 'a.zip')
    expect(await saveLimited(Readable.from([Buffer.alloc(300), Buffer.alloc(300)]), file, 600, 'x')).toBe(600)
    expect(readFileSync(file).length).toBe(600)
    const big = join(dir, 'b.zip')
    await expect(
      saveLimited(
        Readable.from([Buffer.alloc(300), Buffer.alloc(301)]),
        big,
        600,
        'the artifacts of job build',
      ),
    ).rejects.toThrow('the artifacts of job build is larger than 600 B')
    expect(existsSync(big)).toBe(false)
    await expect(saveLimited(Readable.from([]), big, 600, 'x', 601)).rejects.toBeInstanceOf(ArchiveRefused)
  })
})

describe('selects', () => {
  it('matches globs, folders and everything', () => {
    expect(selects(undefined, 'a/b')).toBe(true)
    expect(selects('dist/', 'dist/a/b.js')).toBe(true)
    expect(selects('./dist/*.js', 'dist/a.js')).toBe(true)
    expect(selects('dist/*.js', 'dist/a/b.js')).toBe(false)
    expect(selects('*.txt', 'out.txt')).toBe(true)
  })
})
