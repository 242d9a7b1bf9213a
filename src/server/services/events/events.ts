import type { CurrentUserEventQuery, Event, EventListQuery, Note } from '../../../schema/index.js'
import {
  EVENT_ACTIONS,
  COMMIT_NOTE_TARGETS,
  EVENT_TARGET_CLASSES,
  PROJECT_EVENT_ACTIONS,
  storedTargetTypes,
  type EventAction,
} from '../../domain/event-actions.js'
import { applies } from '../../domain/releases.js'
import { notFound } from '../../grape/gitlab-errors.js'
import { MAX_COUNT, pageOf, type PageOut } from '../../grape/pagination.js'
import { presentEvent, type EventTarget } from '../../present/events.js'
import { presentNote, presentNoteOfCommit } from '../../present/notes.js'
import { commitTitle } from '../../present/push-payloads.js'
import { readCommit } from '../../git/history.js'
import type { EventFilter, EventRow } from '../../store/events.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import { downloadsCode } from '../ci-access.js'
import { canReadInternalNotes, requireUser, type IssueDeps } from '../issues/lookup.js'

/**
 * The Events API (`lib/api/events.rb`, `lib/api/project_events.rb`, `EventsFinder`): events of projects
 * the caller may see, filtered and paged in the store, newest first unless `sort=asc`. As GitLab's
 * finder, a page is cut first and its events the caller may not see (`Event#visible_to_user?`: a
 * push or a comment on a commit needs `download_code`, an issue or a comment on one `read_issue`, an internal note
 * `read_internal_note`, an event whose target is gone nobody) are then left out: `X-Total` counts
 * them, a page may hold fewer than `per_page`.
 */
export function eventService(deps: IssueDeps) {
  const { store, access, instance } = deps.ctx

  /** The projects whose events the caller may list (`Project.public_or_visible_to_user`); all for administrators. */
  const visibleProjects = (actor: Actor): number[] | undefined =>
    actor.admin ? undefined : access.readableProjects(actor).map(({ project }) => project.id)

  const projectTargets = () => applies(instance.version, 'projectEventTargets')

  /** The event as the caller may see it; undefined when not. */
  function shown(actor: Actor, row: EventRow, project: ProjectRow, code: () => boolean): Event | undefined {
    let target: EventTarget | undefined
    let note: Note | undefined
    if (row.target_type === null && PROJECT_EVENT_ACTIONS.includes(row.action) && projectTargets()) {
      // Stored without a target, shown with the project as one (RELEASE_RULES.projectEventTargets);
      // a project has no iid and its title is its name (`alias_attribute :title, :name`).
      row = { ...row, target_type: 'Project', target_id: project.id }
      target = { iid: project.id, title: project.name }
    } else if (row.action === EVENT_ACTIONS.pushed) {
      if (!code()) return undefined
    } else if (row.target_type === 'Issue') {
      const issue = store.issues.get(row.target_id ?? 0)
      if (!issue || !deps.issues.canReadIssue(actor, project, issue)) return undefined
      target = { iid: issue.iid, title: issue.title }
    } else if (row.target_type === 'Note' || row.target_type === 'DiscussionNote') {
      const found = store.notes.get(row.target_id ?? 0)
      const issue = found && store.issues.get(found.issue_id)
      if (!found || !issue || !deps.issues.canReadIssue(actor, project, issue)) return undefined
      if (found.internal === 1 && !canReadInternalNotes(deps, actor, project)) return undefined
      // A note has no iid: `target_iid` is its id; its title is its issue's (`delegate :title, to: :noteable`).
      target = { iid: found.id, title: issue.title }
      note = presentNote(instance, found, issue, store.users.get(found.author_id))
    } else if (row.target_type !== null && row.target_type in COMMIT_NOTE_TARGETS) {
      // `commit_note?`: shown to those who may read the code; its title is its commit's.
      const found = store.commitNotes.get(row.target_id ?? 0)
      const commit = found && readCommit(store.gitObjects, found.commit_sha)
      const author = found && store.users.get(found.author_id)
      if (!found || !commit || !author || !code()) return undefined
      row = { ...row, target_type: COMMIT_NOTE_TARGETS[row.target_type]! }
      target = { iid: found.id, title: commitTitle(commit.message) }
      note = presentNoteOfCommit(instance, found, author)
    } else if (row.target_type === 'Milestone') {
      const milestone = store.milestones.get(row.target_id ?? 0)
      if (!milestone) return undefined
      target = { iid: milestone.iid, title: milestone.title }
    }
    return presentEvent(instance, row, store.users.get(row.author_id), target, note)
  }

  function listed(actor: Actor, base: Omit<EventFilter, 'sort'>, q: EventListQuery): PageOut<Event> {
    const page = pageOf(q)
    const filter: EventFilter = {
      ...base,
      ...(q.action !== undefined ? { action: EVENT_ACTIONS[q.action as EventAction] } : {}),
      ...(q.target_type !== undefined
        ? { targetTypes: storedTargetTypes(EVENT_TARGET_CLASSES[q.target_type]!) }
        : {}),
      ...(q.target_type === 'project' && projectTargets()
        ? { untargetedActions: PROJECT_EVENT_ACTIONS }
        : {}),
      // `before.beginning_of_day` and `after.end_of_day`, both exclusive.
      ...(q.before !== undefined ? { before: `${q.before}T00:00:00.000Z` } : {}),
      ...(q.after !== undefined ? { after: `${q.after}T23:59:59.999Z` } : {}),
      sort: q.sort === 'asc' ? 'asc' : 'desc',
    }
    const total = store.events.count(filter, MAX_COUNT + 1)
    const rows = store.events.page(filter, page.perPage, page.offset)
    const code = new Map<number, boolean>()
    const items = rows.flatMap((row) => {
      const project = store.projects.get(row.project_id)
      if (!project) return []
      const downloads = () => {
        let can = code.get(project.id)
        if (can === undefined) code.set(project.id, (can = downloadsCode(store, access, actor, project)))
        return can
      }
      const event = shown(actor, row, project, downloads)
      return event ? [event] : []
    })
    return { items, page, total, hasMore: page.offset + page.perPage < total }
  }

  return {
    /** `GET /events`: the caller's own events, or with `scope=all` every event of the projects they are a member of. */
    ofCurrentUser(actor: Actor, q: CurrentUserEventQuery): PageOut<Event> {
      const user = requireUser(actor)
      if (q.scope === 'all') {
        const member = access
          .readableProjects(actor)
          .filter(({ level }) => level > 0)
          .map(({ project }) => project.id)
        return listed(actor, { projectIds: member }, q)
      }
      return listed(actor, { authorId: user.id, projectIds: visibleProjects(actor) }, q)
    },
    /**
     * `GET /users/:id/events` (by id or username; 404 `User Not Found`): the user's events in projects the
     * caller may see; none of a private profile but to the user and administrators.
     */
    ofUser(actor: Actor, ref: string, q: EventListQuery): PageOut<Event> {
      const user = /^\d+$/.test(ref) ? store.users.get(Number(ref)) : store.users.byUsername(ref)
      if (!user) throw notFound('User')
      const hidden =
        store.users.profile(user.id)?.private_profile === 1 && !actor.admin && actor.id !== user.id
      if (hidden) return { items: [], page: pageOf(q), total: 0 }
      return listed(actor, { authorId: user.id, projectIds: visibleProjects(actor) }, q)
    },
    /** `GET /projects/:id/events`: the project's events (404 `Project Not Found` when hidden). */
    ofProject(actor: Actor, ref: string, q: EventListQuery): PageOut<Event> {
      const project = access.project(actor, ref)
      return listed(actor, { projectIds: [project.id] }, q)
    },
  }
}
export type EventService = ReturnType<typeof eventService>
