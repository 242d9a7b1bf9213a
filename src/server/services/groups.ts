import type {
  Group,
  GroupDetail,
  GroupTreeQuery,
  NamespaceBasic,
  NamespaceListQuery,
} from '../../schema/index.js'
import {
  cursorPage,
  decodeCursor,
  keysetUnavailable,
  mapPage,
  offsetLimitExceeded,
  pageOf,
  pastOffsetLimit,
  rowsAfter,
  slicePage,
  type PageOut,
} from '../grape/pagination.js'
import { applies } from '../domain/releases.js'
import { delaysDeletion } from '../domain/delayed-deletion.js'
import { paramError } from '../grape/gitlab-errors.js'
import { presentGroup, presentGroupDetail, presentNamespace } from '../present/namespaces.js'
import type { Store } from '../store/index.js'
import type { NamespaceRow } from '../store/namespaces.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

/** The names of a namespace and its ancestors, outermost first (for `name_with_namespace`, `full_name`). */
export function namespaceNames(store: Store, namespaceId: number | null): string[] {
  const names: string[] = []
  for (let id = namespaceId; id !== null;) {
    const ns = store.namespaces.get(id)
    if (!ns) break
    names.unshift(ns.name)
    id = ns.parent_id
  }
  return names
}

const groupSortKey: Record<string, (g: NamespaceRow) => string | number> = {
  id: (g) => g.id,
  name: (g) => g.name.toLowerCase(),
  path: (g) => g.path.toLowerCase(),
}

/** The one keyset order of groups (`Group.supported_keyset_orderings`: name asc): its cursor's columns. */
const NAME_ORDER = { columns: ['name'] }

/**
 * `pagination` and `cursor` as `paginate_with_strategies` reads them from Grape's params: undeclared
 * by lib/api/groups.rb, so taken as given and never carried by offset links.
 */
export interface Strategies {
  pagination?: string
  cursor?: string
}

const matches = (ns: NamespaceRow, search: string | undefined) =>
  !search ||
  ns.name.toLowerCase().includes(search.toLowerCase()) ||
  ns.path.toLowerCase().includes(search.toLowerCase())

/** `Gitlab::Access.all_values`: the levels `min_access_level` and `group_access` take. */
export const ACCESS_VALUES: readonly number[] = Object.values(Level)

/**
 * Groups as the API shows them: `Entities::Group` (with `marked_for_deletion_on` from 18.0) and
 * `Entities::GroupDetail` (with the groups it is shared with).
 */
export function groupPresenter({ store, access, instance }: ServiceContext) {
  const marks = delaysDeletion(instance, 'group')
  const present = (group: NamespaceRow): Group =>
    presentGroup(
      group,
      namespaceNames(store, group.id).join(' / '),
      instance,
      marks ? store.groupWrites.markOf(group.id) : undefined,
    )
  /** `shared_with_groups` lists the invited groups the caller can read (`shared_with_group_links_visible_to_user`). */
  const detail = (group: NamespaceRow, actor: Actor): GroupDetail =>
    presentGroupDetail(
      present(group),
      store.groupWrites.linksOf(group.id).filter((l) => {
        const invited = store.namespaces.get(l.shared_with_group_id)
        return invited !== undefined && access.canReadGroup(actor, invited)
      }),
    )
  return { present, detail }
}

/** Groups and namespaces: `GET /groups/:id`, `GET /groups` and `GET /namespaces`. */
export function groupService(ctx: ServiceContext) {
  const { store, access, instance } = ctx
  const { present, detail } = groupPresenter(ctx)

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

  /**
   * `find_groups`' filters after the finder (lib/api/groups.rb): `owned`, `min_access_level`,
   * `search` (name or path), `skip_groups`, `visibility`, `top_level_only`; then the order, ties by
   * id ascending. 400 `min_access_level does not have a valid value` for a level GitLab has not.
   */
  const filtered = (actor: Actor, q: GroupTreeQuery, groups: NamespaceRow[]): NamespaceRow[] => {
    const min = q.min_access_level
    if (min !== undefined && !ACCESS_VALUES.includes(min))
      throw paramError('min_access_level does not have a valid value')
    const skip = new Set(q.skip_groups ?? [])
    const rows = groups
      .filter((g) => !q.owned || (actor.user !== null && access.groupLevel(actor, g) >= Level.owner))
      .filter((g) => min === undefined || (actor.user !== null && access.groupLevel(actor, g) >= min))
      .filter((g) => matches(g, q.search))
      .filter((g) => !skip.has(g.id))
      .filter((g) => !q.visibility || g.visibility === q.visibility)
      .filter((g) => !q.top_level_only || g.parent_id === null)
    const key = groupSortKey[q.order_by ?? 'name'] ?? groupSortKey.name!
    const dir = q.sort === 'desc' ? -1 : 1
    return rows.sort((a, b) => {
      const x = key(a)
      const y = key(b)
      return (x < y ? -1 : x > y ? 1 : 0) * dir || a.id - b.id
    })
  }

  /**
   * `GET /groups/:id/subgroups` and `/descendant_groups` (lib/api/groups.rb with GroupsFinder's
   * `parent` and `include_parent_descendants`): the group's children, or every group below it, that
   * the caller can read, through the list's filters; offset pages. 404 `Group Not Found` when the
   * group is hidden.
   */
  const inTree = (actor: Actor, id: string, q: GroupTreeQuery, descendants: boolean): PageOut<Group> => {
    const parent = access.group(actor, id)
    const tree = descendants
      ? store.groupWrites.subtree(parent.id).slice(1)
      : store.groupWrites.subtree(parent.id).filter((g) => g.parent_id === parent.id)
    const rows = filtered(
      actor,
      q,
      tree.filter((g) => access.canReadGroup(actor, g)),
    )
    return mapPage(slicePage(rows, pageOf(q)), present)
  }

  return {
    /** The children of a group the caller can read (`GET /groups/:id/subgroups`). */
    subgroups: (actor: Actor, id: string, q: GroupTreeQuery) => inTree(actor, id, q, false),
    /** Every group below a group that the caller can read (`GET /groups/:id/descendant_groups`). */
    descendantGroups: (actor: Actor, id: string, q: GroupTreeQuery) => inTree(actor, id, q, true),

    /** One group the caller can see (404 `Group Not Found` otherwise), as `GroupDetail`. */
    get: (actor: Actor, id: string): GroupDetail => detail(access.group(actor, id), actor),

    /**
     * lib/api/groups.rb `find_groups` with app/finders/groups_finder.rb: `all_available` defaults
     * to true for administrators only. Administrators with it see every group; signed-in callers
     * see the groups they belong to (with their ancestors and descendants), and with it also the
     * public and internal ones; anonymous callers see public groups. `owned` keeps groups the
     * caller owns; `min_access_level`, `search` (name or path), `skip_groups`, `visibility` and
     * `top_level_only` filter; `name asc`
     * by default, ties by id ascending. Private groups stay hidden from non-members throughout.
     * Anonymous callers page by strategies from 14.3 (`groupsKeyset`): by cursor on
     * `pagination=keyset`, in `name asc` only; offset pages past 50,000 rows are 405.
     */
    list(actor: Actor, q: GroupTreeQuery, strategies: Strategies = {}): PageOut<Group> {
      const allAvailable = q.all_available ?? actor.admin
      const all = store.namespaces.all()
      const rows = filtered(
        actor,
        q,
        all.filter((g) => {
          if (g.kind !== 'group' || !access.canReadGroup(actor, g)) return false
          if (!actor.user) return g.visibility === 'public'
          if (actor.admin && allAvailable) return true
          return related(actor, g, all) || (allAvailable && g.visibility !== 'private')
        }),
      )
      const key = groupSortKey[q.order_by ?? 'name'] ?? groupSortKey.name!
      const byStrategies = !actor.user && applies(instance.version, 'groupsKeyset')
      if (byStrategies && strategies.pagination === 'keyset') {
        if ((q.order_by ?? 'name') !== 'name' || (q.sort ?? 'asc') !== 'asc') throw keysetUnavailable()
        const after = decodeCursor(strategies.cursor, NAME_ORDER)
        const rest = rowsAfter(rows, after, key, (c) => (c.values[0] ?? '').toLowerCase(), 1)
        return mapPage(
          cursorPage(rest, pageOf(q).perPage, NAME_ORDER, (g) => ({ values: [g.name], id: g.id })),
          present,
        )
      }
      if (byStrategies && pastOffsetLimit(q)) throw offsetLimitExceeded('Group')
      return mapPage(slicePage(rows, pageOf(q)), present)
    },

    /**
     * lib/api/namespaces.rb: signed-in callers only (`authenticate!`); administrators get every
     * namespace, others `User#namespaces`: their own and the groups they are direct members of
     * (`owned_only`: that they own). `top_level_only` and `search` (name or path) filter; by id.
     */
    namespaces(actor: Actor, q: NamespaceListQuery): PageOut<NamespaceBasic> {
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
      return mapPage(slicePage(rows, pageOf(q)), (ns) => presentNamespace(ns, instance))
    },
  }
}
export type GroupService = ReturnType<typeof groupService>
