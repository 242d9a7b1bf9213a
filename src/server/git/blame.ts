import { diffArrays } from 'diff'
import { entryInTree, type ObjectSource } from './commit-files.js'
import { readCommit, type HistoryCommit } from './history.js'
import { treeChanges } from './tree-diff.js'

/**
 * `git blame` over the stored history (`builtin/blame.c`, `blame.c`): each line of a file is
 * blamed on the commit that wrote it. A commit's lines are passed to a parent whose file (the
 * same path, or the path it was renamed from, as `treeChanges` pairs renames) has the same blob,
 * else line by line to each parent in turn through their diff (jsdiff's Myers, as
 * `unified-diff.ts`: git's indent heuristic may place an ambiguous hunk elsewhere); what no
 * parent holds stays with the commit. Suspects are
 * taken newest committer date first, as git's queue takes them, so a commit reached by two paths
 * is blamed once with the lines of both.
 */

/** The lines of a blob as git counts them: each ends at `\n`; a last line without one counts too. */
export function blobLines(body: Buffer): string[] {
  const text = body.toString('utf8')
  // The newline stays part of the line, as xdiff compares them: a last line losing it changed. Each
  // line is a slice of the text, never a line joined to its newline (a rope the diff's every
  // comparison would have to flatten first).
  const lines: string[] = []
  for (let start = 0; start < text.length;) {
    const end = text.indexOf('\n', start)
    const next = end < 0 ? text.length : end + 1
    lines.push(text.slice(start, next))
    start = next
  }
  return lines
}

/** A line still looking for its author: its index in the blamed file and in the suspect's version. */
interface Entry {
  final: number
  at: number
}

/** A commit whose version of the file (`path`, `blob`) may have written `entries`. */
interface Suspect {
  commit: HistoryCommit
  path: string
  blob: string
  entries: Entry[]
}

export interface BlameResult {
  /** The blamed lines, each without its newline, from `first` (1-based) on. */
  lines: string[]
  /** The commit of each line. */
  commits: HistoryCommit[]
  first: number
}

/**
 * Blames lines `start..end` (1-based, `end` past the file's end cut to it) of the file at `path`
 * in commit `sha`. Undefined when the commit or the file is missing, or `start` lies past the
 * last line (git's `file has only N lines`; an empty file has none to blame).
 */
export function blame(
  objects: ObjectSource,
  sha: string,
  path: string,
  range?: { start: number; end: number },
): BlameResult | undefined {
  const head = readCommit(objects, sha)
  const entry = head && entryInTree(objects, head.tree, path)
  if (!head || entry?.type !== 'blob') return undefined
  const cache = new Map<string, string[]>()
  const linesOf = (blob: string) => {
    let lines = cache.get(blob)
    if (!lines) cache.set(blob, (lines = blobLines(objects.get(blob)?.body ?? Buffer.alloc(0))))
    return lines
  }
  const all = linesOf(entry.sha)
  const first = range?.start ?? 1
  const last = Math.min(range?.end ?? all.length, all.length)
  if (first > last) return undefined
  const owners: HistoryCommit[] = new Array<HistoryCommit>(last - first + 1)

  const queue: Suspect[] = []
  const pending = new Map<string, Suspect>()
  const suspect = (commit: HistoryCommit, p: string, blob: string, entries: Entry[]) => {
    const key = `${commit.sha}\0${p}`
    const known = pending.get(key)
    if (known) known.entries.push(...entries)
    else {
      const s = { commit, path: p, blob, entries }
      pending.set(key, s)
      queue.push(s)
    }
  }
  const entries: Entry[] = []
  for (let i = first - 1; i < last; i++) entries.push({ final: i, at: i })
  suspect(head, path, entry.sha, entries)

  while (queue.length > 0) {
    let best = 0
    for (let i = 1; i < queue.length; i++)
      if (queue[i]!.commit.committer.seconds > queue[best]!.commit.committer.seconds) best = i
    const s = queue.splice(best, 1)[0]!
    pending.delete(`${s.commit.sha}\0${s.path}`)
    let left = s.entries
    const origins = s.commit.parents.flatMap((p) => {
      const parent = readCommit(objects, p)
      const origin = parent && originIn(objects, s, parent)
      return origin ? [origin] : []
    })
    // A parent with the very same file takes every line (`pass_whole_blame`).
    const same = origins.find((o) => o.blob === s.blob)
    if (same) {
      suspect(same.commit, same.path, same.blob, left)
      left = []
    }
    for (const o of same ? [] : origins) {
      if (left.length === 0) break
      const map = unchangedLines(linesOf(o.blob), linesOf(s.blob))
      const passed: Entry[] = []
      const kept: Entry[] = []
      for (const e of left) {
        const at = map[e.at]!
        if (at < 0) kept.push(e)
        else {
          // An entry is in one suspect's list at a time: it moves on with its new index.
          e.at = at
          passed.push(e)
        }
      }
      if (passed.length > 0) suspect(o.commit, o.path, o.blob, passed)
      left = kept
    }
    for (const e of left) owners[e.final - first + 1] = s.commit
    // Only the versions of suspects still waiting stay read: a long history holds two or so at a time.
    if (![...pending.values()].some((p) => p.blob === s.blob)) cache.delete(s.blob)
  }
  const text = (l: string) => (l.endsWith('\n') ? l.slice(0, -1) : l)
  return { lines: all.slice(first - 1, last).map(text), commits: owners, first }
}

/**
 * Where a parent had the suspect's file (`find_origin`): the same path if it is a file there,
 * else the path the commit renamed to it (`find_rename`), else nowhere (the commit added it).
 */
function originIn(objects: ObjectSource, s: Suspect, parent: HistoryCommit) {
  const same = entryInTree(objects, parent.tree, s.path)
  if (same?.type === 'blob') return { commit: parent, path: s.path, blob: same.sha }
  const renamed = treeChanges(objects, parent.tree, s.commit.tree).find(
    (c) => c.status === 'renamed' && c.new_path === s.path,
  )
  return renamed?.old_sha === undefined
    ? undefined
    : { commit: parent, path: renamed.old_path, blob: renamed.old_sha }
}

/**
 * For each line of `after`, its index in `before` where the diff from `before` keeps it, else -1.
 * The lines both open with are kept as they are and only the rest is diffed: jsdiff's Myers walks
 * that common start first whatever follows (its first snake), so the answer is the same, for less.
 */
function unchangedLines(before: string[], after: string[]): Int32Array {
  const map = new Int32Array(after.length).fill(-1)
  let same = 0
  while (same < before.length && same < after.length && before[same] === after[same]) map[same] = same++
  let b = same
  let a = same
  for (const part of diffArrays(before.slice(same), after.slice(same))) {
    const n = part.count ?? part.value.length
    if (part.added) a += n
    else if (part.removed) b += n
    else for (let i = 0; i < n; i++) map[a++] = b++
  }
  return map
}
