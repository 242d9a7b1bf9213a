import type { LabelCreate, LabelUpdate, ProjectLabel, ProjectLabelWithCounts } from '../../schema/index.js'
import { labelColor } from '../domain/label-colors.js'
import { writtenText } from '../domain/plain-text.js'
import { forbidden, messageError, notFound } from '../grape/gitlab-errors.js'
import {
  availableTo,
  byLabelTitle,
  editedLabel,
  findLabel,
  labelMatches,
  setLabelSubscription,
  validateLabel,
} from './label-rules.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentProjectLabel, type LabelCounts } from '../present/issues.js'
import type { LabelRow } from '../store/labels.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, requireNotArchived, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { isoNow } from '../domain/clock.js'

interface Paging {
  page?: number
  per_page?: number
}

/**
 * A project's labels (`lib/api/labels.rb`, `lib/api/helpers/label_helpers.rb`, `lib/api/subscriptions.rb`):
 * list, read, create, edit, delete, subscribe. Labels are ordered by title; `search` matches inside
 * titles and descriptions case-insensitively (`Label.search`). Lists and reads include the project's groups'
 * labels (`include_ancestor_groups`, default true; `is_project_label: false`); edits and deletes only its own.
 * Writes need `admin_label` (Planner and up, the project not archived), reads whoever may read the project.
 */
export function projectLabelService(ctx: ServiceContext) {
  const { store, access } = ctx

  const requireAdmin = (actor: Actor, project: ProjectRow) => {
    requireNotArchived(project)
    if (!access.atLeast(actor, project, Level.planner)) throw forbidden()
  }
  const present = (actor: Actor, row: LabelRow) =>
    presentProjectLabel(row, actor.id !== null && store.labels.subscribed(row.id, actor.id))

  /**
   * `find_label`: by id first (as ActiveRecord casts the text to one), then by exact title; among the
   * project's groups' labels too unless `ownOnly` (`include_ancestor_groups: false`, as edits ask).
   */
  const find = (project: ProjectRow, ref: string, ownOnly = false): LabelRow => {
    const label = ownOnly
      ? findLabel(
          store,
          ref,
          (l) => l.project_id === project.id,
          (t) => store.labels.byTitle(project.id, t),
        )
      : findLabel(
          store,
          ref,
          (l) => availableTo(store, project, l),
          (t) => store.labels.availableByTitle(project, t),
        )
    if (!label) throw notFound('Label')
    return label
  }

  /** A project label's rules (label-rules.ts), a group of the project's having the title too. */
  const validate = (project: ProjectRow, title: string | null, color: string, self?: number) =>
    validateLabel(
      title,
      color,
      (t) => store.labels.byTitle(project.id, t),
      self,
      (t) => {
        const found = store.labels.availableByTitle(project, t)
        return found?.group_id ? store.namespaces.get(found.group_id)?.name : undefined
      },
    )

  return {
    /**
     * `with_counts`: each label's issue counts as `countsOf` finds them for the caller (the issue
     * lists' own rules); merge requests carry no labels here, so none are open.
     */
    labels(
      actor: Actor,
      projectId: string,
      q: Paging & { search?: string; with_counts?: boolean; include_ancestor_groups?: boolean },
      countsOf?: (project: ProjectRow, title: string) => Omit<LabelCounts, 'open_merge_requests_count'>,
    ): PageOut<ProjectLabel | ProjectLabelWithCounts> {
      const project = access.project(actor, projectId)
      const search = q.search?.toLowerCase()
      const subscribed = actor.id === null ? new Set<number>() : store.labels.subscribedBy(actor.id)
      const rows = (
        q.include_ancestor_groups === false
          ? store.labels.ofProject(project.id)
          : store.labels.available(project)
      )
        .filter(labelMatches(search))
        .sort(byLabelTitle)
      const counts = (l: LabelRow) =>
        q.with_counts && countsOf
          ? { ...countsOf(project, l.title), open_merge_requests_count: 0 }
          : undefined
      return mapPage(slicePage(rows, pageOf(q)), (l) =>
        presentProjectLabel(l, subscribed.has(l.id), counts(l)),
      )
    },

    get(actor: Actor, projectId: string, ref: string, includeAncestors = true): ProjectLabel {
      const project = access.project(actor, projectId)
      return present(actor, find(project, ref, !includeAncestors))
    },

    /** 409 `Label already exists` for a title the project or its groups have, before the model validates. */
    create(actor: Actor, projectId: string, input: LabelCreate): ProjectLabel {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      if (store.labels.availableByTitle(project, input.name)) throw messageError(409, 'Label already exists')
      const title = writtenText(input.name)?.trim() ?? null
      const color = labelColor(input.color)
      validate(project, title, color)
      const id = store.transaction(() => {
        const made = store.labels.insert(
          project.id,
          title as string,
          color,
          writtenText(input.description) ?? null,
          isoNow(ctx.clock),
        )
        if (input.priority !== undefined && input.priority !== null)
          store.labels.setPriority(made, input.priority)
        return made
      })
      return present(actor, store.labels.get(id) as LabelRow)
    },

    /** `Labels::UpdateService`: `new_name` becomes the title; a blank title or description is not written. */
    update(actor: Actor, projectId: string, ref: string, input: LabelUpdate): ProjectLabel {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      const label = find(project, ref, true)
      const changes =
        input.new_name !== undefined || input.color !== undefined || input.description !== undefined
      const { title, color, description } = editedLabel(label, input)
      if (changes) validate(project, title, color, label.id)
      store.transaction(() => {
        if (changes) store.labels.update(label.id, { title, color, description })
        if (input.priority !== undefined) store.labels.setPriority(label.id, input.priority)
      })
      return present(actor, store.labels.get(label.id) as LabelRow)
    },

    /** 404 for a label the project lacks comes before the role check (`delete_label`). */
    remove(actor: Actor, projectId: string, ref: string): void {
      const project = access.project(actor, projectId)
      const label = find(project, ref, true)
      requireAdmin(actor, project)
      store.labels.remove(label.id)
    },

    /** `POST .../subscribe` and `.../unsubscribe`: 304 when there is nothing to change. */
    subscribe(actor: Actor, projectId: string, ref: string, subscribed: boolean): ProjectLabel {
      const project = access.project(actor, projectId)
      const label = find(project, ref)
      setLabelSubscription(store, label, actor.id as number, subscribed)
      return present(actor, label)
    },
  }
}
export type ProjectLabelService = ReturnType<typeof projectLabelService>
