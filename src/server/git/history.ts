import { entryInTree, type ObjectSource } from './commit-files.js'
import { parseCommit, type CommitFields } from './trees.js'

export interface HistoryCommit extends CommitFields {
  sha: string
}

export interface HistoryFilter {
  /** Only commits that changed this path (a file or a folder) against their first parent. */
  path?: string
  /** Committed at or after / at or before these seconds since the epoch. */
  since?: number
  until?: number
}

/** A commit the store holds, parsed; undefined for a missing object or one that is no commit. */
export function readCommit(objects: ObjectSource, sha: string): HistoryCommit | undefined {
  const object = objects.get(sha)
  return object?.type === 'commit' ? { sha, ...parseCommit(object.body) } : undefined
}

/**
 * The commits reachable from `head` (or any of several), newest committer date first, as `git log` lists them (a
 * commit is listed once; among equal dates the one reached first). Lazy: a page of `GET
 * /repository/commits` reads only as far as it needs. Parents missing from the store end the walk
 * there (a repository imported with only some of its objects).
 */
export function* history(
  objects: ObjectSource,
  head: string | readonly string[],
  filter: HistoryFilter = {},
): Generator<HistoryCommit> {
  // Several heads walk as `git log --all` does: each commit once, newest first across all of them.
  const heads = typeof head === 'string' ? [head] : head
  const seen = new Set<string>(heads)
  const queue = [...seen].flatMap((sha) => readCommit(objects, sha) ?? [])
  while (queue.length > 0) {
    let best = 0
    for (let i = 1; i < queue.length; i++)
      if (queue[i]!.committer.seconds > queue[best]!.committer.seconds) best = i
    const commit = queue.splice(best, 1)[0]!
    for (const p of commit.parents) {
      if (seen.has(p)) continue
      seen.add(p)
      const parent = readCommit(objects, p)
      if (parent) queue.push(parent)
    }
    const at = commit.committer.seconds
    if (filter.since !== undefined && at < filter.since) continue
    if (filter.until !== undefined && at > filter.until) continue
    if (filter.path !== undefined && !changes(objects, commit, filter.path)) continue
    yield commit
  }
}

/** Whether `commit` changed `path` against its first parent (a root commit: whether it has it). */
function changes(objects: ObjectSource, commit: HistoryCommit, path: string): boolean {
  const now = entryInTree(objects, commit.tree, path)?.sha
  const parent = commit.parents[0] === undefined ? undefined : readCommit(objects, commit.parents[0])
  const before = parent ? entryInTree(objects, parent.tree, path)?.sha : undefined
  return now !== before
}
