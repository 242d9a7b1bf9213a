import type {
  GroupCreate,
  GroupDeleteQuery,
  GroupDetail,
  GroupShare,
  GroupUpdate,
  PublicGroupDetails,
  TransferLocationsQuery,
} from '../../schema/index.js'
import { isoNow, today } from '../domain/clock.js'
import { groupFieldErrors, inspectErrors, visibilityRank, type GroupErrors } from '../domain/group-rules.js'
import { delaysDeletion } from '../domain/delayed-deletion.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { forbidden, messageError, notFound, paramError, validationError } from '../grape/gitlab-errors.js'
import { defaultProfile } from '../present/users.js'
import type { NamespaceRow } from '../store/namespaces.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { ACCESS_VALUES, groupPresenter, namespaceNames } from './groups.js'
import { removals, type RemovalHooks } from './removals.js'

/** `Namespaces::MarkForDeletionBaseService::DELETION_SCHEDULED_PATH_INFIX`. */
const DELETION_SCHEDULED = 'deletion_scheduled'
const VISIBILITIES = ['private', 'internal', 'public']

/**
 * Groups written through the API (lib/api/groups.rb with app/services/groups/{create,update,
 * destroy,transfer}_service.rb, app/services/groups/group_links/*): create, edit, delete (marked
 * for deletion from 18.0), transfer, share and unshare. Nothing is written when a request is refused.
 */
export function groupWriteService(ctx: ServiceContext, hooks: RemovalHooks = {}) {
  const { store, access, instance, clock } = ctx
  const { detail } = groupPresenter(ctx)
  const groups = store.groupWrites

  /** `admin_group` and `remove_group` (app/policies/group_policy.rb): Owners and administrators. */
  const requireOwner = (actor: Actor, group: NamespaceRow) => {
    if (!actor.admin && access.groupLevel(actor, group) < Level.owner) throw forbidden()
  }
  /** `create_group`: the user's `can_create_group`, administrators always. */
  const canCreateGroup = (actor: Actor) =>
    actor.admin ||
    (actor.user !== null && (store.users.profile(actor.user.id) ?? defaultProfile(0)).can_create_group === 1)
  /**
   * `create_subgroup`: Owners, and Maintainers under the default `subgroup_creation_level`
   * (`Gitlab::Access::MAINTAINER_SUBGROUP_ACCESS`); administrators always.
   */
  const canCreateSubgroup = (actor: Actor, parent: NamespaceRow) =>
    actor.admin || access.groupLevel(actor, parent) >= Level.maintainer

  /** A route (group or project) already holds `fullPath`, any case, other than the group `self`. */
  const pathTaken = (fullPath: string, self?: number) => {
    const holder = store.namespaces.byPath(fullPath)
    return (holder !== undefined && holder.id !== self) || store.projects.byPath(fullPath) !== undefined
  }

  /**
   * The model's validations for a group with these values (app/models/namespace.rb, group.rb):
   * its fields, a name taken beside it (subgroups only), its visibility against its parent, its
   * subgroups and its projects, then a taken path (`Route`'s error, added last).
   */
  const errorsFor = (
    g: { name: string; path: string; description: string; visibility: string },
    parent: NamespaceRow | null,
    self?: NamespaceRow,
  ): GroupErrors => {
    const errors = groupFieldErrors({ ...g, topLevel: parent === null })
    const add = (key: string, message: string) => (errors[key] ??= []).push(message)
    const nameChanged = !self || self.name !== g.name
    if (parent && nameChanged && !errors.name && groups.siblingNamed(parent.id, g.name, self?.id))
      add('name', 'has already been taken')
    const rank = visibilityRank(g.visibility)
    if (self && rank < visibilityRank(self.visibility)) {
      const tree = groups.subtree(self.id)
      const above = VISIBILITIES.filter((v) => visibilityRank(v) > rank)
      if (
        groups.projectWithVisibility(
          tree.map((ns) => ns.id),
          above,
        )
      )
        add(
          'visibility_level',
          `${g.visibility} is not allowed since this group contains projects with higher visibility.`,
        )
      if (tree.slice(1).some((ns) => visibilityRank(ns.visibility) > rank))
        add(
          'visibility_level',
          `${g.visibility} is not allowed since there are sub-groups with higher visibility.`,
        )
    }
    if (parent && rank > visibilityRank(parent.visibility))
      add(
        'visibility_level',
        `${g.visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`,
      )
    const fullPath = parent ? `${parent.full_path}/${g.path}` : g.path
    if (
      !errors.path &&
      (!self || self.full_path.toLowerCase() !== fullPath.toLowerCase()) &&
      pathTaken(fullPath, self?.id)
    )
      add('path', 'has already been taken')
    return errors
  }

  /**
   * Removes the group with everything below it, in one transaction (`Groups::DestroyService`), the bots
   * of its and its projects' access tokens with it; then the projects' files.
   */
  const destroy = removals(ctx, hooks).group

  return {
    /**
     * `POST /groups`: top level for users who may create groups, a subgroup (`parent_id`, 404
     * `Group Not Found` when hidden) for its Maintainers and Owners; 403 otherwise. The creator
     * becomes an Owner. Invalid values are 400 `Failed to save group {:path=>[...]}`, the model's
     * errors as Ruby prints a hash.
     */
    create(actor: Actor, p: GroupCreate): GroupDetail {
      const parent =
        p.parent_id !== undefined && p.parent_id !== null ? access.group(actor, String(p.parent_id)) : null
      if (parent ? !canCreateSubgroup(actor, parent) : !canCreateGroup(actor)) throw forbidden()
      const values = {
        name: p.name,
        path: p.path,
        description: p.description ?? '',
        visibility: p.visibility ?? 'private',
      }
      const errors = errorsFor(values, parent)
      if (Object.keys(errors).length > 0)
        throw messageError(400, `Failed to save group ${inspectErrors(errors)}`)
      const now = isoNow(clock)
      const id = store.transaction(() => {
        const id = store.namespaces.insert({
          kind: 'group',
          ...values,
          full_path: parent ? `${parent.full_path}/${values.path}` : values.path,
          parent_id: parent?.id ?? null,
          owner_id: null,
          created_at: now,
        })
        store.members.set('namespace', id, actor.id as number, Level.owner, now)
        return id
      })
      return detail(store.namespaces.get(id) as NamespaceRow, actor)
    },

    /**
     * `PUT /groups/:id` (Owners): name, path (the paths below it follow), description, visibility
     * (not above the parent's, not below its subgroups' or projects'). 400 with the model's errors.
     */
    update(actor: Actor, id: string, p: GroupUpdate): GroupDetail {
      const group = access.group(actor, id)
      requireOwner(actor, group)
      const parent = group.parent_id === null ? null : (store.namespaces.get(group.parent_id) ?? null)
      const values = {
        name: p.name ?? group.name,
        path: p.path ?? group.path,
        description: p.description ?? group.description,
        visibility: p.visibility ?? group.visibility,
      }
      const errors = errorsFor(values, parent, group)
      if (Object.keys(errors).length > 0) throw validationError(errors)
      store.transaction(() => {
        groups.update({ id: group.id, ...values })
        if (values.path !== group.path)
          groups.move(
            group.id,
            values.path,
            group.full_path,
            parent ? `${parent.full_path}/${values.path}` : values.path,
          )
      })
      return detail(store.namespaces.get(group.id) as NamespaceRow, actor)
    },

    /**
     * `DELETE /groups/:id` (Owners). On EE, and on CE from 18.0 (`delaysDeletion`), the first call marks the
     * group for deletion (today, path and name suffixed `-deletion_scheduled-<id>`), a second is 400
     * `Group has been already marked for deletion`, and `permanently_remove` with the marked
     * subgroup's `full_path` removes it at once; CE before 18.0 removes the group at once. Removal takes
     * the groups and projects below it. The server never removes a marked group later by itself.
     */
    remove(actor: Actor, id: string, q: GroupDeleteQuery): void {
      const group = access.group(actor, id)
      requireOwner(actor, group)
      if (!delaysDeletion(instance, 'group')) return destroy(group)
      const marked = groups.markOf(group.id) !== null
      if (q.permanently_remove) {
        if (group.parent_id === null)
          throw messageError(400, '`permanently_remove` option is only available for subgroups.')
        if (!marked) throw messageError(400, 'Group must be marked for deletion first.')
        if (q.full_path !== group.full_path)
          throw messageError(
            400,
            '`full_path` is incorrect. You must enter the complete path for the subgroup.',
          )
        return destroy(group)
      }
      if (marked) throw messageError(400, 'Group has been already marked for deletion')
      const suffix = `-${DELETION_SCHEDULED}-${group.id}`
      const path = `${group.path}${suffix}`
      const fullPath = `${group.full_path}${suffix}`
      store.transaction(() => {
        groups.update({
          id: group.id,
          name: `${group.name}${suffix}`,
          description: group.description,
          visibility: group.visibility,
        })
        groups.move(group.id, path, group.full_path, fullPath)
        groups.mark(group.id, today(clock), actor.id)
      })
    },

    /**
     * `POST /groups/:id/transfer` (app/services/groups/transfer_service.rb): under `group_id`, or to
     * the top level without it. The caller must own the group and may create subgroups in the target
     * (or groups, for the top level). Refusals are 400 `Transfer failed: ...`; the group's path and
     * those below it follow, and visibility above the new parent's is lowered to it.
     */
    transfer(actor: Actor, id: string, targetId: number | undefined | null): GroupDetail {
      const group = access.group(actor, id)
      requireOwner(actor, group)
      const target =
        targetId !== undefined && targetId !== null ? access.group(actor, String(targetId)) : null
      const fail = (message: string) => messageError(400, `Transfer failed: ${message}`)
      if (!target && group.parent_id === null) throw fail('Group is already a root group.')
      if (target && target.id === group.parent_id)
        throw fail('Group is already associated to the parent group.')
      if (target ? !canCreateSubgroup(actor, target) : !canCreateGroup(actor))
        throw fail("You don't have enough permissions.")
      const tree = groups.subtree(group.id)
      if (target && tree.some((ns) => ns.id === target.id))
        throw fail('Cannot transfer group to one of its subgroup.')
      const fullPath = target ? `${target.full_path}/${group.path}` : group.path
      if (pathTaken(fullPath, group.id))
        throw fail('The parent group already has a subgroup or a project with the same path.')
      store.transaction(() => {
        groups.setParent(group.id, target?.id ?? null)
        groups.move(group.id, group.path, group.full_path, fullPath)
        if (target) {
          const above = VISIBILITIES.filter((v) => visibilityRank(v) > visibilityRank(target.visibility))
          groups.capVisibility(
            tree.map((ns) => ns.id),
            target.visibility,
            above,
          )
        }
      })
      return detail(store.namespaces.get(group.id) as NamespaceRow, actor)
    },

    /**
     * `GET /groups/:id/transfer_locations` (Owners; app/finders/groups/accepting_group_transfers_finder.rb):
     * the groups the caller may move the group under, those where it is a Maintainer or Owner (its
     * `manageable_groups`) but the group, the groups below it and its parent; `search` by name or
     * path; by name, ties by id.
     */
    transferLocations(actor: Actor, id: string, q: TransferLocationsQuery): PageOut<PublicGroupDetails> {
      const group = access.group(actor, id)
      requireOwner(actor, group)
      const excluded = new Set([...groups.subtree(group.id).map((ns) => ns.id), group.parent_id])
      const search = q.search?.toLowerCase()
      const rows = store.namespaces
        .all()
        .filter((ns) => ns.kind === 'group' && !excluded.has(ns.id))
        .filter((ns) => access.groupLevel(actor, ns) >= Level.maintainer)
        .filter(
          (ns) => !search || ns.name.toLowerCase().includes(search) || ns.path.toLowerCase().includes(search),
        )
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
      return mapPage(slicePage(rows, pageOf(q)), (ns) => ({
        id: ns.id,
        web_url: `${instance.baseUrl}/groups/${ns.full_path}`,
        name: ns.name,
        avatar_url: null,
        full_name: namespaceNames(store, ns.id).join(' / '),
        full_path: ns.full_path,
      }))
    },

    /**
     * `POST /groups/:id/share` (app/services/groups/group_links/create_service.rb): Owners share
     * the group with another group they can read, up to `group_access`. 404 `Not Found` when the
     * caller may not; 409 when it is shared with that group already.
     */
    share(actor: Actor, id: string, p: GroupShare): GroupDetail {
      if (!ACCESS_VALUES.includes(p.group_access))
        throw paramError('group_access does not have a valid value')
      if (p.expires_at && !isDate(p.expires_at)) throw paramError('expires_at is invalid')
      const group = access.group(actor, id)
      const invited = access.group(actor, String(p.group_id))
      if (!actor.admin && access.groupLevel(actor, group) < Level.owner) throw messageError(404, 'Not Found')
      if (groups.linksOf(group.id).some((l) => l.shared_with_group_id === invited.id))
        throw messageError(409, 'Shared group The group has already been shared with this group')
      groups.share(group.id, invited.id, p.group_access, p.expires_at || null, isoNow(clock))
      return detail(group, actor)
    },

    /** `DELETE /groups/:id/share/:group_id` (Owners): 404 `Group Link Not Found` when not shared. */
    unshare(actor: Actor, id: string, invitedId: number): void {
      const group = access.group(actor, id)
      requireOwner(actor, group)
      if (!groups.unshare(group.id, invitedId)) throw notFound('Group Link')
    },
  }
}
export type GroupWriteService = ReturnType<typeof groupWriteService>

/** Grape's `Date`: a real calendar day written `YYYY-MM-DD`. */
function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return false
  const d = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text
}
