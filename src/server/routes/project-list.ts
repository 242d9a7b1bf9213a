import { Type } from '@sinclair/typebox'
import { BasicProjectDetails, Project, ProjectListQuery } from '../../schema/index.js'
import { GitLabError } from '../gitlab-errors.js'
import { pageOf, setKeysetLink, setPageHeaders } from '../pagination.js'
import { basicProjectDetails, projectFor, sortProjects } from '../present/projects.js'
import { Level } from '../services/access.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'

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
  const { app, registry, access, instance } = api
  const { store } = api.ctx

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects',
      summary: 'List the projects the caller can see',
      input: ProjectListQuery,
      errors: [405],
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
      const link = {
        baseUrl: instance.baseUrl,
        path: h.req.url.split('?')[0] as string,
        params: { ...(h.req.query as Record<string, unknown>) },
      }
      const shown = keyset ? rows.slice(0, page.perPage) : rows.slice(page.offset, page.offset + page.perPage)
      if (keyset) {
        const last = shown.at(-1)
        const more = rows.length > page.perPage && last !== undefined
        const next = q.sort === 'asc' ? { id_after: last?.id } : { id_before: last?.id }
        if (more) {
          delete link.params.id_after
          delete link.params.id_before
          setKeysetLink(h.reply, link, { ...next, per_page: page.perPage, pagination: 'keyset' })
        }
      } else setPageHeaders(h.reply, link, page, rows.length)
      return shown.map((p) => {
        const full = projectFor({ store, access, instance }, h.actor, p)
        return q.simple || !signedIn ? basicProjectDetails(full) : full
      })
    },
  )
}
