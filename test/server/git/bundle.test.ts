import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { BundleWriter, readBundle } from '../../../src/server/git/bundle.js'
import { EMPTY_TREE, emptyCommit, refCommit } from '../../../src/server/git/objects.js'

let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bundle-'))
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
const repo = () => {
  const dir = mkdtempSync(join(tmp, 'repo-'))
  git(dir, 'init', '-q')
  return dir
}

describe('BundleWriter', () => {
  it('writes a bundle git verifies and fetches: branches, tags, commits with parents and long messages', async () => {
    const root = refCommit('acme/app', 'main')
    // A message over 2 KiB: the pack entry's size takes three bytes.
    const child = emptyCommit([root.sha], `release\n\n${'x'.repeat(3000)}`)
    const file = join(tmp, 'x.bundle')
    const bundle = new BundleWriter(createWriteStream(file))
    await bundle.ref({ name: 'refs/heads/main', sha: root.sha })
    await bundle.ref({ name: 'refs/tags/v1.0', sha: child.sha })
    await bundle.startPack(3)
    for (const object of [EMPTY_TREE, root, child]) await bundle.add(object)
    await bundle.end()

    const dir = repo()
    git(dir, 'bundle', 'verify', '-q', file)
    expect(git(dir, 'bundle', 'list-heads', file)).toBe(
      `${root.sha} refs/heads/main\n${child.sha} refs/tags/v1.0`,
    )
    git(dir, 'fetch', '-q', file, 'refs/*:refs/*')
    expect(git(dir, 'rev-parse', 'v1.0^', 'v1.0^{tree}')).toBe(`${root.sha}\n${EMPTY_TREE.sha}`)
    git(dir, 'fsck', '--strict', '--no-dangling')
  })

  it('refuses more or fewer objects than announced', async () => {
    const started = async (count: number) => {
      const bundle = new BundleWriter(new PassThrough().resume())
      await bundle.ref({ name: 'HEAD', sha: EMPTY_TREE.sha })
      await bundle.startPack(count)
      await bundle.add(EMPTY_TREE)
      return bundle
    }
    await expect((await started(1)).add(EMPTY_TREE)).rejects.toThrow('more objects than announced')
    await expect((await started(2)).end()).rejects.toThrow('fewer objects than announced')
  })
})

describe('readBundle', () => {
  it("reads a bundle git made: its refs, and its commits, trees and files, at git's SHAs", () => {
    const dir = repo()
    writeFileSync(join(dir, 'README.md'), 'hello\n')
    git(dir, 'add', 'README.md')
    git(dir, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'first')
    git(dir, 'tag', 'v1.0')
    git(dir, 'bundle', 'create', '-q', join(tmp, 'git.bundle'), '--all')
    const { refs, objects } = readBundle(readFileSync(join(tmp, 'git.bundle')))
    const head = git(dir, 'rev-parse', 'HEAD')
    expect(refs.map((r) => [r.name, r.sha])).toEqual(
      expect.arrayContaining([
        [`refs/heads/${git(dir, 'branch', '--show-current')}`, head],
        ['refs/tags/v1.0', head],
      ]),
    )
    expect(objects.map((o) => [o.type, o.sha]).sort()).toEqual(
      [
        ['commit', head],
        ['tree', git(dir, 'rev-parse', 'HEAD^{tree}')],
        ['blob', git(dir, 'rev-parse', 'HEAD:README.md')],
      ].sort(),
    )
  })

  it('throws on what is not a bundle', () => {
    expect(() => readBundle(Buffer.from('PK\u0003\u0004 not a bundle'))).toThrow('not a git bundle')
    expect(() => readBundle(Buffer.from('# v2 git bundle\nzzz refs/heads/main\n\n'))).toThrow(
      'not a git bundle',
    )
  })
})
