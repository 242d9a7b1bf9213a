import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { blame, blobLines } from '../../../src/server/git/blame.js'
import { BundleWriter } from '../../../src/server/git/bundle.js'
import { writeTree, type ObjectSource } from '../../../src/server/git/commit-files.js'
import { gitObject, type GitObject } from '../../../src/server/git/objects.js'
import { commitObject, signatureAt } from '../../../src/server/git/trees.js'

let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'blame-'))
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' })

function memory(): ObjectSource & { all: Map<string, GitObject> } {
  const all = new Map<string, GitObject>()
  return { all, get: (sha) => all.get(sha), put: (o) => all.set(o.sha, o) }
}

let day = 0
/** A commit of these files (path → text) on `parents`, a day after the one before. */
function commit(objects: ObjectSource, files: Record<string, string>, parents: string[], message: string) {
  const entries = new Map(
    Object.entries(files).map(([path, text]) => {
      const blob = gitObject('blob', Buffer.from(text, 'utf8'))
      objects.put(blob)
      return [path, { mode: '100644', sha: blob.sha }]
    }),
  )
  const who = signatureAt('Alice', 'alice@example.com', new Date(Date.UTC(2026, 0, 1 + day++)).toISOString())
  const c = commitObject({ tree: writeTree(objects, entries), parents, author: who, committer: who, message })
  objects.put(c)
  return c.sha
}

/** What real git blames on each line of `path` at `head` (`git blame --porcelain`), by SHA. */
async function gitBlame(objects: ReturnType<typeof memory>, head: string, path: string, range?: string) {
  const file = join(tmp, 'r.bundle')
  const bundle = new BundleWriter(createWriteStream(file))
  await bundle.ref({ name: 'refs/heads/main', sha: head })
  await bundle.startPack(objects.all.size)
  for (const o of objects.all.values()) await bundle.add(o)
  await bundle.end()
  git(tmp, 'clone', '-q', '--bare', file, 'clone.git')
  const out = git(
    join(tmp, 'clone.git'),
    'blame',
    '--porcelain',
    ...(range ? ['-L', range] : []),
    head,
    '--',
    path,
  )
  return out
    .split('\n')
    .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
    .map((l) => l.slice(0, 40))
}

const ours = (objects: ObjectSource, head: string, path: string, range?: { start: number; end: number }) =>
  blame(objects, head, path, range)?.commits.map((c) => c.sha)

describe('blame', () => {
  it('counts lines as git does: a last line without its newline is a line that differs', () => {
    expect(blobLines(Buffer.from(''))).toEqual([])
    expect(blobLines(Buffer.from('a\nb'))).toEqual(['a\n', 'b'])
    expect(blobLines(Buffer.from('a\n\n'))).toEqual(['a\n', '\n'])
  })

  it('attributes each line through edits and a rename, as git blame does', async () => {
    const o = memory()
    const a = commit(o, { 'a.txt': 'one\ntwo\nthree\nfour\n' }, [], 'A')
    const b = commit(o, { 'a.txt': 'one\nTWO\nthree\nfour\nfive' }, [a], 'B')
    const c = commit(o, { 'lib/b.txt': 'one\nTWO\nthree\nfour\nfive', 'x.txt': 'x\n' }, [b], 'C rename')
    const d = commit(o, { 'lib/b.txt': 'zero\none\nTWO\nthree\nfour\nfive\nsix\n', 'x.txt': 'x\n' }, [c], 'D')
    const expected = [d, a, b, a, a, d, d] // `five` lost its last-line status: D rewrote it
    expect(ours(o, d, 'lib/b.txt')).toEqual(expected)
    expect(await gitBlame(o, d, 'lib/b.txt')).toEqual(expected)
    const result = blame(o, d, 'lib/b.txt', { start: 2, end: 4 })!
    expect(result.lines).toEqual(['one', 'TWO', 'three'])
    expect(result.commits.map((x) => x.message)).toEqual(['A', 'B', 'A'])
  })

  it('takes a merge apart: lines each parent has go to it, the merge keeps only its own', async () => {
    const o = memory()
    const base = commit(o, { 'f.txt': '1\n2\n3\n4\n5\n' }, [], 'base')
    const left = commit(o, { 'f.txt': '1\nL\n3\n4\n5\n' }, [base], 'left')
    const right = commit(o, { 'f.txt': '1\n2\n3\n4\nR\n' }, [base], 'right')
    const merge = commit(o, { 'f.txt': '1\nL\n3\nM\nR\n' }, [left, right], 'merge')
    const tip = commit(o, { 'f.txt': '1\nL\n3\nM\nR\n', 'g.txt': 'g\n' }, [merge], 'tip')
    const expected = [base, left, base, merge, right]
    expect(ours(o, tip, 'f.txt')).toEqual(expected)
    expect(await gitBlame(o, tip, 'f.txt')).toEqual(expected)
  })

  it('cuts a range past the end to the last line, and has nothing past it or for an empty file', () => {
    const o = memory()
    const a = commit(o, { 'a.txt': 'x\ny\n', 'e.txt': '' }, [], 'A')
    expect(blame(o, a, 'a.txt', { start: 2, end: 99 })?.lines).toEqual(['y'])
    expect(blame(o, a, 'a.txt', { start: 3, end: 3 })).toBeUndefined()
    expect(blame(o, a, 'e.txt')).toBeUndefined()
    expect(blame(o, a, 'missing.txt')).toBeUndefined()
  })
})
