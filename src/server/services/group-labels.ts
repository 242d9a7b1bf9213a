import type { GroupLabel, GroupLabelWithCounts, LabelCreate, LabelUpdate } from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { labelColor } from '../domain/label-colors.js'
import { writtenText } from '../domain/plain-text.js'
import { forbidden, messageError, notFound } from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentGroupLabel, type LabelCounts } from '../present/issues.js'
import type { LabelRow } from '../store/labels.js'
import type { NamespaceRow } from '../store/namespaces.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import {
  byLabelTitle,
  editedLabel,
  findLabel,
  inGroupChain,
  labelMatches,
  setLabelSubscription,
  validateLabel,
} from './label-rules.js'

/** `GET /groups/:id/labels`' parameters (`lib/api/group_labels.rb`). */
export interface GroupLabelQuery {
  page?: number
  per_page?: number
  search?: string
  with_counts?: boolean
  include_ancestor_groups?: boolean
  include_descendant_groups?: boolean
}

/**
 * A group's labels (`lib/api/group_labels.rb`, `lib/api/helpers/label_helpers.rb`,
 * `Labels::CreateService`, `Labels::UpdateService`): list (by title, with the ancestors' labels unless
 * `include_ancestor_groups=false`, and the subgroups' with `include_descendant_groups`), read, create,
 * edit, delete, subscribe. Reads need the group to be visible; writes `admin_label` (Planner and up).
 * `only_group_labels=false` (the projects' labels as well) is not modelled: the list holds group labels only.
 */
export function groupLabelService(ctx: ServiceContext) {
  const { store, access } = ctx

  const requireAdmin = (actor: Actor, group: NamespaceRow) => {
    if (!actor.admin && access.groupLevel(actor, group) < Level.planner) throw forbidden()
  }
  const subscribed = (actor: Actor, row: LabelRow) =>
    actor.id !== null && store.labels.subscribed(row.id, actor.id)

  /** `find_label` among the group's labels (and its ancestors' unless `ownOnly`, as edits ask). */
  const find = (group: NamespaceRow, ref: string, ownOnly = false): LabelRow => {
    const label = ownOnly
      ? findLabel(
          store,
          ref,
          (l) => l.group_id === group.id,
          (t) => store.labels.groupByTitle(group.id, t),
        )
      : findLabel(
          store,
          ref,
          (l) => l.group_id !== null && inGroupChain(store, group.id, l.group_id),
          (t) => store.labels.ofGroups(group.id).find((l) => l.title === t),
        )
    if (!label) throw notFound('Label')
    return label
  }
  const validate = (group: NamespaceRow, title: string | null, color: string, self?: number) =>
    validateLabel(title, color, (t) => store.labels.groupByTitle(group.id, t), self)

  /** The group's labels as the list's flags pick them, by title. */
  const listed = (group: NamespaceRow, q: GroupLabelQuery): LabelRow[] => {
    const rows =
      q.include_ancestor_groups === false
        ? store.labels.ofGroups(group.id).filter((l) => l.group_id === group.id)
        : store.labels.ofGroups(group.id)
    if (!q.include_descendant_groups) return rows
    const prefix = `${group.full_path.toLowerCase()}/`
    const below = store.namespaces
      .all()
      .filter((n) => n.kind === 'group' && n.full_path.toLowerCase().startsWith(prefix))
      .flatMap((n) => store.labels.ofGroups(n.id).filter((l) => l.group_id === n.id))
    return [...rows, ...below].sort(byLabelTitle)
  }

  return {
    find,

    /** `with_counts`: each label's issue counts as `countsOf` finds them for the caller. */
    labels(
      actor: Actor,
      groupId: string,
      q: GroupLabelQuery,
      countsOf?: (group: NamespaceRow, title: string) => Omit<LabelCounts, 'open_merge_requests_count'>,
    ): PageOut<GroupLabel | GroupLabelWithCounts> {
      const group = access.group(actor, groupId)
      const search = q.search?.toLowerCase()
      const mine = actor.id === null ? new Set<number>() : store.labels.subscribedBy(actor.id)
      const rows = listed(group, q).filter(labelMatches(search))
      const counts = (l: LabelRow) =>
        q.with_counts && countsOf ? { ...countsOf(group, l.title), open_merge_requests_count: 0 } : undefined
      return mapPage(slicePage(rows, pageOf(q)), (l) => presentGroupLabel(l, mine.has(l.id), counts(l)))
    },

    get(actor: Actor, groupId: string, ref: string, includeAncestors = true): GroupLabel {
      const group = access.group(actor, groupId)
      const label = find(group, ref, !includeAncestors)
      return presentGroupLabel(label, subscribed(actor, label))
    },

    /** 409 `Label already exists` for a title the group or its ancestors have, before the model validates. */
    create(actor: Actor, groupId: string, input: Omit<LabelCreate, 'priority'>): GroupLabel {
      const group = access.group(actor, groupId)
      requireAdmin(actor, group)
      if (store.labels.ofGroups(group.id).some((l) => l.title === input.name))
        throw messageError(409, 'Label already exists')
      const title = writtenText(input.name)?.trim() ?? null
      const color = labelColor(input.color)
      validate(group, title, color)
      const id = store.labels.insertInGroup(
        group.id,
        title as string,
        color,
        writtenText(input.description) ?? null,
        isoNow(ctx.clock),
      )
      return presentGroupLabel(store.labels.get(id) as LabelRow, false)
    },

    /** `Labels::UpdateService`: `new_name` becomes the title; a blank title or description is not written. */
    update(actor: Actor, groupId: string, ref: string, input: Omit<LabelUpdate, 'priority'>): GroupLabel {
      const group = access.group(actor, groupId)
      requireAdmin(actor, group)
      const label = find(group, ref, true)
      const { title, color, description } = editedLabel(label, input)
      validate(group, title, color, label.id)
      store.labels.update(label.id, { title, color, description })
      const row = store.labels.get(label.id) as LabelRow
      return presentGroupLabel(row, subscribed(actor, row))
    },

    /** 404 for a label the group lacks comes before the role check (`delete_label`). */
    remove(actor: Actor, groupId: string, ref: string): void {
      const group = access.group(actor, groupId)
      const label = find(group, ref, true)
      requireAdmin(actor, group)
      store.labels.remove(label.id)
    },

    /** `POST .../subscribe` and `.../unsubscribe`: 304 when there is nothing to change. */
    subscribe(actor: Actor, groupId: string, ref: string, on: boolean): GroupLabel {
      const group = access.group(actor, groupId)
      const label = find(group, ref)
      setLabelSubscription(store, label, actor.id as number, on)
      return presentGroupLabel(label, on)
    },
  }
}
export type GroupLabelService = ReturnType<typeof groupLabelService>
