import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BundleWriter, readBundle } from '../../../src/server/git/bundle.js'
import { entryAt, filesOf, writeTree, type ObjectSource } from '../../../src/server/git/commit-files.js'
import { history } from '../../../src/server/git/history.js'
import { gitObject, type GitObject } from '../../../src/server/git/objects.js'
import { readFileAt } from '../../../src/server/git/read-file.js'
import { commitObject, signatureAt, tagObject } from '../../../src/server/git/trees.js'

let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'commit-files-'))
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

function memory(): ObjectSource & { all: Map<string, GitObject> } {
  const all = new Map<string, GitObject>()
  return { all, get: (sha) => all.get(sha), put: (o) => all.set(o.sha, o) }
}

/** A commit of these files (path → text, `!` ending a path marks it executable) on `parents`. */
function commit(
  objects: ObjectSource,
  files: Record<string, string>,
  parents: string[],
  at: string,
  message: string,
) {
  const entries = new Map(
    Object.entries(files).map(([path, text]) => {
      const blob = gitObject('blob', Buffer.from(text, 'utf8'))
      objects.put(blob)
      const exec = path.endsWith('!')
      return [exec ? path.slice(0, -1) : path, { mode: exec ? '100755' : '100644', sha: blob.sha }]
    }),
  )
  const who = signatureAt('Alice', 'alice@example.com', at)
  const c = commitObject({ tree: writeTree(objects, entries), parents, author: who, committer: who, message })
  objects.put(c)
  return c.sha
}

describe('commits with files', () => {
  it("hashes trees and commits as git does: a clone of their bundle has the files, at git's SHAs", async () => {
    const objects = memory()
    const first = commit(
      objects,
      { '.gitlab-ci.yml': 'job:\n  script: [echo hi]\n' },
      [],
      '2026-01-01T00:00:00Z',
      'First',
    )
    const second = commit(
      objects,
      {
        '.gitlab-ci.yml': 'job:\n  script: [echo hi]\n',
        'a/b/c.txt': 'deep\n',
        'a.txt': 'x',
        'run.sh!': '#!/bin/sh\n',
      },
      [first],
      '2026-01-02T00:00:00Z',
      'Second\n\nWith a body',
    )
    const who = signatureAt('Alice', 'alice@example.com', '2026-01-03T00:00:00Z')
    const tag = tagObject({ object: second, type: 'commit', tag: 'v1', tagger: who, message: 'Release' })
    objects.put(tag)
    const file = join(tmp, 'r.bundle')
    const bundle = new BundleWriter(createWriteStream(file))
    await bundle.ref({ name: 'refs/heads/main', sha: second })
    await bundle.ref({ name: 'refs/tags/v1', sha: tag.sha })
    await bundle.startPack(objects.all.size)
    for (const o of objects.all.values()) await bundle.add(o)
    await bundle.end()

    git(tmp, 'clone', '-q', '-b', 'main', file, 'clone')
    const clone = join(tmp, 'clone')
    git(clone, 'fsck', '--strict', '--no-dangling')
    expect(git(clone, 'rev-parse', 'HEAD', 'HEAD^', 'v1^{commit}')).toBe(`${second}\n${first}\n${second}`)
    expect(readFileSync(join(clone, '.gitlab-ci.yml'), 'utf8')).toBe('job:\n  script: [echo hi]\n')
    expect(readFileSync(join(clone, 'a/b/c.txt'), 'utf8')).toBe('deep\n')
    expect(statSync(join(clone, 'run.sh')).mode & 0o111).not.toBe(0)
    expect(git(clone, 'log', '--format=%an <%ae> %aI|%s|%b', '-1')).toBe(
      'Alice <alice@example.com> 2026-01-02T00:00:00+00:00|Second|With a body',
    )
    expect(git(clone, 'cat-file', '-p', 'v1')).toContain('tag v1\ntagger Alice <alice@example.com>')
  })

  it('reads files, folders and history back; readFileAt is undefined for folders and missing paths', () => {
    const objects = memory()
    const first = commit(objects, { 'a/x.txt': '1' }, [], '2026-01-01T00:00:00Z', 'one')
    const second = commit(objects, { 'a/x.txt': '1', 'b.txt': '2' }, [first], '2026-01-02T00:00:00Z', 'two')
    const third = commit(objects, { 'a/x.txt': '3', 'b.txt': '2' }, [second], '2026-01-03T00:00:00Z', 'three')
    const store = { gitObjects: objects }
    expect(readFileAt(store, third, 'a/x.txt')?.toString()).toBe('3')
    expect(readFileAt(store, first, 'a/x.txt')?.toString()).toBe('1')
    expect(readFileAt(store, first, 'b.txt')).toBeUndefined()
    expect(readFileAt(store, third, 'a')).toBeUndefined()
    expect(readFileAt(store, 'f'.repeat(40), 'a/x.txt')).toBeUndefined()
    expect(entryAt(objects, third, 'a')).toMatchObject({ type: 'tree', mode: '40000' })
    expect([...filesOf(objects, entryAt(objects, third, '')!.sha).keys()]).toEqual(['a/x.txt', 'b.txt'])
    const log = (path?: string) => [...history(objects, third, path ? { path } : {})].map((c) => c.message)
    expect(log()).toEqual(['three', 'two', 'one'])
    expect(log('a')).toEqual(['three', 'one'])
    expect(log('b.txt')).toEqual(['two'])
    const since = Date.parse('2026-01-02T00:00:00Z') / 1000
    expect([...history(objects, third, { since, until: since })].map((c) => c.message)).toEqual(['two'])
  })

  it('reads the deltas of a bundle git made, so its files are kept', () => {
    const dir = join(tmp, 'repo')
    git(tmp, 'init', '-q', dir)
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n')
    writeFileSync(join(dir, 'f.txt'), text)
    git(dir, 'add', '.')
    git(dir, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'one')
    writeFileSync(join(dir, 'f.txt'), `${text}\nmore`)
    git(dir, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-qam', 'two')
    git(dir, 'repack', '-adfq')
    git(dir, 'bundle', 'create', '-q', join(tmp, 'g.bundle'), '--all')
    const { objects } = readBundle(readFileSync(join(tmp, 'g.bundle')))
    const source = memory()
    for (const o of objects) source.put(o)
    expect(readFileAt({ gitObjects: source }, git(dir, 'rev-parse', 'HEAD'), 'f.txt')?.toString()).toBe(
      `${text}\nmore`,
    )
    expect(readFileAt({ gitObjects: source }, git(dir, 'rev-parse', 'HEAD^'), 'f.txt')?.toString()).toBe(text)
  })
})
