import type { AliasService } from './aliases.js'
import type { Authentication } from './authentication.js'
import type { EmulatorService } from './emulator.js'
import type { ExportService } from './exports.js'
import type { GroupService } from './groups.js'
import type { HealthService } from './health.js'
import type { ImportService } from './imports.js'
import type { ImportSources } from './import-sources.js'
import type { RelationImportService } from './relation-imports.js'
import type { IssueMoveService } from './issues/moves.js'
import type { IssueRelationService } from './issues/relations.js'
import type { IssueService } from './issues/issues.js'
import type { MetricImageService } from './metric-images.js'
import type { NoteService } from './notes.js'
import type { PipelineService } from './pipelines.js'
import type { CommitStatusService } from './commit-statuses.js'
import type { EventService } from './events/events.js'
import type { JobService } from './jobs.js'
import type { ProjectLabelService } from './project-labels.js'
import type { ProjectMilestoneService } from './project-milestones.js'
import type { ProjectService } from './projects.js'
import type { RunnerService } from './runners.js'
import type { TimeTrackingService } from './time-tracking.js'
import type { TodoService } from './todos.js'
import type { TriggerService } from './triggers.js'
import type { JobTokenScopeService } from './job-token-scopes.js'
import type { PipelineScheduleService } from './pipeline-schedules.js'
import type { EnvironmentService } from './environments.js'
import type { CiGroupVariableService, CiInstanceVariableService, CiVariableService } from './ci-variables.js'
import type { CiLintService } from './ci-lint.js'
import type { UserService } from './users.js'
import type { UserAdminService } from './user-admin.js'
import type { MemberService } from './members/members.js'
import type { PersonalAccessTokenService } from './personal-access-tokens.js'
import type { ImpersonationTokenService } from './impersonation-tokens.js'
import type { ResourceAccessTokenService } from './resource-access-tokens.js'
import type { NamespaceService } from './namespaces.js'
import type { IssueLinkService } from './issues/links.js'
import type { AwardEmojiService } from './award-emoji.js'
import type { DiscussionService } from './discussions.js'
import type { ResourceEventService } from './resource-events.js'
import type { GroupWriteService } from './group-writes.js'
import type { ProjectWriteService } from './project-writes.js'
import type { ProjectForkService } from './project-forks.js'
import type { GroupLabelService } from './group-labels.js'
import type { GroupMilestoneService } from './group-milestones.js'
import type { PromotionService } from './promotions.js'
import type { PageReadService } from './page-reads.js'
import type { PageSessions } from './page-sessions.js'
import type { HookService } from './hooks/hooks.js'
import type { RepositoryService } from './repository/repository.js'

/** Every service of the server (built by start/open-state.ts); route modules reach the store only through these. */
export interface Services {
  /** Who a request's credentials name, for the edge's authentication hook. */
  authentication: Authentication
  /** The emulator's own controls: reset to the start-up seed, seed more. */
  emulator: EmulatorService
  issues: IssueService
  issueMoves: IssueMoveService
  issueRelations: IssueRelationService
  todos: TodoService
  notes: NoteService
  timeTracking: TimeTrackingService
  /** EE only: undefined on `ce`, where the routes do not exist. */
  metricImages?: MetricImageService
  projects: ProjectService
  projectLabels: ProjectLabelService
  projectMilestones: ProjectMilestoneService
  groups: GroupService
  users: UserService
  userAdmin: UserAdminService
  members: MemberService
  personalAccessTokens: PersonalAccessTokenService
  impersonationTokens: ImpersonationTokenService
  /** Project and group access tokens. */
  resourceAccessTokens: ResourceAccessTokenService
  namespaces: NamespaceService
  aliases: AliasService
  runners: RunnerService
  health: HealthService
  pipelines: PipelineService
  /** Statuses external CI systems post on commits, and a commit's list of statuses. */
  commitStatuses: CommitStatusService
  /** The Events API: what people did in projects. */
  events: EventService
  /** Jobs, their traces and artifacts, and bridges. */
  jobs: JobService
  triggers: TriggerService
  /** The CI/CD job token scope of projects: the inbound limit and its allowlists. */
  jobTokenScopes: JobTokenScopeService
  pipelineSchedules: PipelineScheduleService
  /** Environments and their deployments, those jobs make and those made through the API. */
  environments: EnvironmentService
  /** Project CI/CD variables. */
  ciVariables: CiVariableService
  ciGroupVariables: CiGroupVariableService
  ciInstanceVariables: CiInstanceVariableService
  /** The CI Lint API: a configuration checked in a project's context. */
  ciLint: CiLintService
  transfers: Transfers
  issueLinks: IssueLinkService
  awardEmoji: AwardEmojiService
  discussions: DiscussionService
  resourceEvents: ResourceEventService
  groupWrites: GroupWriteService
  /** Projects made, edited, archived, deleted, transferred and shared through the API. */
  projectWrites: ProjectWriteService
  /** Forks: make, list, unlink and link them. */
  projectForks: ProjectForkService
  groupLabels: GroupLabelService
  groupMilestones: GroupMilestoneService
  promotions: PromotionService
  /** What the HTML pages show beyond the API's records (src/server/pages/). */
  pageReads: PageReadService
  /** The HTML pages' sign-in sessions, which the API never reads. */
  pageSessions: PageSessions
  /** Project and group webhooks, their tests and deliveries. */
  hooks: HookService
  /** Files, commits, tree, branches and tags; `onPush` for what listens to pushes (the CI engine). */
  repository: RepositoryService
}

/** What the export and import routes share: their services, where uploads go, the S3 endpoint. */
export interface Transfers {
  exports: ExportService
  imports: ImportService
  uploadDir: string
  /** The sources of remote and S3 imports, checked before an import is created. */
  sources: ImportSources
  /** Bytes an uploaded archive may have; 0 = no limit. */
  maxImportSize: number
  /** Single relation imports into existing projects (`POST /projects/import-relation`). */
  relationImports: RelationImportService
}
