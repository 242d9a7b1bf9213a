import { open } from 'node:fs/promises'
import { readBundle, readBundleRefs, type BundleContents } from '../git/bundle.js'
import { parseTag } from '../git/trees.js'
import type { Store } from '../store/index.js'

/** Bundles up to this size are read whole (their commits kept for a later export); larger ones for their refs only. */
const WHOLE_BUNDLE_BYTES = 64 * 1024 * 1024
/** The most of a larger bundle read for its header. */
const HEADER_BYTES = 4 * 1024 * 1024

/**
 * `RepoRestorer` (`lib/gitlab/import_export/repo_restorer.rb`): no `project.bundle` means an empty
 * repository; otherwise its branches and tags become the project's refs, at the bundle's SHAs,
 * and its objects (commits, trees, files, annotated tags) are kept, so that the files API reads
 * them and the project exports them again; a tag ref keeps the commit its tag object names. Refs outside
 * `refs/heads/` and `refs/tags/` (merge request heads, keep-arounds) are not refs of the API.
 * A file that is not a bundle fails the import.
 */
export async function restoreRepository(store: Store, projectId: number, bundle: string): Promise<void> {
  const file = await open(bundle).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined
    throw err
  })
  if (!file) return
  let contents: BundleContents
  try {
    const { size } = await file.stat()
    const whole = size <= WHOLE_BUNDLE_BYTES
    const data = Buffer.alloc(whole ? size : HEADER_BYTES)
    await file.read(data, 0, data.length, 0)
    contents = whole ? readBundle(data) : { refs: readBundleRefs(data).refs, objects: [] }
  } catch (err) {
    throw new Error(`Failed to restore the repository: ${(err as Error).message}`)
  } finally {
    await file.close()
  }
  const tags = new Map(contents.objects.filter((o) => o.type === 'tag').map((o) => [o.sha, o]))
  store.transaction(() => {
    for (const object of contents.objects) {
      store.gitObjects.put(object)
      if (object.type === 'commit') store.repository.addCommit(projectId, object.sha)
    }
    for (const { name, sha } of contents.refs) {
      const ref = /^refs\/(heads|tags)\/(.+)$/.exec(name)
      if (!ref) continue
      // An annotated tag: the ref keeps the commit it peels to, the tag object is remembered.
      let target = sha
      for (let tag = tags.get(target); tag; tag = tags.get(target)) target = parseTag(tag.body).object
      if (target !== sha && ref[1] === 'tags') store.repository.setTagObject(projectId, ref[2]!, sha)
      store.projects.addRef(projectId, ref[1] === 'tags' ? 'tag' : 'branch', ref[2]!, target)
    }
  })
}
