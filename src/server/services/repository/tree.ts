import type { TreeObject, TreeQuery } from '../../../schema/repository.js'
import { entryAt, treeEntries, type ObjectSource } from '../../git/commit-files.js'
import { isTreeMode } from '../../git/trees.js'
import { notFound } from '../../grape/gitlab-errors.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

const typeOf = (mode: string) => (isTreeMode(mode) ? 'tree' : mode === '160000' ? 'commit' : 'blob')

/** The entries under a tree, as `Entities::TreeObject`s (folders `040000`, as Gitaly reports them). */
function* walk(
  objects: ObjectSource,
  treeSha: string,
  prefix: string,
  recursive: boolean,
): Generator<TreeObject> {
  for (const e of treeEntries(objects, treeSha)) {
    const path = `${prefix}${e.name}`
    const type = typeOf(e.mode)
    yield { id: e.sha, name: e.name, type, path, mode: type === 'tree' ? '040000' : e.mode }
    if (recursive && type === 'tree') yield* walk(objects, e.sha, `${path}/`, true)
  }
}

/**
 * `GET /projects/:id/repository/tree` (`lib/api/repositories.rb`, `Tree#sorted_entries`): folders,
 * then files, then submodules, each in git's order; `recursive` lists every level. Offset pages
 * (counted), or with `pagination=keyset` the entries after the one whose id is `page_token`, a
 * `rel="next"` link carrying the last id. 404 `Tree Not Found` for a ref or path that is none.
 */
export function treeService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const objects = ctx.store.gitObjects
  return {
    list(actor: Actor, projectRef: string, q: TreeQuery, page: Page): PageOut<TreeObject> {
      const project = reads.readable(actor, projectRef)
      const commit = core.resolveCommit(project, q.ref ?? project.default_branch ?? 'HEAD')
      const path = (q.path ?? '').replace(/^\/+|\/+$/g, '')
      const root = commit === undefined ? undefined : entryAt(objects, commit, path)
      if (!root || root.type !== 'tree') throw notFound('Tree')
      const prefix = path === '' ? '' : `${path}/`
      const all = [...walk(objects, root.sha, prefix, q.recursive === true)]
      const order = { tree: 0, blob: 1, commit: 2 } as Record<string, number>
      all.sort((a, b) => order[a.type]! - order[b.type]!)
      if (q.pagination === 'keyset') {
        const from = q.page_token === undefined ? 0 : all.findIndex((e) => e.id === q.page_token) + 1
        if (q.page_token !== undefined && from === 0) throw notFound('Tree')
        const items = all.slice(from, from + page.perPage)
        const more = from + page.perPage < all.length
        return {
          items,
          next: more ? { pagination: 'keyset', page_token: items.at(-1)!.id, per_page: page.perPage } : null,
        }
      }
      return { items: all.slice(page.offset, page.offset + page.perPage), page, total: all.length }
    },
  }
}
export type TreeService = ReturnType<typeof treeService>
