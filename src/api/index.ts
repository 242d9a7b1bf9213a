/*
 * The package's main entry (`import { createClient, GitLabApiError } from 'gitlab-actions'`): the
 * client, its errors and helpers, and the types of the records and parameters it sends and returns.
 * The schemas themselves stay internal: only their types are exported.
 */
export * from './client.js'
export type { ClientIssue, IssueCreateParams, IssueListParams, IssueUpdateParams } from './issues.js'
export type { NoteListParams } from './notes.js'
export type { AwardTarget } from './award-emoji.js'
export type { ResourceEventKind, ResourceEventOf } from './resource-events.js'
export type {
  ExportDownload,
  ExportParams,
  ExportWaitOptions,
  ExportWaitResult,
  SavedArchive,
} from './project-exports.js'
export type { ImportTarget, ImportWaitOptions, ImportWaitResult, S3Source } from './project-imports.js'
export type { PollTiming } from './poll.js'
export type { OnManual, TriggerParams, WaitOptions, WaitResult } from './pipelines.js'
export type { JobDownload, JobsApi } from './jobs.js'
export type { CommitStatusesApi } from './commit-statuses.js'
export type { EventsApi } from './events.js'
export type { DeploymentsApi, EnvironmentsApi } from './environments.js'
export type { GroupHooksApi, HookTestTrigger, ProjectHooksApi } from './hooks.js'
export type { RepositoryApi } from './repository.js'
export type { CiLintApi } from './ci-lint.js'
export type { CiVariableScope, CiVariablesApi, InstanceVariablesApi } from './ci-variables.js'
export type { EmulatorApi } from './emulator.js'
export type { Seed } from '../schema/seed.js'
export type * from '../schema/index.js'
export type { ImpersonationTokenListOptions, ResourceAccessTokenListOptions } from './access-tokens.js'
export type { MemberListOptions, MembersApi } from './members.js'
