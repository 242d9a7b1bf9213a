import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BundleWriter } from '../../../src/server/git/bundle.js'
import { writeTree, type ObjectSource } from '../../../src/server/git/commit-files.js'
import { gitObject, type GitObject } from '../../../src/server/git/objects.js'
import { MAX_SCORE, similarity, spanCounts } from '../../../src/server/git/similarity.js'
import { treeChanges } from '../../../src/server/git/tree-diff.js'
import { commitObject, signatureAt } from '../../../src/server/git/trees.js'

let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tree-diff-'))
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

function memory(): ObjectSource & { all: Map<string, GitObject> } {
  const all = new Map<string, GitObject>()
  return { all, get: (sha) => all.get(sha), put: (o) => all.set(o.sha, o) }
}

/** A root commit of these files (path → text; a path ending in `@` is a symlink); returns its tree. */
function tree(objects: ObjectSource, files: Record<string, string>) {
  const entries = new Map(
    Object.entries(files).map(([path, text]) => {
      const blob = gitObject('blob', Buffer.from(text, 'utf8'))
      objects.put(blob)
      const link = path.endsWith('@')
      return [link ? path.slice(0, -1) : path, { mode: link ? '120000' : '100644', sha: blob.sha }]
    }),
  )
  const who = signatureAt('Alice', 'alice@example.com', '2026-01-01T00:00:00Z')
  const c = commitObject({
    tree: writeTree(objects, entries),
    parents: [],
    author: who,
    committer: who,
    message: 'x',
  })
  objects.put(c)
  return c.sha
}

/** `git diff-tree -r -M --name-status` between each pair of commits, in a clone of their bundle. */
async function gitNameStatus(objects: ReturnType<typeof memory>, pairs: [string, string][]) {
  const file = join(tmp, 'r.bundle')
  const bundle = new BundleWriter(createWriteStream(file))
  let i = 0
  for (const [a, b] of pairs) {
    await bundle.ref({ name: `refs/heads/a${i}`, sha: a })
    await bundle.ref({ name: `refs/heads/b${i++}`, sha: b })
  }
  await bundle.startPack(objects.all.size)
  for (const o of objects.all.values()) await bundle.add(o)
  await bundle.end()
  execFileSync('git', ['clone', '-q', '--mirror', file, join(tmp, 'c.git')])
  return pairs.map(([a, b]) =>
    execFileSync('git', ['diff-tree', '-r', '-M', '--name-status', a, b], {
      cwd: join(tmp, 'c.git'),
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.replace(/^R\d+/, 'R').split('\t').join(' '))
      .sort(),
  )
}

/** Ours, in the same shape. */
const nameStatus = (objects: ObjectSource, a: string, b: string) => {
  const treeOf = (c: string) => /^tree (\w+)/.exec(objects.get(c)!.body.toString())![1]!
  const letter = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' } as const
  return treeChanges(objects, treeOf(a), treeOf(b))
    .map((c) =>
      c.status === 'renamed' ? `R ${c.old_path} ${c.new_path}` : `${letter[c.status]} ${c.new_path}`,
    )
    .sort()
}

const lines = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix} line ${i}\n`).join('')

describe('renames by similarity', () => {
  it('scores as git: copied span bytes over the larger size, a CR before LF not counted in text', () => {
    const file = (text: string) => {
      const body = Buffer.from(text)
      return { size: body.length, counts: () => spanCounts(body) }
    }
    const a = lines('a', 10)
    expect(similarity(file(a), file(a))).toBe(MAX_SCORE)
    expect(similarity(file(a), file(lines('a', 5)))).toBe(
      Math.floor((lines('a', 5).length * MAX_SCORE) / a.length),
    )
    expect(similarity(file(a), file(lines('b', 10)))).toBe(0)
    expect(spanCounts(Buffer.from('x\r\n'))).toEqual(spanCounts(Buffer.from('x\n')))
    expect(spanCounts(Buffer.from('x\r\n\0'))).not.toEqual(spanCounts(Buffer.from('x\n\0')))
    // A span ends at 64 bytes too.
    expect([...spanCounts(Buffer.from('y'.repeat(130))).values()].sort((a, b) => a - b)).toEqual([2, 128])
  })

  it('pairs what git diff-tree -M pairs: edits under half, not over; basenames first; symlinks only unchanged', async () => {
    const o = memory()
    const body = lines('body', 20)
    const edit = (text: string, every: number) =>
      text
        .split('\n')
        .map((l, i) => (i % every === 0 ? `${l} edited` : l))
        .join('\n')
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ 'a.txt': body }, { 'b/a2.txt': edit(body, 5) }], // a fifth changed: renamed
      [{ 'a.txt': body }, { 'b.txt': edit(body, 1) }], // every line changed: deleted and added
      [
        { 'a.txt': body, 'x@': 'target-one' },
        { 'a.txt': body, 'y@': 'target-two' },
      ], // a symlink changed
      [
        // Both new files are alike to both old ones; the shared basename wins.
        { 'old/one.txt': body + lines('one', 2), 'old/two.txt': body + lines('two', 2) },
        { 'new/two.txt': body + lines('one', 3), 'new/three.txt': body + lines('two', 3) },
      ],
      [{ 'crlf.txt': body.replaceAll('\n', '\r\n') }, { 'lf.txt': body }],
      [
        { 'p.txt': lines('p', 30), 'q.txt': lines('q', 30), 'r.txt': lines('r', 30) },
        {
          'P.txt': edit(lines('p', 30), 3),
          'Q.txt': edit(lines('q', 30), 2),
          'R.txt': edit(lines('r', 30), 1),
        },
      ],
    ]
    const pairs = cases.map(([a, b]): [string, string] => [tree(o, a), tree(o, b)])
    const expected = await gitNameStatus(o, pairs)
    expect(pairs.map(([a, b]) => nameStatus(o, a, b))).toEqual(expected)
    expect(expected[0]).toEqual(['R a.txt b/a2.txt'])
    expect(expected[1]).toEqual(['A b.txt', 'D a.txt'])
    // Every third line edited keeps over half; every second line leaves under half.
    expect(expected[5]).toEqual(['A Q.txt', 'A R.txt', 'D q.txt', 'D r.txt', 'R p.txt P.txt'])
  })
})
