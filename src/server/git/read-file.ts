import { entryAt, type ObjectSource } from './commit-files.js'

/**
 * The bytes of the file at `path` in the commit `commitSha`, or undefined when the commit, the
 * path or its blob is missing, or the path names a folder. This is what the CI engine reads a
 * `.gitlab-ci.yml` (and `include: local`) with: `readFileAt(store, pipeline.sha, '.gitlab-ci.yml')`.
 */
export function readFileAt(
  store: { gitObjects: ObjectSource },
  commitSha: string,
  path: string,
): Buffer | undefined {
  const entry = entryAt(store.gitObjects, commitSha, path)
  if (entry?.type !== 'blob') return undefined
  const blob = store.gitObjects.get(entry.sha)
  return blob?.type === 'blob' ? blob.body : undefined
}
