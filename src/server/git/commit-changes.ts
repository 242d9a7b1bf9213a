import { readCommit } from './history.js'
import { treeChanges } from './tree-diff.js'

/** A file a commit changed against its first parent, as a diff's header names it. */
export interface FileChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed'
  path: string
  /** The path before a rename. */
  old_path?: string
}

/**
 * The files `sha` changed against its first parent (a root commit: every file added), in path
 * order, as `git diff-tree -r -M` lists them (see `treeChanges`: renames by similarity, as the stats
 * of `repositoryCore` count them). Undefined when the store lacks the commit.
 */
export function commitChanges(
  objects: Parameters<typeof treeChanges>[0],
  sha: string,
): FileChange[] | undefined {
  const commit = readCommit(objects, sha)
  if (!commit) return undefined
  const parent = commit.parents[0] === undefined ? undefined : readCommit(objects, commit.parents[0])
  return treeChanges(objects, parent?.tree, commit.tree).map((c) =>
    c.status === 'renamed'
      ? { status: c.status, path: c.new_path, old_path: c.old_path }
      : { status: c.status, path: c.new_path },
  )
}
