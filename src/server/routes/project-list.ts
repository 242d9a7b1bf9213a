import { Type } from '@sinclair/typebox'
import { BasicProjectDetails, Project, ProjectListQuery } from '../../schema/index.js'
import { GitLabError } from '../gitlab-errors.js'
import { pageOf, slicePage, type PageOut } from '../pagination.js'
import { basicProjectDetails, projectFor, sortProjects } from '../present/projects.js'
import { Level } from '../services/access.js'
import type { ApiContext } from './context.js'

/** lib/api/helpers/pagination_strategies.rb, where `Gitlab::Pagination::Keyset.available?` says no. */
const keysetUnavailable = () =>
  new GitLabError(405, { error: 'Keyset pagination is not yet available for this type of request' })

/**
 * `GET /projects` as lib/api/projects.rb and `ProjectsFinder` answer it: anonymous callers see
 * public projects, signed-in ones also internal projects and those they are members of,
 * administrators everything; `membership` keeps projects the caller is a member of (inherited from
 * groups too), `owned` those in namespaces the caller owns (both ignored for anonymous callers, as
 * the finder's `collection_without_user` does). `archived`, `visibility` and `search` (name or
 * path) filter; `order_by`/`sort` default to `created_at desc`, ties broken by id. Signed-in callers
 * get `ProjectWithAccess` (with `permissions`); anonymous ones and `simple=true` `BasicProjectDetails`. Keyset pages
 * (`pagination=keyset`) exist for `order_by=id` only (lib/gitlab/pagination/keyset.rb); others are
 * 405 (lib/api/helpers/pagination_strategies.rb). Their next link carries `id_after` (asc) or
 * `id_before` (desc), the bounds lib/gitlab/pagination/keyset/request_context.rb reads, and no totals.
 */
export function projectListRoutes(api: ApiContext): void {
  const { route, access, instance } = api
  const { store } = api.ctx

  route(
    {
      method: 'GET',
      url: '/api/v4/projects',
      summary: 'List the projects the caller can see',
      input: ProjectListQuery,
      errors: [405],
      linksOmit: ['defaults'],
      response: { 200: Type.Array(Type.Union([Project, BasicProjectDetails])) },
    },
    (h) => {
      const q = h.params
      const keyset = q.pagination === 'keyset'
      if (keyset && q.order_by !== 'id') throw keysetUnavailable()
      const signedIn = h.actor.user !== null
      const search = q.search?.toLowerCase()
      const rows = access
        .readableProjects(h.actor)
        .filter(({ level }) => !signedIn || !q.membership || level > 0)
        .filter(({ project }) => {
          if (!signedIn || !q.owned) return true
          const ns = store.namespaces.get(project.namespace_id)
          return ns !== undefined && access.groupLevel(h.actor, ns) >= Level.owner
        })
        .map(({ project }) => project)
        .filter((p) => q.archived === undefined || (p.archived === 1) === q.archived)
        .filter((p) => !q.visibility || p.visibility === q.visibility)
        .filter(
          (p) => !search || p.name.toLowerCase().includes(search) || p.path.toLowerCase().includes(search),
        )
        .filter((p) => q.id_after === undefined || p.id > q.id_after)
        .filter((p) => q.id_before === undefined || p.id < q.id_before)
      sortProjects(rows, q.order_by, q.sort)
      const page = pageOf(q)
      const shown = h.sendPage(keyset ? keysetPage(rows, page.perPage, q.sort) : slicePage(rows, page))
      return shown.map((p) => {
        const full = projectFor({ store, access, instance }, h.actor, p)
        return q.simple || !signedIn ? basicProjectDetails(full) : full
      })
    },
  )
}

/**
 * The first `perPage` of `rows` (already past the caller's id bound), linking on with the last id
 * shown as the next bound, in place of the one given (`lib/gitlab/pagination/keyset/pager.rb`).
 */
function keysetPage<T extends { id: number }>(
  rows: T[],
  perPage: number,
  sort: string | undefined,
): PageOut<T> {
  const items = rows.slice(0, perPage)
  const last = items.at(-1)
  if (rows.length <= perPage || !last) return { items, next: null }
  const bound =
    sort === 'asc' ? { id_after: last.id, id_before: undefined } : { id_before: last.id, id_after: undefined }
  return { items, next: { ...bound, per_page: perPage, pagination: 'keyset' } }
}
