import { filesOf, type FileEntry, type ObjectSource } from './commit-files.js'
import { readCommit } from './history.js'

/** A file a commit changed against its first parent, as a diff's header names it. */
export interface FileChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed'
  path: string
  /** The path before a rename. */
  old_path?: string
}

/**
 * The files `sha` changed against its first parent (a root commit: every file added), in path
 * order, as `git diff-tree -r -M` lists them: a file deleted and one added with the same blob are
 * one rename (exact renames only, as the stats of `repositoryCore` count them). Undefined when the
 * store lacks the commit.
 */
export function commitChanges(objects: ObjectSource, sha: string): FileChange[] | undefined {
  const commit = readCommit(objects, sha)
  if (!commit) return undefined
  const parent = commit.parents[0] === undefined ? undefined : readCommit(objects, commit.parents[0])
  const before: Map<string, FileEntry> = parent ? filesOf(objects, parent.tree) : new Map()
  const after = filesOf(objects, commit.tree)
  const deleted = new Map<string, string>()
  for (const [path, e] of before) if (!after.has(path) && !deleted.has(e.sha)) deleted.set(e.sha, path)
  const changes: FileChange[] = []
  const renamed = new Set<string>()
  for (const [path, e] of after) {
    const was = before.get(path)
    if (was?.sha === e.sha && was.mode === e.mode) continue
    if (was) changes.push({ status: 'modified', path })
    else if (deleted.has(e.sha) && !renamed.has(deleted.get(e.sha)!)) {
      const old = deleted.get(e.sha)!
      renamed.add(old)
      changes.push({ status: 'renamed', path, old_path: old })
    } else changes.push({ status: 'added', path })
  }
  for (const path of before.keys())
    if (!after.has(path) && !renamed.has(path)) changes.push({ status: 'deleted', path })
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
