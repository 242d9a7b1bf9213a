import { Type } from '@sinclair/typebox'
import { Group, GroupListQuery, NamespaceBasic, NamespaceListQuery } from '../../schema/index.js'
import { pageOf, slicePage } from '../pagination.js'
import { namespaceNames, presentGroup, presentNamespace } from '../present/namespaces.js'
import { Level, type Actor } from '../services/access.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ApiContext } from './context.js'

const groupSortKey: Record<string, (g: NamespaceRow) => string | number> = {
  id: (g) => g.id,
  name: (g) => g.name.toLowerCase(),
  path: (g) => g.path.toLowerCase(),
}

const matches = (ns: NamespaceRow, search: string | undefined) =>
  !search ||
  ns.name.toLowerCase().includes(search.toLowerCase()) ||
  ns.path.toLowerCase().includes(search.toLowerCase())

/** `GET /groups` and `GET /namespaces`, the two namespace lists. */
export function groupListRoutes(api: ApiContext): void {
  const { route, access, instance } = api
  const { store } = api.ctx

  /**
   * A group the caller belongs to, GroupsFinder's "authorized groups" and their hierarchy: a
   * membership in it or an ancestor, in a group below it, or in a project below it.
   */
  const related = (actor: Actor, group: NamespaceRow, all: NamespaceRow[]): boolean => {
    if (access.groupLevel(actor, group) > 0) return true
    const prefix = `${group.full_path.toLowerCase()}/`
    const below = all.filter((ns) => ns.kind === 'group' && ns.full_path.toLowerCase().startsWith(prefix))
    if (below.some((ns) => actor.direct(store, `namespace:${ns.id}`) > 0)) return true
    return access.readableProjects(actor, group).some(({ level }) => level > 0)
  }

  route(
    {
      method: 'GET',
      url: '/api/v4/groups',
      summary: 'List the groups the caller can see',
      input: GroupListQuery,
      linksOmit: ['defaults'],
      response: { 200: Type.Array(Group) },
    },
    /**
     * lib/api/groups.rb `find_groups` with app/finders/groups_finder.rb: `all_available` defaults
     * to true for administrators only. Administrators with it see every group; signed-in callers
     * see the groups they belong to (with their ancestors and descendants), and with it also the
     * public and internal ones; anonymous callers see public groups. `owned` keeps groups the
     * caller owns; `search` (name or path), `visibility` and `top_level_only` filter; `name asc`
     * by default, ties by id ascending. Private groups stay hidden from non-members throughout.
     */
    (h) => {
      const q = h.params
      const actor = h.actor
      const allAvailable = q.all_available ?? actor.admin
      const all = store.namespaces.all()
      const rows = all
        .filter((g) => g.kind === 'group' && access.canReadGroup(actor, g))
        .filter((g) => {
          if (!actor.user) return g.visibility === 'public'
          if (actor.admin && allAvailable) return true
          return related(actor, g, all) || (allAvailable && g.visibility !== 'private')
        })
        .filter((g) => !q.owned || (actor.user !== null && access.groupLevel(actor, g) >= Level.owner))
        .filter((g) => matches(g, q.search))
        .filter((g) => !q.visibility || g.visibility === q.visibility)
        .filter((g) => !q.top_level_only || g.parent_id === null)
      const key = groupSortKey[q.order_by ?? 'name'] ?? groupSortKey.name!
      const dir = q.sort === 'desc' ? -1 : 1
      rows.sort((a, b) => {
        const x = key(a)
        const y = key(b)
        return (x < y ? -1 : x > y ? 1 : 0) * dir || a.id - b.id
      })
      return h
        .sendPage(slicePage(rows, pageOf(q)))
        .map((g) => presentGroup(g, namespaceNames(store, g.id).join(' / '), instance))
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/namespaces',
      summary: "List the caller's namespaces (administrators: all)",
      auth: 'required',
      input: NamespaceListQuery,
      linksOmit: ['defaults'],
      response: { 200: Type.Array(NamespaceBasic) },
    },
    /**
     * lib/api/namespaces.rb: signed-in callers only (`authenticate!`); administrators get every
     * namespace, others `User#namespaces`: their own and the groups they are direct members of
     * (`owned_only`: that they own). `top_level_only` and `search` (name or path) filter; by id.
     */
    (h) => {
      const q = h.params
      const actor = h.actor
      const rows = store.namespaces
        .all()
        .filter((ns) => {
          if (actor.admin) return true
          if (ns.kind === 'user') return ns.owner_id === actor.id
          const level = actor.direct(store, `namespace:${ns.id}`)
          return q.owned_only ? level >= Level.owner : level > 0
        })
        .filter((ns) => !q.top_level_only || ns.parent_id === null)
        .filter((ns) => matches(ns, q.search))
        .sort((a, b) => a.id - b.id)
      return h.sendPage(slicePage(rows, pageOf(q))).map((ns) => presentNamespace(ns, instance))
    },
  )
}
