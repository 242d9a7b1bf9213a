import { rubyToI } from '../grape/params.js'
import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'
import { notModified, validationError } from '../grape/gitlab-errors.js'
import { labelColor } from '../domain/label-colors.js'
import { writtenText } from '../domain/plain-text.js'
import type { LabelRow } from '../store/labels.js'

const MAX_TITLE = 255

/**
 * `Label`'s validations in their order (color, then title: presence, format, uniqueness, length), for
 * project and group labels alike (`app/models/label.rb`); `title` and `color` as the model holds them
 * after `strip_whitespace_from_title_and_color`. `taken` finds the owner's label of a title; `atGroup`
 * (a project label's, `ProjectLabel#title_must_not_exist_at_group_level`) names the group that has
 * one already. Throws 400 `{"message":{"title":[...]}}`.
 */
export function validateLabel(
  title: string | null,
  color: string,
  taken: (title: string) => LabelRow | undefined,
  self?: number,
  atGroup?: (title: string) => string | undefined,
): void {
  const errors: Record<string, string[]> = {}
  if (!/^#(?:[0-9A-Fa-f]{3}){1,2}$/.test(color)) errors.color = ['must be a valid color code']
  const titleErrors: string[] = []
  if (!title) titleErrors.push("can't be blank")
  if (!title || title.includes(',')) titleErrors.push('is invalid')
  const other = title ? taken(title) : undefined
  if (other && other.id !== self) titleErrors.push('has already been taken')
  if (title && [...title].length > MAX_TITLE)
    titleErrors.push(`is too long (maximum is ${MAX_TITLE} characters)`)
  const group = title ? atGroup?.(title) : undefined
  if (group !== undefined)
    titleErrors.push(`already exists at group level for ${group}. Please choose another one.`)
  if (titleErrors.length > 0) errors.title = titleErrors
  if (Object.keys(errors).length > 0) throw validationError(errors)
}

/**
 * `find_label` (`lib/api/helpers/label_helpers.rb`): `labels.find_by_id(ref) || labels.find_by_title(ref)`
 * among the labels `visible` admits; the text is read as an id as ActiveRecord casts it.
 */
export function findLabel(
  store: Store,
  ref: string,
  visible: (label: LabelRow) => boolean,
  byTitle: (title: string) => LabelRow | undefined,
): LabelRow | undefined {
  const id = /^\s*[+-]?\d/.test(ref) ? rubyToI(ref) : undefined
  const byId = id === undefined ? undefined : store.labels.get(id)
  return byId && visible(byId) ? byId : byTitle(ref)
}

/** True when the project may use the label or milestone: its own, or one of its groups' (or their ancestors'). */
export function availableTo(
  store: Store,
  project: ProjectRow,
  label: { project_id: number | null; group_id: number | null },
): boolean {
  if (label.project_id !== null) return label.project_id === project.id
  return inGroupChain(store, project.namespace_id, label.group_id)
}

/** True when `groupId` is the namespace `namespaceId` or one of its ancestors. */
export function inGroupChain(store: Store, namespaceId: number | null, groupId: number | null): boolean {
  for (let id = namespaceId; id !== null;) {
    if (id === groupId) return true
    id = store.namespaces.get(id)?.parent_id ?? null
  }
  return false
}

/** `Labels::UpdateService`'s new fields: `new_name` becomes the title; a blank title or description is not written. */
export function editedLabel(
  label: LabelRow,
  input: { new_name?: string; color?: string; description?: string },
): { title: string; color: string; description: string | null } {
  return {
    title: (writtenText(input.new_name) ?? label.title).trim(),
    color: input.color === undefined ? label.color : labelColor(input.color),
    description: writtenText(input.description) ?? label.description,
  }
}

/**
 * `POST .../subscribe` and `.../unsubscribe` (`lib/api/subscriptions.rb`): 304 when there is nothing
 * to change. Only label records show it (their `subscribed`, for the subscriber; an issue's
 * `subscribed` is its own subscription or participation, `Issuable#subscribed_without_subscriptions?`),
 * and none is cached: no cache is told of it (changes.ts `uncachedWrite`).
 */
export function setLabelSubscription(store: Store, label: LabelRow, user: number, on: boolean): void {
  if (store.labels.subscribed(label.id, user) === on) throw notModified()
  store.changes.uncachedWrite(() =>
    on ? store.labels.subscribe(label.id, user) : store.labels.unsubscribe(label.id, user),
  )
}

/** `Label.search`: the text inside the title or the description, case-insensitively; no text matches all. */
export const labelMatches = (search: string | undefined) => (label: LabelRow) =>
  !search ||
  label.title.toLowerCase().includes(search) ||
  (label.description ?? '').toLowerCase().includes(search)

/** Labels' list order: by title, then by id. */
export const byLabelTitle = (a: LabelRow, b: LabelRow) =>
  a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id
