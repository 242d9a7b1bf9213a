import { filesOf, type FileEntry, type ObjectSource } from './commit-files.js'
import { similarRenames } from './similarity.js'

/**
 * A file that differs between two trees, as `git diff-tree -r -M` pairs them (`Gitlab::Git::Diff`'s
 * fields): a path missing on one side has mode `'0'` there, as GitLab reports it.
 */
export interface TreeChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed'
  old_path: string
  new_path: string
  a_mode: string
  b_mode: string
  /** The blobs of each side; undefined where the file does not exist. */
  old_sha?: string | undefined
  new_sha?: string | undefined
}

/** The path a change sorts by: its new path, or its old one when deleted. */
const pathOf = (c: TreeChange) => (c.status === 'deleted' ? c.old_path : c.new_path)

/**
 * The files that differ from tree `from` (undefined: no tree, every file added) to tree `to`, in path
 * order. A file deleted and one added with the same blob are one rename, and of those left, files
 * at least half alike as git measures it (`similarity.ts`, `-M`'s default) too; a file whose blob
 * and mode are unchanged is left out.
 */
export function treeChanges(objects: ObjectSource, from: string | undefined, to: string): TreeChange[] {
  const before: Map<string, FileEntry> = from === undefined ? new Map() : filesOf(objects, from)
  const after = filesOf(objects, to)
  const deleted = new Map<string, string>()
  for (const [path, e] of before) if (!after.has(path) && !deleted.has(e.sha)) deleted.set(e.sha, path)
  const renames = new Map<string, string>()
  const renamed = new Set<string>()
  for (const [path, e] of after) {
    const old = before.has(path) ? undefined : deleted.get(e.sha)
    if (old === undefined || renamed.has(old)) continue
    renamed.add(old)
    renames.set(path, old)
  }
  const left = (files: Map<string, FileEntry>, other: Map<string, FileEntry>, taken: Set<string>) =>
    [...files].filter(([p]) => !other.has(p) && !taken.has(p)).map(([p, e]) => [p, e.sha, e.mode] as const)
  const similar = similarRenames(
    (sha) => objects.get(sha)?.body,
    left(before, after, renamed),
    left(after, before, new Set(renames.keys())),
  )
  for (const [path, old] of similar) {
    renames.set(path, old)
    renamed.add(old)
  }
  const changes: TreeChange[] = []
  for (const [path, e] of after) {
    const was = before.get(path)
    if (was?.sha === e.sha && was.mode === e.mode) continue
    const old = renames.get(path)
    if (was) changes.push(change('modified', path, path, was, e))
    else if (old !== undefined) changes.push(change('renamed', old, path, before.get(old), e))
    else changes.push(change('added', path, path, undefined, e))
  }
  for (const [path, e] of before)
    if (!after.has(path) && !renamed.has(path)) changes.push(change('deleted', path, path, e, undefined))
  return changes.sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0))
}

function change(
  status: TreeChange['status'],
  oldPath: string,
  newPath: string,
  a: FileEntry | undefined,
  b: FileEntry | undefined,
): TreeChange {
  return {
    status,
    old_path: oldPath,
    new_path: newPath,
    a_mode: a?.mode ?? '0',
    b_mode: b?.mode ?? '0',
    old_sha: a?.sha,
    new_sha: b?.sha,
  }
}
