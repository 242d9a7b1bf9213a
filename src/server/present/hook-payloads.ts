import { formatDuration } from '../domain/chronic-duration.js'
import type { IssueRow } from '../store/issues.js'
import type { LabelRow } from '../store/labels.js'
import type { NoteRow } from '../store/notes.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'

/*
 * The payloads of webhooks (`lib/gitlab/data_builder/{issuable,note,pipeline}.rb`,
 * `lib/gitlab/hook_data/{issue,note}_builder.rb`), shaped from rows the caller loaded. Times are written
 * as GitLab's documented payloads show them: `2013-12-03T17:15:43Z` in an issue's attributes, Ruby's
 * `Time#to_s` (`2016-08-12 15:23:28 UTC`) in notes and pipelines.
 */

type Json = Record<string, unknown>

const iso = (t: string | null) => (t === null ? null : t.replace(/\.\d+Z$/, 'Z'))
/** Ruby's `Time#to_s` in UTC. */
export const rubyTime = (t: string | null) => (t === null ? null : `${t.slice(0, 10)} ${t.slice(11, 19)} UTC`)
const human = (seconds: number) => (seconds === 0 ? null : formatDuration(seconds))
const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 }

/** The project as a payload embeds it: what it is and where it lives. */
export interface HookProject {
  row: ProjectRow
  /** `namespace.name`. */
  namespaceName: string
  /** `full_name`: the names of its namespaces and its own, joined by ` / `. */
  fullName: string
}

/** `Project#hook_attrs`; `backward` adds the deprecated `homepage`, `url`, `ssh_url`, `http_url`. */
export function projectHookAttrs(
  instance: Instance,
  { row, namespaceName }: HookProject,
  backward = true,
): Json {
  const web = `${instance.baseUrl}/${row.full_path}`
  const host = new URL(instance.baseUrl).host
  const ssh = `git@${host.replace(/:\d+$/, '')}:${row.full_path}.git`
  const attrs: Json = {
    id: row.id,
    name: row.name,
    description: row.description,
    web_url: web,
    avatar_url: null,
    git_ssh_url: ssh,
    git_http_url: `${web}.git`,
    namespace: namespaceName,
    visibility_level: VISIBILITY_LEVEL[row.visibility] ?? 0,
    path_with_namespace: row.full_path,
    default_branch: row.default_branch,
    ci_config_path: null,
  }
  if (backward) Object.assign(attrs, { homepage: web, url: ssh, ssh_url: ssh, http_url: `${web}.git` })
  return attrs
}

/** The deprecated `repository` key: a slice of the project's attributes. */
const repository = (project: Json) => ({
  name: project.name,
  url: project.url,
  description: project.description,
  homepage: project.homepage,
})

/** `User#hook_attrs`: the e-mail only when public, which the emulator's users never make theirs. */
export const userHookAttrs = (u: UserRow): Json => ({
  id: u.id,
  name: u.name,
  username: u.username,
  avatar_url: null,
  email: '[REDACTED]',
})

/** `Label#hook_attrs`. */
export const labelHookAttrs = (l: LabelRow): Json => ({
  id: l.id,
  title: l.title,
  color: l.color,
  project_id: l.project_id,
  created_at: rubyTime(l.created_at),
  updated_at: rubyTime(l.created_at),
  template: false,
  description: l.description,
  type: l.project_id === null ? 'GroupLabel' : 'ProjectLabel',
  group_id: l.group_id,
})

/** An issue and what its payload embeds. */
export interface HookIssue {
  row: IssueRow
  labels: LabelRow[]
  assignees: UserRow[]
}

/** `Gitlab::HookData::IssueBuilder#build`: `SAFE_HOOK_ATTRIBUTES`, then what it adds. */
export function issueHookAttrs(
  instance: Instance,
  project: ProjectRow,
  { row, labels, assignees }: HookIssue,
): Json {
  const ids = assignees.map((a) => a.id)
  return {
    author_id: row.author_id,
    closed_at: iso(row.closed_at),
    confidential: row.confidential === 1,
    created_at: iso(row.created_at),
    description: row.description,
    discussion_locked: row.discussion_locked === null ? null : row.discussion_locked === 1,
    due_date: row.due_date,
    id: row.id,
    iid: row.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: row.milestone_id,
    moved_to_id: row.moved_to_id,
    duplicated_to_id: row.duplicated_to_id,
    project_id: row.project_id,
    relative_position: row.relative_position,
    state_id: row.state === 'opened' ? 1 : 2,
    time_estimate: row.time_estimate,
    title: row.title,
    updated_at: iso(row.updated_at),
    updated_by_id: null,
    type: row.issue_type === 'issue' ? 'Issue' : row.issue_type === 'incident' ? 'Incident' : 'Issue',
    url: `${instance.baseUrl}/${project.full_path}/-/issues/${row.iid}`,
    total_time_spent: row.total_time_spent,
    time_change: 0,
    human_total_time_spent: human(row.total_time_spent),
    human_time_change: null,
    human_time_estimate: human(row.time_estimate),
    assignee_ids: ids,
    assignee_id: ids[0] ?? null,
    labels: labels.map(labelHookAttrs),
    state: row.state,
    severity: row.severity,
  }
}

/** Previous and current values of what changed (`final_changes`). */
export type HookChanges = Record<string, { previous: unknown; current: unknown }>

/** `Gitlab::DataBuilder::Issuable#build` for an issue, with the service's `action`. */
export function issuePayload(
  instance: Instance,
  project: HookProject,
  user: UserRow,
  issue: HookIssue,
  action: string,
  changes: HookChanges,
): Json {
  const projectAttrs = projectHookAttrs(instance, project)
  const payload: Json = {
    object_kind: 'issue',
    event_type: issue.row.confidential === 1 ? 'confidential_issue' : 'issue',
    user: userHookAttrs(user),
    project: projectAttrs,
    object_attributes: { ...issueHookAttrs(instance, project.row, issue), action },
    labels: issue.labels.map(labelHookAttrs),
    changes,
    repository: repository(projectAttrs),
  }
  if (issue.assignees.length > 0) payload.assignees = issue.assignees.map(userHookAttrs)
  return payload
}

/** What a note's hook attributes differ in, whatever it is on (`Gitlab::HookData::NoteBuilder`). */
export interface HookNote {
  id: number
  author_id: number
  body: string
  created_at: string
  updated_at: string
  discussion_id: string | null
  /** The commit's SHA for a comment on a commit. */
  commit_id: string | null
  /** `Gitlab::Git.diff_line_code` of a comment on a line. */
  line_code: string | null
  noteable_id: number | null
  noteable_type: 'Issue' | 'Commit'
  system: boolean
  type: string | null
  internal: boolean
  /** Where the note is shown (`Gitlab::UrlBuilder`), with its `#note_id` anchor. */
  url: string
}

/** `Gitlab::DataBuilder::Note#build_base_data`: all but the noteable's own key (`issue`, `commit`). */
export function noteBase(
  instance: Instance,
  project: HookProject,
  user: UserRow,
  note: HookNote,
  confidential: boolean,
  action: string,
): Json {
  const projectAttrs = projectHookAttrs(instance, project)
  return {
    object_kind: 'note',
    event_type: confidential ? 'confidential_note' : 'note',
    user: userHookAttrs(user),
    project_id: project.row.id,
    project: projectAttrs,
    object_attributes: {
      attachment: null,
      author_id: note.author_id,
      change_position: null,
      commit_id: note.commit_id,
      created_at: rubyTime(note.created_at),
      discussion_id: note.discussion_id,
      id: note.id,
      line_code: note.line_code,
      note: note.body,
      noteable_id: note.noteable_id,
      noteable_type: note.noteable_type,
      original_position: null,
      position: null,
      project_id: project.row.id,
      resolved_at: null,
      resolved_by_id: null,
      resolved_by_push: null,
      st_diff: null,
      system: note.system,
      type: note.type,
      updated_at: rubyTime(note.updated_at),
      updated_by_id: null,
      internal: note.internal,
      description: note.body,
      url: note.url,
      action,
    },
    repository: repository(projectAttrs),
  }
}

/** `Gitlab::DataBuilder::Note#build` for a note on an issue. */
export function notePayload(
  instance: Instance,
  project: HookProject,
  user: UserRow,
  note: NoteRow,
  issue: HookIssue,
  action: string,
): Json {
  const hookNote: HookNote = {
    id: note.id,
    author_id: note.author_id,
    body: note.body,
    created_at: note.created_at,
    updated_at: note.updated_at,
    discussion_id: note.discussion_id ?? null,
    commit_id: null,
    line_code: null,
    noteable_id: issue.row.id,
    noteable_type: 'Issue',
    system: note.system === 1,
    type: note.type ?? null,
    internal: note.internal === 1,
    url: `${instance.baseUrl}/${project.row.full_path}/-/issues/${issue.row.iid}#note_${note.id}`,
  }
  const confidential = note.internal === 1 || issue.row.confidential === 1
  return {
    ...noteBase(instance, project, user, hookNote, confidential, action),
    issue: issueHookAttrs(instance, project.row, issue),
  }
}

const seconds = (from: string | null, to: string | null) =>
  from === null || to === null ? null : (Date.parse(to) - Date.parse(from)) / 1000

/** A job's `environment:` as its hooks show it (`environment_hook_attrs`), its tier resolved. */
export interface HookEnvironment {
  name: string
  action: string
  deployment_tier: string
}

/** `build_environment` (a job's hook: no tier) and `environment_hook_attrs` (a pipeline's jobs). */
function environmentAttrs(environment: HookEnvironment | undefined, withTier: boolean): Json | null {
  if (!environment) return null
  const { name, action } = environment
  return withTier ? { name, action, deployment_tier: environment.deployment_tier } : { name, action }
}

/**
 * `Gitlab::DataBuilder::Pipeline#build`; the emulator's pipelines have no commits beyond their sha.
 * `environmentOf` answers a job's `environment:`.
 */
export function pipelinePayload(
  instance: Instance,
  project: HookProject,
  user: UserRow | undefined,
  pipeline: PipelineRow,
  jobs: JobRow[],
  environmentOf: (jobId: number) => HookEnvironment | undefined = () => undefined,
): Json {
  const projectAttrs = projectHookAttrs(instance, project, false)
  const stages = [...new Set(jobs.map((j) => j.stage))]
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      iid: pipeline.iid,
      name: null,
      ref: pipeline.ref,
      tag: pipeline.tag === 1,
      sha: pipeline.sha,
      before_sha: '0000000000000000000000000000000000000000',
      source: pipeline.source,
      status: pipeline.status,
      detailed_status: pipeline.status,
      stages,
      created_at: rubyTime(pipeline.created_at),
      finished_at: rubyTime(pipeline.finished_at),
      duration: seconds(pipeline.started_at, pipeline.finished_at),
      queued_duration: seconds(pipeline.created_at, pipeline.started_at),
      variables: [],
      url: `${instance.baseUrl}/${project.row.full_path}/-/pipelines/${pipeline.id}`,
    },
    merge_request: null,
    user: user ? userHookAttrs(user) : null,
    project: projectAttrs,
    commit: {
      id: pipeline.sha,
      message: '',
      title: '',
      timestamp: iso(pipeline.created_at),
      url: `${instance.baseUrl}/${project.row.full_path}/-/commit/${pipeline.sha}`,
      author: { name: user?.name ?? '', email: '[REDACTED]' },
    },
    builds: jobs.map((j) => ({
      id: j.id,
      stage: j.stage,
      name: j.name,
      status: j.status,
      created_at: rubyTime(j.created_at),
      started_at: rubyTime(j.started_at),
      finished_at: rubyTime(j.finished_at),
      duration: seconds(j.started_at, j.finished_at),
      queued_duration: seconds(j.queued_at, j.started_at),
      failure_reason: j.failure_reason,
      when: j.outcome === 'manual' ? 'manual' : 'on_success',
      manual: j.outcome === 'manual',
      allow_failure: false,
      user: user ? userHookAttrs(user) : null,
      runner: null,
      artifacts_file: { filename: null, size: null },
      environment: environmentAttrs(environmentOf(j.id), true),
    })),
  }
}

/** `Gitlab::DataBuilder::Build#build`: a job's event. */
export function jobPayload(
  instance: Instance,
  project: HookProject,
  user: UserRow | undefined,
  pipeline: PipelineRow,
  job: JobRow,
  environment?: HookEnvironment,
): Json {
  const projectAttrs = projectHookAttrs(instance, project)
  return {
    object_kind: 'build',
    ref: pipeline.ref,
    tag: pipeline.tag === 1,
    before_sha: '0000000000000000000000000000000000000000',
    sha: pipeline.sha,
    retries_count: 0,
    build_id: job.id,
    build_name: job.name,
    build_stage: job.stage,
    build_status: job.status,
    build_created_at: rubyTime(job.created_at),
    build_started_at: rubyTime(job.started_at),
    build_finished_at: rubyTime(job.finished_at),
    build_duration: seconds(job.started_at, job.finished_at),
    build_queued_duration: seconds(job.queued_at, job.started_at),
    build_allow_failure: false,
    build_failure_reason: job.failure_reason ?? 'unknown_failure',
    pipeline_id: pipeline.id,
    runner: null,
    project_id: project.row.id,
    project_name: project.fullName,
    user: user ? userHookAttrs(user) : null,
    commit: {
      id: pipeline.id,
      name: null,
      sha: pipeline.sha,
      message: '',
      author_name: user?.name ?? '',
      author_email: '[REDACTED]',
      author_url: null,
      status: pipeline.status,
      duration: seconds(pipeline.started_at, pipeline.finished_at),
      started_at: rubyTime(pipeline.started_at),
      finished_at: rubyTime(pipeline.finished_at),
    },
    repository: {
      ...repository(projectAttrs),
      git_http_url: projectAttrs.git_http_url,
      git_ssh_url: projectAttrs.git_ssh_url,
      visibility_level: projectAttrs.visibility_level,
    },
    project: projectAttrs,
    environment: environmentAttrs(environment, false),
  }
}
