import { guessTier } from '../../ci/environment.js'
import { messageError } from '../../grape/gitlab-errors.js'
import type { HookDelivery, HookName } from '../../jobs/hook-delivery.js'
import { readCommit } from '../../git/history.js'
import { commitNotePayload } from '../../present/commit-note-hook.js'
import { deploymentPayload, type HookDeployment } from '../../present/deployment-hook.js'
import {
  issuePayload,
  jobPayload,
  labelHookAttrs,
  notePayload,
  pipelinePayload,
  userHookAttrs,
  type HookChanges,
  type HookEnvironment,
  type HookIssue,
} from '../../present/hook-payloads.js'
import type { DeploymentRow } from '../../store/environments.js'
import type { IssueRow } from '../../store/issues.js'
import type { NoteRow } from '../../store/notes.js'
import type { JobRow, PipelineRow } from '../../store/pipelines.js'
import type { ProjectRow } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import type { HookEvent } from '../../store/web-hooks.js'
import type { Actor } from '../access.js'
import type { CommitNoteMade } from '../repository/commit-notes.js'
import { hookProject as hookProjectOf } from './hook-project.js'
import { pushSample } from './push-events.js'
import type { ServiceContext } from '../context.js'

/** An issue as it was before a write: its row, labels and assignees (what `changes` compares). */
export type IssueBefore = HookIssue

/** The columns of an issue whose changes a payload reports (`IssueBuilder::SAFE_HOOK_ATTRIBUTES`). */
const CHANGED_COLUMNS = [
  'author_id',
  'closed_at',
  'confidential',
  'description',
  'discussion_locked',
  'due_date',
  'milestone_id',
  'moved_to_id',
  'duplicated_to_id',
  'relative_position',
  'time_estimate',
  'title',
] as const

const toBool = (v: number | null) => (v === null ? null : v === 1)

/**
 * Turns what the server does into webhook events (`Issues::BaseService#execute_hooks`,
 * `Notes::PostProcessService#execute_note_hooks`, `Ci::Pipeline`'s and `Ci::Build`'s transitions): loads
 * what the payload shows, picks the project's hooks for the event (confidential issues and notes only
 * to hooks that take confidential ones) and queues the deliveries.
 */
export function hookEvents(ctx: ServiceContext, delivery: HookDelivery) {
  const { store, instance } = ctx

  const hookProject = (row: ProjectRow) => hookProjectOf(store, row)
  const loadIssue = (row: IssueRow): HookIssue => {
    const assignees = store.issues
      .assigneesOf([row.id])
      .map((a) => store.users.get(a.user_id))
      .filter((u): u is UserRow => u !== undefined)
    return { row, labels: store.labels.ofIssues([row.id]), assignees }
  }
  const send = (projectId: number, event: HookEvent, hookName: HookName, payload: unknown) => {
    const hooks = store.webHooks.forProject(projectId).filter((h) => h[event] === 1)
    if (hooks.length > 0) delivery.enqueue(hooks, hookName, payload)
  }
  const hasHooks = (projectId: number) =>
    store.webHooks.any() && store.webHooks.forProject(projectId).length > 0

  /** `final_changes`: what differs between the two states, as previous and current. */
  function issueChanges(before: HookIssue, after: HookIssue): HookChanges {
    const changes: HookChanges = {}
    for (const c of CHANGED_COLUMNS) {
      const [was, now] = [before.row[c], after.row[c]]
      if (was === now) continue
      const bool = c === 'confidential' || c === 'discussion_locked'
      changes[c] = bool
        ? { previous: toBool(was as number | null), current: toBool(now as number | null) }
        : { previous: was, current: now }
    }
    if (before.row.state !== after.row.state)
      changes.state_id = {
        previous: before.row.state === 'opened' ? 1 : 2,
        current: after.row.state === 'opened' ? 1 : 2,
      }
    const labelIds = (i: HookIssue) => i.labels.map((l) => l.id).join(',')
    if (labelIds(before) !== labelIds(after)) {
      changes.labels = {
        previous: before.labels.map(labelHookAttrs),
        current: after.labels.map(labelHookAttrs),
      }
    }
    const assigneeIds = (i: HookIssue) => i.assignees.map((a) => a.id).join(',')
    if (assigneeIds(before) !== assigneeIds(after)) {
      changes.assignees = {
        previous: before.assignees.map(userHookAttrs),
        current: after.assignees.map(userHookAttrs),
      }
    }
    if (Object.keys(changes).length > 0 && before.row.updated_at !== after.row.updated_at)
      changes.updated_at = { previous: before.row.updated_at, current: after.row.updated_at }
    return changes
  }
  const project = (i: HookIssue) => store.projects.get(i.row.project_id)!

  function issueEvent(user: UserRow, issue: HookIssue, action: string, changes: HookChanges) {
    const p = project(issue)
    const confidential = issue.row.confidential === 1
    const payload = issuePayload(instance, hookProject(p), user, issue, action, changes)
    if (confidential) send(p.id, 'confidential_issues_events', 'confidential_issue_hooks', payload)
    else send(p.id, 'issues_events', 'issue_hooks', payload)
  }

  function notePayloadOf(user: UserRow, note: NoteRow, action: string) {
    const issueRow = store.issues.get(note.issue_id)!
    const p = store.projects.get(issueRow.project_id)!
    const confidential = note.internal === 1 || issueRow.confidential === 1
    return {
      project: p,
      confidential,
      payload: notePayload(instance, hookProject(p), user, note, loadIssue(issueRow), action),
    }
  }

  /** A job's `environment:`, from its definition (jobs of a seed's shortcut have none). */
  const environmentOf = (jobId: number): HookEnvironment | undefined => {
    const environment = store.jobDefinitions.get(jobId)?.environment
    if (!environment) return undefined
    const { name, action } = environment
    return { name, action, deployment_tier: environment.deployment_tier ?? guessTier(name) }
  }
  function pipelineOf(pipeline: PipelineRow) {
    const p = store.projects.get(pipeline.project_id)!
    const user = pipeline.user_id === null ? undefined : store.users.get(pipeline.user_id)
    return { p, user }
  }
  /** What a Deployment Hook shows of `row`; `deployed_by` is the deploying job's user (its pipeline's). */
  function loadDeployment(row: DeploymentRow): HookDeployment | undefined {
    const environment = store.environments.get(row.project_id, row.environment_id)
    if (!environment) return undefined
    const job = row.deployable_id === null ? undefined : store.pipelines.job(row.deployable_id)
    const pipeline = job && store.pipelines.byId(job.pipeline_id)
    const userId = pipeline?.user_id ?? row.user_id
    return {
      row,
      environment,
      jobUrl: job !== undefined && store.ciProcessables.get(job.id)?.bridge !== 1,
      user: userId === null ? undefined : store.users.get(userId),
      commit: readCommit(store.gitObjects, row.sha),
    }
  }

  return {
    /** The issue as it is now, before a write that may change it; undefined when the project has no hooks. */
    issueBefore(projectId: number, iid: number): IssueBefore | undefined {
      if (!hasHooks(projectId)) return undefined
      const row = store.issues.byIid(projectId, iid)
      return row ? loadIssue(row) : undefined
    },
    /** `execute_hooks(issue, 'open')` of an issue made in the project (its row read only when it has hooks). */
    issueCreated(actor: Actor, projectId: number, issueId: number): void {
      if (!actor.user || !hasHooks(projectId)) return
      const row = store.issues.get(issueId)
      if (row) issueEvent(actor.user, loadIssue(row), 'open', {})
    },
    /** `update`, `close` or `reopen`, with what changed; nothing when nothing did. */
    issueUpdated(actor: Actor, before: IssueBefore | undefined): void {
      if (!actor.user || !before) return
      const row = store.issues.get(before.row.id)
      if (!row) return
      const after = loadIssue(row)
      const changes = issueChanges(before, after)
      if (Object.keys(changes).length === 0) return
      const action =
        before.row.state === after.row.state ? 'update' : after.row.state === 'closed' ? 'close' : 'reopen'
      issueEvent(actor.user, after, action, changes)
    },
    /** A note made by a person (system notes send no note hook). */
    noteCreated(actor: Actor, noteId: number): void {
      const note = store.notes.get(noteId)
      if (!actor.user || !note || note.system === 1) return
      const issue = store.issues.get(note.issue_id)
      if (!issue || !hasHooks(issue.project_id)) return
      const { project: p, confidential, payload } = notePayloadOf(actor.user, note, 'create')
      if (confidential) send(p.id, 'confidential_note_events', 'confidential_note_hooks', payload)
      else send(p.id, 'note_events', 'note_hooks', payload)
    },
    /** A comment on a commit (`note_events`; never confidential): its author is the hook's user. */
    commitNoteCreated({ row, project: p, lineCode }: CommitNoteMade): void {
      if (!hasHooks(p.id)) return
      const user = store.users.get(row.author_id)
      const commit = readCommit(store.gitObjects, row.commit_sha)
      if (!user || !commit) return
      const payload = commitNotePayload(instance, hookProject(p), user, row, lineCode, commit, 'create')
      send(p.id, 'note_events', 'note_hooks', payload)
    },
    /** A pipeline's status moved (`Ci::Pipeline`'s `after_transition`: `PipelineHooksWorker`). */
    pipelineChanged(pipeline: PipelineRow): void {
      if (!hasHooks(pipeline.project_id)) return
      const { p, user } = pipelineOf(pipeline)
      const jobs = store.pipelines.jobs(pipeline.id).filter((j) => j.retried === 0)
      send(
        p.id,
        'pipeline_events',
        'pipeline_hooks',
        pipelinePayload(instance, hookProject(p), user, pipeline, jobs, environmentOf),
      )
    },
    /**
     * Deployments moved to `running`, `success`, `failed` or `canceled` (`Deployment`'s `after_transition`s:
     * `Deployments::HooksWorker`), as migration 43 recorded them: each move sent once, with the status it
     * moved to, even when the deployment moved on in the same write.
     */
    deploymentsMoved(): void {
      if (!store.webHooks.any()) return
      for (const { deployment, status, changed_at } of store.environments.takeTransitions()) {
        if (!hasHooks(deployment.project_id)) continue
        const d = loadDeployment(deployment)
        const p = store.projects.get(deployment.project_id)
        if (!d || !p) continue
        const payload = deploymentPayload(instance, hookProject(p), d, status, changed_at)
        send(p.id, 'deployment_events', 'deployment_hooks', payload)
      }
    },
    /** A job's status moved (`Ci::Build`'s `after_transition`: `BuildHooksWorker`). */
    jobChanged(job: JobRow): void {
      const pipeline = store.pipelines.byId(job.pipeline_id)
      if (!pipeline || !hasHooks(pipeline.project_id)) return
      const { p, user } = pipelineOf(pipeline)
      const payload = jobPayload(instance, hookProject(p), user, pipeline, job, environmentOf(job.id))
      send(p.id, 'job_events', 'job_hooks', payload)
    },

    /**
     * What a test of `trigger` sends (`TestHooks::ProjectService`): 422 with GitLab's sentence when the
     * project has nothing of that kind, or when the emulator cannot make that kind of event.
     */
    sample(
      actor: Actor,
      p: ProjectRow | undefined,
      trigger: string,
    ): { hookName: HookName; payload: unknown } {
      const user = actor.user!
      const none = (what: string) => messageError(422, `Ensure the project has ${what}.`)
      if (trigger === 'push_events' || (p && trigger === 'tag_push_events')) {
        const tag = trigger === 'tag_push_events'
        return { hookName: tag ? 'tag_push_hooks' : 'push_hooks', payload: pushSample(ctx, p, user, tag) }
      }
      if (!p) throw messageError(422, 'Testing not available for this hook')
      if (trigger === 'issues_events' || trigger === 'confidential_issues_events') {
        const id = store.webHooks.sampleIssueId(p.id)
        if (id === undefined) throw none('issues')
        const issue = loadIssue(store.issues.get(id)!)
        const payload = issuePayload(instance, hookProject(p), user, issue, 'open', {})
        return { hookName: trigger === 'issues_events' ? 'issue_hooks' : 'confidential_issue_hooks', payload }
      }
      if (trigger === 'note_events' || trigger === 'confidential_note_events') {
        const id = store.webHooks.sampleNoteId(p.id)
        if (id === undefined) throw none('notes')
        const { payload } = notePayloadOf(user, store.notes.get(id)!, 'create')
        return { hookName: trigger === 'note_events' ? 'note_hooks' : 'confidential_note_hooks', payload }
      }
      if (trigger === 'pipeline_events') {
        const id = store.webHooks.samplePipelineId(p.id)
        if (id === undefined) throw none('CI pipelines')
        const pipeline = store.pipelines.byId(id)!
        const { user: starter } = pipelineOf(pipeline)
        const jobs = store.pipelines.jobs(id).filter((j) => j.retried === 0)
        return {
          hookName: 'pipeline_hooks',
          payload: pipelinePayload(instance, hookProject(p), starter, pipeline, jobs, environmentOf),
        }
      }
      if (trigger === 'job_events') {
        const id = store.webHooks.sampleJobId(p.id)
        if (id === undefined) throw none('CI jobs')
        const job = store.pipelines.job(id)!
        const pipeline = store.pipelines.byId(job.pipeline_id)!
        return {
          hookName: 'job_hooks',
          payload: jobPayload(
            instance,
            hookProject(p),
            pipelineOf(pipeline).user,
            pipeline,
            job,
            environmentOf(job.id),
          ),
        }
      }
      if (trigger === 'deployment_events') {
        const row = store.environments.newestDeployment(p.id)
        const d = row && loadDeployment(row)
        if (!row || !d) throw none('deployments')
        const payload = deploymentPayload(
          instance,
          hookProject(p),
          d,
          row.status,
          ctx.clock.now().toISOString(),
        )
        return { hookName: 'deployment_hooks', payload }
      }
      throw messageError(422, 'Testing not available for this hook')
    },
  }
}
export type HookEvents = ReturnType<typeof hookEvents>
