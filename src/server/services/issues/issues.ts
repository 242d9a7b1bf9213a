import type { Issue, IssueCreate, IssueListQuery, IssueUpdate } from '../../../schema/index.js'
import {
  forbidden,
  messageError,
  notFound,
  recordNotFound,
  unauthorized,
  validationError,
} from '../../grape/gitlab-errors.js'
import { MAX_COUNT, decodeCursor, encodeCursor, pageOf, type Page } from '../../grape/pagination.js'
import { countTasks } from '../../domain/tasks.js'
import type { IssueView, ReferenceContext } from '../../present/issues.js'
import { KEYSET_ORDERS } from '../../store/issue-query.js'
import type { IssueWrite } from '../../store/changes.js'
import type { IssueAccessRow, IssueChanges, IssueRow } from '../../store/issues.js'
import { featureLevel } from '../project-settings.js'
import type { ProjectRow } from '../../store/projects.js'
import { Actor, Level, requireNotArchived, writable } from '../access.js'
import type { ServiceContext } from '../context.js'
import { isoNow, today } from '../../domain/clock.js'
import { epicLinks } from '../epic-links.js'
import { buildIssueQuery, type IssueListScope } from './list.js'
import { presentIssueBatch } from './records.js'
import { keptIssueCounts } from './counts.js'
import { issueFragments } from './fragments.js'
import { keptAccessRows } from './access-rows.js'
import { issueEventChanges } from '../../domain/issue-events.js'
import { keptIssueOrders } from './orders.js'
import { watchedIssueLists, type ListWatch } from '../watched-issue-lists.js'
import { descriptionQuickActions } from '../quick-actions/index.js'
import { addSystemNote, systemNoteBody } from '../system-notes.js'
import { issueInputs, validateIssue } from './inputs.js'
import { availableTo } from '../label-rules.js'
import { calendarDate } from '../../domain/calendar-date.js'

export interface IssuePage {
  /** Each issue's record as JSON (by the route's serializer). */
  issues: string[]
  page: Page
  /** Rows matched, up to MAX_COUNT + 1; undefined for keyset pages. */
  total?: number
  /** Past MAX_COUNT rows, where nothing is counted: whether a page follows this one. */
  hasMore?: boolean
  /** Keyset: the cursor of the next page, or null at the end. */
  nextCursor?: string | null
  /** For a cached answer: watches this page, so that only a write that can change it drops it. */
  watch: () => ListWatch
}

/** Hooks other services plug into issue creation. */
export interface IssueServiceOptions {
  /**
   * Runs before an issue is created (after authentication): the `issues_create` rate limit
   * (`lib/gitlab/application_rate_limiter.rb`).
   */
  beforeCreate?: (actor: Actor, project: ProjectRow) => void
}

/** Issues: lists, reads, create, edit, delete (`lib/api/issues.rb`). */
export function issueService(ctx: ServiceContext, options: IssueServiceOptions = {}) {
  const { store, access } = ctx
  const queries = store.issueQueries
  const counts = keptIssueCounts(store)
  const lists = watchedIssueLists(store)
  const fragments = issueFragments(store)
  const accessRows = keptAccessRows(store)
  const orders = keptIssueOrders(store)
  const epics = epicLinks(ctx)
  const { mayGiveType, labelIds, assigneeIds } = issueInputs(ctx)
  const present = (rows: IssueRow[], view: IssueView) => presentIssueBatch(ctx, rows, view)

  /**
   * The issue by iid, readable by the actor; 404 `404 Not found` otherwise (`find_project_issue` in
   * `lib/api/helpers/issues_helpers.rb`).
   */
  const findIssue = (actor: Actor, project: ProjectRow, iid: number): IssueRow => {
    const row = store.issues.byIid(project.id, iid)
    if (!row || !canReadIssue(actor, project, row)) throw recordNotFound()
    return row
  }
  /** As `findIssue`, with only the columns its access rule and the time stats need. */
  const findReadable = (actor: Actor, project: ProjectRow, iid: number): IssueAccessRow => {
    const row = accessRows.byIid(project.id, iid)
    if (!row || !canReadIssue(actor, project, row)) throw recordNotFound()
    return row
  }
  const canReadIssue = (actor: Actor, project: ProjectRow, row: IssueAccessRow) =>
    row.confidential === 0 ||
    access.atLeast(actor, project, Level.planner) ||
    (actor.id !== null &&
      (row.author_id === actor.id || store.issues.assigneesOf([row.id]).some((a) => a.user_id === actor.id)))
  /** `read_issue` on an issue of any project (the canonical issue of a duplicate). */
  const canReadAnyIssue = (actor: Actor) => (row: IssueRow) => {
    const project = store.projects.get(row.project_id)
    return project !== undefined && access.canReadProject(actor, project) && canReadIssue(actor, project, row)
  }
  const singleView = (actor: Actor) => `${actor.id}|single|${today(ctx.clock)}`
  /**
   * Issues `create` and `update` answered, with whether their JSON may be kept for the next read
   * (not when it shows other issues: fragments.json keeps no such record either).
   */
  const keepable = new WeakMap<Issue, boolean>()
  const answerWrite = (actor: Actor, row: IssueRow) => {
    const issue = single(actor, row)
    keepable.set(issue, fragments.keepable(row))
    return issue
  }
  const single = (actor: Actor, row: IssueRow) =>
    present([row], {
      userId: actor.id,
      withSubscribed: true,
      withLabelDetails: false,
      from: { project: row.project_id },
      canReadEpic: (epic) => epics.canRead(actor, epic),
      canReadIssue: canReadAnyIssue(actor),
    })[0] as Issue
  /**
   * An edit in one transaction, told to the caches as a write to these issues only; with quick
   * actions, whose `after` may reach any issue, as a change to everything.
   */
  const issueWrite = <T>(commands: { executed: boolean }, written: IssueWrite, fn: () => T): T =>
    commands.executed ? store.transaction(fn) : store.changes.issueWrite(written, () => store.transaction(fn))
  const requireUser = (actor: Actor) => {
    if (!actor.user) throw unauthorized()
    return actor.user
  }

  return {
    findIssue,
    findReadable,
    canReadIssue,
    canReadEpic: epics.canRead,

    /** One page of a list, with the total (capped) for the headers; `toJson` writes one record. */
    list(
      actor: Actor,
      scope: IssueListScope,
      q: IssueListQuery,
      toJson: (issue: Issue) => string,
    ): IssuePage {
      if (
        scope.kind === 'global' &&
        actor.user === null &&
        (q.scope ?? 'created_by_me').replace(/-/g, '_') !== 'all'
      )
        throw unauthorized()
      const query = buildIssueQuery(ctx, actor, scope, q)
      const from: ReferenceContext =
        scope.kind === 'project'
          ? { project: scope.project.id }
          : scope.kind === 'group'
            ? { group: scope.group.id }
            : 'global'
      const view: IssueView = {
        userId: actor.id,
        withSubscribed: false,
        withLabelDetails: q.with_labels_details === true,
        from,
        canReadEpic: (epic) => epics.canRead(actor, epic),
        canReadIssue: canReadAnyIssue(actor),
      }
      const viewKey = `${actor.id}|${JSON.stringify(from)}|${view.withLabelDetails}|${today(ctx.clock)}`
      const records = (ids: number[]) =>
        fragments.json(ids, viewKey, (rows) => present(rows, view).map(toJson))
      if (scope.kind === 'project' && q.pagination === 'keyset' && KEYSET_ORDERS.has(query.order.by)) {
        const order = { columns: [query.order.by], times: ['created_at', 'updated_at'] }
        const page: Page = { page: 1, perPage: pageOf(q).perPage, offset: 0 }
        const rows = queries.keysetPage(query, page.perPage + 1, decodeCursor(q.cursor, order))
        const more = rows.length > page.perPage
        const shown = rows.slice(0, page.perPage)
        const last = shown[shown.length - 1]
        return {
          issues: records(shown.map((r) => r.id)),
          page,
          nextCursor: more && last ? encodeCursor(order, { values: [last.key], id: last.id }) : null,
          // The row after the page decides whether a next cursor is given: it counts as shown.
          watch: () =>
            lists.watch(
              query,
              rows.map((r) => r.id),
            ),
        }
      }
      const page = pageOf(q)
      const total = counts.count(query, MAX_COUNT)
      // Uncounted, GitLab still names the next page when one more row exists (Kaminari's without_count).
      const uncounted = total > MAX_COUNT
      const ids = orders.pageIds(query, page.perPage + (uncounted ? 1 : 0), page.offset)
      const hasMore = uncounted && ids.length > page.perPage
      return {
        issues: records(ids.slice(0, page.perPage)),
        page,
        total,
        hasMore,
        watch: () => lists.watch(query, ids),
      }
    },

    /** The issue's record as JSON (`toJson` writes one record), kept for the next read. */
    get(actor: Actor, project: ProjectRow, iid: number, toJson: (issue: Issue) => string): string {
      // Kept JSON needs only the access check; the whole row is read when the JSON is made.
      const { id } = findReadable(actor, project, iid)
      const [json] = fragments.json([id], singleView(actor), ([r]) => [toJson(single(actor, r as IssueRow))])
      return json as string
    },

    /**
     * The JSON (`toJson`) of an issue `create` or `update` just answered to `actor`, kept as the
     * JSON of their next read of it: a read after a write answers the same bytes without making
     * them again. Call it once the write is over (a route, not a write inside another).
     */
    answerJson(actor: Actor, issue: Issue, toJson: (issue: Issue) => string): string {
      const json = toJson(issue)
      if (keepable.get(issue)) fragments.keep(issue.id, singleView(actor), json)
      return json
    },

    /** `GET /issues/:id`: administrators only (GitLab's doc/api/issues.md). */
    getById(actor: Actor, id: number): Issue {
      requireUser(actor)
      if (!actor.admin) throw forbidden()
      const row = store.issues.get(id)
      if (!row) throw recordNotFound()
      return single(actor, row)
    },

    create(
      actor: Actor,
      project: ProjectRow,
      input: IssueCreate,
      client: { userAgent?: string; ip?: string },
    ): Issue {
      const user = requireUser(actor)
      // `ProjectPolicy`: an archived project, or one whose issues are disabled, has no `create_issue`.
      if (!writable(project) || featureLevel(ctx.store, project.id, 'issues') === 'disabled')
        throw forbidden()
      options.beforeCreate?.(actor, project)
      // GitLab looks the epic up before the model validates, and refuses the whole request.
      const epicId = epics.forIssue(actor, project, input.epic_id, input.epic_iid)
      const commands = descriptionQuickActions({ ctx, issues: this }).onCreate(actor, project, input)
      input = commands.input
      const metadata = access.atLeast(actor, project, Level.planner)
      const ee = ctx.instance.edition === 'ee'
      validateIssue({ ...input, weight: ee && metadata ? input.weight : undefined })
      const now = isoNow(ctx.clock)
      const owner = access.atLeast(actor, project, Level.owner)
      const written: IssueWrite = { projectId: project.id, issues: [] }
      return issueWrite(commands, written, () => {
        const given = owner ? input.iid : undefined
        const iid = given ?? store.issues.nextIid(project.id)
        // The next iid is free by definition: only a given one is looked up.
        if (given !== undefined && store.issues.iidTaken(project.id, iid))
          throw messageError(409, 'Duplicated issue')
        const createdAt = owner && input.created_at ? input.created_at : now
        const tasks = countTasks(input.description ?? null)
        const milestone =
          metadata && input.milestone_id ? store.milestones.get(input.milestone_id) : undefined
        const position = store.issues.maxPosition(project.id)
        const due = metadata ? calendarDate(input.due_date) : null
        const id = store.issues.insert({
          iid,
          project_id: project.id,
          title: input.title,
          description: input.description ?? null,
          state: 'opened',
          author_id: user.id,
          created_at: createdAt,
          updated_at: createdAt,
          milestone_id: milestone && availableTo(store, project, milestone) ? milestone.id : null,
          epic_id: epicId ?? null,
          confidential: input.confidential ? 1 : 0,
          discussion_locked:
            metadata && input.discussion_locked !== undefined ? (input.discussion_locked ? 1 : 0) : null,
          issue_type:
            input.issue_type && mayGiveType(actor, project, input.issue_type) ? input.issue_type : 'issue',
          due_date: due,
          time_estimate: 0,
          total_time_spent: 0,
          // EE::IssuableBaseService#filter_params drops the weight of those who cannot admin the issue.
          weight: ctx.instance.edition === 'ee' && metadata ? (input.weight ?? null) : null,
          tasks_total: tasks.total,
          tasks_done: tasks.done,
          relative_position: (position ?? 0) + 1024,
          closed_at: null,
          closed_by_id: null,
          user_agent: client.userAgent ?? null,
          ip_address: client.ip ?? null,
        })
        written.issues.push(id)
        let labelsGiven: number[] = []
        if (metadata) {
          const labels = [...(input.labels ?? []), ...(input.add_labels ?? [])]
          labelsGiven = labelIds(project, labels, true, now)
          store.issues.addLabels(id, labelsGiven)
          const wanted = input.assignee_ids ?? (input.assignee_id !== undefined ? [input.assignee_id] : [])
          const assignees = assigneeIds(project, wanted)
          store.issues.addAssignees(id, assignees)
          for (const a of assignees) store.issues.setSubscription(id, a, true)
        }
        store.issues.setSubscription(id, user.id, true)
        // `Issuable::CommonSystemNotesService` runs on create too: a due date set is noted.
        if (due)
          addSystemNote(store, id, user.id, systemNoteBody.dueDate(due, null, ctx.instance.version), now)
        store.projects.touch(project.id, now)
        const saved = store.issues.get(id) as IssueRow
        const labelsNow = { before: [], after: [...new Set(labelsGiven)] }
        store.resourceEvents.record(
          id,
          user.id,
          issueEventChanges(undefined, saved, labelsNow, false),
          createdAt,
        )
        commands.after(saved)
        // Only the commands' `after` may have changed the row since.
        return answerWrite(actor, commands.executed ? (store.issues.get(id) as IssueRow) : saved)
      })
    },

    update(actor: Actor, project: ProjectRow, iid: number, input: IssueUpdate): Issue {
      requireUser(actor)
      const row = findIssue(actor, project, iid)
      requireNotArchived(project)
      const metadata = access.atLeast(actor, project, Level.planner)
      if (!metadata && row.author_id !== actor.id) throw forbidden()
      const epic = epics.forIssue(actor, project, input.epic_id, input.epic_iid)
      const commands = descriptionQuickActions({ ctx, issues: this }).onUpdate(actor, project, row, input)
      input = commands.input
      const ee = ctx.instance.edition === 'ee'
      validateIssue({ ...input, weight: ee && metadata ? input.weight : undefined })
      const owner = access.atLeast(actor, project, Level.owner)
      const now = isoNow(ctx.clock)
      if (
        input.issue_type &&
        input.issue_type !== row.issue_type &&
        (input.issue_type === 'task' || row.issue_type === 'task')
      )
        throw validationError({
          work_item_type_id: [`can not be changed to ${input.issue_type === 'task' ? 'Task' : 'Issue'}`],
        })
      // A state change moves the `blocking_issues_count` of the issues blocking this one: they are
      // written too, in their own projects.
      const blockers = input.state_event ? store.issueLinks.blockersOf(row.id) : []
      const elsewhere = new Set(blockers.map((b) => b.project_id).filter((id) => id !== project.id))
      const written: IssueWrite = {
        projectId: project.id,
        ...(elsewhere.size > 0 ? { otherProjectIds: [...elsewhere] } : {}),
        issues: [row.id, ...blockers.map((b) => b.id)],
      }
      return issueWrite(commands, written, () => {
        const changes: IssueChanges = {}
        if (epic !== undefined) changes.epic_id = epic
        let assigneeNote: string | undefined
        if (input.title !== undefined) changes.title = input.title
        if (input.description !== undefined) {
          changes.description = input.description
          const tasks = countTasks(input.description)
          changes.tasks_total = tasks.total
          changes.tasks_done = tasks.done
        }
        if (input.confidential !== undefined) changes.confidential = input.confidential ? 1 : 0
        if (input.issue_type !== undefined && mayGiveType(actor, project, input.issue_type))
          changes.issue_type = input.issue_type
        if (input.state_event === 'close' && row.state === 'opened')
          Object.assign(changes, { state: 'closed', closed_at: now, closed_by_id: actor.id })
        if (input.state_event === 'reopen' && row.state === 'closed')
          Object.assign(changes, { state: 'opened', closed_at: null, closed_by_id: null })
        let labelChange: { before: number[]; after: number[] } = { before: [], after: [] }
        if (metadata) {
          if (input.discussion_locked !== undefined)
            changes.discussion_locked = input.discussion_locked ? 1 : 0
          if (input.due_date !== undefined) {
            const due = input.due_date === '' ? null : calendarDate(input.due_date)
            if (due !== null || input.due_date === '') changes.due_date = due
          }
          if (input.milestone_id !== undefined) {
            if (!input.milestone_id) changes.milestone_id = null
            else {
              const m = store.milestones.get(input.milestone_id)
              if (m && availableTo(store, project, m)) changes.milestone_id = m.id
            }
          }
          if (input.weight !== undefined && ctx.instance.edition === 'ee') changes.weight = input.weight
          if (input.labels !== undefined || input.add_labels || input.remove_labels) {
            const current = store.labels.ofIssues([row.id]).map((l) => l.id)
            let ids = input.labels !== undefined ? labelIds(project, input.labels, true, now) : current
            if (input.add_labels) ids = [...ids, ...labelIds(project, input.add_labels, true, now)]
            if (input.remove_labels) {
              const drop = new Set(labelIds(project, input.remove_labels, false, now))
              ids = ids.filter((id) => !drop.has(id))
            }
            labelChange = { before: current, after: [...new Set(ids)] }
            store.issues.changeLabels(row.id, current, labelChange.after)
            changes.updated_at = now
          }
          const wanted =
            input.assignee_ids ?? (input.assignee_id !== undefined ? [input.assignee_id] : undefined)
          if (wanted !== undefined) {
            const before = store.issues.assigneesOf([row.id]).map((a) => a.user_id)
            const assignees = assigneeIds(project, wanted)
            store.issues.setAssignees(row.id, assignees)
            for (const a of assignees) store.issues.setSubscription(row.id, a, true)
            changes.updated_at = now
            const names = (ids: number[]) => ids.map((id) => store.users.get(id)?.username ?? `${id}`)
            assigneeNote = systemNoteBody.assignees(
              names(assignees.filter((id) => !before.includes(id))),
              names(before.filter((id) => !assignees.includes(id))),
            )
          }
        }
        if (Object.keys(changes).length > 0) changes.updated_at = now
        if (input.updated_at && owner) changes.updated_at = input.updated_at
        store.issues.update(row.id, changes)
        const edited = { ...row, ...changes }
        const ee = ctx.instance.edition === 'ee'
        store.resourceEvents.record(row.id, actor.id, issueEventChanges(row, edited, labelChange, ee), now)
        // GitLab's order: the common notes (title, description, discussion lock, due date), then
        // assignees and confidentiality.
        const notes = [
          changes.title !== undefined && changes.title !== row.title
            ? systemNoteBody.title(row.title, changes.title)
            : undefined,
          changes.description !== undefined && changes.description !== row.description
            ? systemNoteBody.description()
            : undefined,
          changes.discussion_locked !== undefined && changes.discussion_locked !== row.discussion_locked
            ? systemNoteBody.discussionLock(changes.discussion_locked === 1)
            : undefined,
          changes.due_date !== undefined && changes.due_date !== row.due_date
            ? systemNoteBody.dueDate(changes.due_date, row.due_date, ctx.instance.version)
            : undefined,
          assigneeNote,
          changes.confidential !== undefined && changes.confidential !== row.confidential
            ? systemNoteBody.confidential(changes.confidential === 1)
            : undefined,
        ]
        for (const body of notes) if (body) addSystemNote(store, row.id, actor.id as number, body, now)
        store.projects.touch(project.id, now)
        // The row as stored: nothing after the update writes it (system notes count in no column).
        commands.after(edited)
        // Only the commands' `after` may have changed the row since.
        return answerWrite(actor, commands.executed ? (store.issues.get(row.id) as IssueRow) : edited)
      })
    },

    /** Owners and administrators only; 404 `Issue Not Found` for a missing issue (`lib/api/issues.rb`). */
    remove(actor: Actor, project: ProjectRow, iid: number): void {
      requireUser(actor)
      const row = store.issues.byIid(project.id, iid)
      if (!row || !canReadIssue(actor, project, row)) throw notFound('Issue')
      if (!access.atLeast(actor, project, Level.owner)) throw forbidden()
      store.transaction(() => store.issues.remove(row.id))
    },
  }
}
export type IssueService = ReturnType<typeof issueService>
