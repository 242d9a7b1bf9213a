import { accessLevels } from '../../schema/common.js'

/*
 * GitLab releases: the `--gitlab-version` the server behaves as, and the release-tied rules of
 * GitLab's REST API deprecations (doc/api/rest/deprecations.md) that touch our surface. Rules ask `atLeast(version, 'X.Y')`; nothing else compares
 * versions, so every boundary is in RELEASE_RULES below.
 */

/** A parsed `X.Y.Z` release. */
export interface Release {
  major: number
  minor: number
  patch: number
}

/** The releases the server can behave as: 13.0.0 up to the last 18.x. */
export const SUPPORTED_RANGE = { from: '13.0', through: '18.x' } as const
const FIRST = { major: 13, minor: 0 }
const LAST_MAJOR = 18

const VERSION = /^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/
const BOUNDARY = /^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/

/**
 * Parses `X.Y.Z` (digits only, no leading zeros, no `-ee` suffix: the edition is `--edition`).
 * Throws an Error naming the expected form when `text` is anything else.
 */
export function parseVersion(text: string): Release {
  const m = VERSION.exec(text)
  if (!m) throw new Error(`GitLab version must look like X.Y.Z (for example 17.11.2), got '${text}'`)
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) }
}

/**
 * Parses a version and checks it lies in SUPPORTED_RANGE; throws an Error naming the range
 * otherwise. What `--gitlab-version` and the route modules call at start-up.
 */
export function supportedVersion(text: string): Release {
  const release = parseVersion(text)
  const tooOld = release.major < FIRST.major || (release.major === FIRST.major && release.minor < FIRST.minor)
  if (tooOld || release.major > LAST_MAJOR)
    throw new Error(
      `GitLab version ${text} is not supported: the server behaves as GitLab ${SUPPORTED_RANGE.from} to ${SUPPORTED_RANGE.through}`,
    )
  return release
}

/**
 * True when `version` (`X.Y.Z`) is release `boundary` (`X.Y`) or later: `atLeast('18.0.0', '18.0')`.
 * Throws on a malformed version or boundary (a programming error, caught at start-up).
 */
export function atLeast(version: string, boundary: string): boolean {
  // Asked on every request by the rules a route applies, for the server's one version: answered
  // once. Other versions come from imported archives, so only a few are kept.
  const known = decided.get(version)?.get(boundary)
  if (known !== undefined) return known
  const release = parseVersion(version)
  const m = BOUNDARY.exec(boundary)
  if (!m) throw new Error(`release boundary must look like X.Y, got '${boundary}'`)
  const major = Number(m[1])
  const answer = release.major !== major ? release.major > major : release.minor >= Number(m[2])
  if (!decided.has(version) && decided.size >= 16) decided.clear()
  decided.set(version, (decided.get(version) ?? new Map()).set(boundary, answer))
  return answer
}
const decided = new Map<string, Map<string, boolean>>()

/** One release-tied change: from which release, what changes, and where the server applies it. */
export interface ReleaseRule {
  since: string
  change: string
  /** The helper or route that applies it. */
  where: string
}

/**
 * The release-tied rules of GitLab's deprecations (`doc/update/deprecations.md`) that touch our surface, one
 * place for every boundary the server uses. Rules outside our surface (deployments, environments, release
 * links, approvals, ci/lint, packages) are not listed.
 */
export const RELEASE_RULES = {
  /**
   * GitLab 13.8: the default `max_import_size` was 50 MB, then 0 (unlimited)
   * (doc/administration/settings/import_and_export_settings.md).
   */
  importSizeUnlimited: {
    since: '13.8',
    change: 'default max_import_size 50 MB -> 0 (unlimited)',
    where: 'defaultMaxImportSize',
  },
  /** GitLab 16.0: importing into a group needs Maintainer instead of Developer (doc/api/project_import_export.md). */
  importNeedsMaintainer: {
    since: '16.0',
    change: 'importing into a group needs Maintainer (was Developer)',
    where: 'importRoleFor',
  },
  /**
   * `app/models/concerns/taskable.rb`: Taskable's wording "N of M tasks completed" became "checklist items".
   * The release is unverified: GitLab's source shows both texts but not the release that switched, so we keep
   * 16.0 (it happened in 16.0 or before).
   */
  checklistItemsWording: {
    since: '16.0',
    change: 'task_status says "checklist items" (was "tasks")',
    where: 'taskStatusNoun',
  },
  /**
   * `lib/api/issues.rb`: project issue lists take `pagination=keyset` (and `cursor`) from 18.3 (MR 199887);
   * before, the parameters are undeclared, so ignored: offset pagination, and no trace in the links.
   */
  issuesKeyset: {
    since: '18.3',
    change: 'GET /projects/:id/issues pages by keyset on pagination=keyset',
    where: 'src/server/routes/issues.ts',
  },
  /**
   * `GET /groups` for anonymous callers goes through `paginate_with_strategies` from 14.3 (MR 68346,
   * doc/api/groups.md "Support for keyset pagination introduced in GitLab 14.3"; lib/api/groups.rb
   * `present_groups_with_pagination_strategies`): `pagination=keyset` pages by cursor in `name asc`
   * only (`Group.supported_keyset_orderings`, 405 for other orders), and `Group` is in ENFORCED_TYPES,
   * so an offset page past 50,000 rows is 405. Signed-in callers keep offset pages, unlimited.
   */
  groupsKeyset: {
    since: '14.3',
    change: 'anonymous GET /groups pages by keyset (name asc) and refuses offset pages past 50,000 rows',
    where: 'src/server/services/groups.ts',
  },
  /**
   * `GET /users` pages by cursor on `pagination=keyset` from 16.5 (gitlab-org/gitlab#419556, doc/api/rest/_index.md
   * "Supported resources"; lib/api/users.rb `paginate_with_strategies`); before, the parameters are ignored.
   */
  usersKeyset: {
    since: '16.5',
    change: 'GET /users pages by keyset on pagination=keyset',
    where: 'src/server/routes/user-lookup.ts',
  },
  /**
   * GitLab 17.0 removes offset pagination of `/users` past the offset limit (doc/update/deprecations.md;
   * `User` joins `ENFORCED_TYPES` in lib/gitlab/pagination/cursor_based_keyset.rb): an offset page
   * whose `page * per_page` exceeds 50,000 is 405 (lib/api/helpers/pagination_strategies.rb).
   */
  usersOffsetLimit: {
    since: '17.0',
    change: 'GET /users refuses offset pages past 50,000 rows with 405',
    where: 'src/server/services/users.ts',
  },
  /**
   * `/promote_to_incident` exists from 14.5 (gitlab-org/gitlab#296787, doc/user/project/issues/managing_issues.md);
   * before, its line is not a command and stays text.
   */
  promoteToIncident: {
    since: '14.5',
    change: 'the /promote_to_incident quick action',
    where: 'src/server/services/quick-actions/issue-actions.ts',
  },
  /** `/promote_to_incident` also works in the description of a new issue from 15.8 (gitlab-org/gitlab#376760). */
  promoteToIncidentOnCreate: {
    since: '15.8',
    change: '/promote_to_incident on issue creation',
    where: 'src/server/services/quick-actions/issue-actions.ts',
  },
  /**
   * "removed due date" names the date removed ("removed due date September 20, 2018") after gitlab-org/gitlab
   * MR 117537 (`SystemNotes::TimeTrackingService#change_start_date_or_due_date`). The release is unverified:
   * the MR is of April 2023, so 15.11 or 16.0; we keep 16.0.
   */
  removedDueDateNamesDate: {
    since: '16.0',
    change: 'the "removed due date" system note names the date removed',
    where: 'src/server/services/system-notes.ts',
  },
  /**
   * The owner of a personal namespace is a member of its new projects as Owner from 14.9, as Maintainer before
   * (doc/user/permissions.md: flag `personal_project_owner_with_owner_access`, 14.8, generally available in 14.9).
   */
  personalProjectOwnerRole: {
    since: '14.9',
    change: "a personal project's owner is its Owner member (was Maintainer)",
    where: 'personalOwnerLevel',
  },
  /**
   * Reporters (and from 17.7 Planners) manage milestones from GitLab 15.0 (gitlab-org/gitlab!85785,
   * `admin_milestone` moved from the Developer rules of app/policies/project_policy.rb to the Reporter ones).
   */
  milestonesByReporter: {
    since: '15.0',
    change: 'creating, editing and deleting milestones needs Reporter (was Developer)',
    where: 'src/server/services/project-milestones.ts',
  },
  /**
   * `include_ancestors` joins the milestone lists from 16.7 (gitlab-org/gitlab!138391), mutually exclusive
   * with the deprecated `include_parent_milestones`, which loses its default of false.
   */
  milestoneIncludeAncestors: {
    since: '16.7',
    change: 'milestone lists take include_ancestors (include_parent_milestones deprecated)',
    where: 'src/server/routes/project-milestones.ts',
  },
  /** GitLab 17.0 (doc/api/runners.md): registration-token support of `POST /runners` answers 410. */
  runnerRegistrationTokenGone: {
    since: '17.0',
    change: 'POST /runners with a registration token answers 410',
    where: 'src/server/routes/runners.ts',
  },
  /** GitLab 18.0 (doc/api/runners.md): the three reset-registration-token endpoints answer 410. */
  resetRegistrationTokenGone: {
    since: '18.0',
    change: 'POST {/,/projects/:id/,/groups/:id/}runners/reset_registration_token answer 410',
    where: 'src/server/routes/runners.ts',
  },
  /**
   * `GET /projects/:id/issues/:issue_iid/links/:issue_link_id` exists from 15.1 (lib/api/issue_links.rb:
   * "This feature was introduced in GitLab 15.1"); before, the path is no route (404).
   */
  issueLinkById: {
    since: '15.1',
    change: 'GET .../issues/:issue_iid/links/:issue_link_id',
    where: 'src/server/routes/issue-links.ts',
  },
  /**
   * GitLab 18.0 brings delayed deletion to every tier (lib/api/entities/group.rb "It is always enabled
   * since 18.0"; app/services/groups/mark_for_deletion_service.rb): `DELETE /groups/:id` marks the group
   * (`marked_for_deletion_on`, the path and name suffixed `-deletion_scheduled-<id>` as
   * app/services/namespaces/mark_for_deletion_base_service.rb writes them; the release the suffix came
   * in is unverified, kept with the marking) and `permanently_remove` with `full_path` removes a marked
   * subgroup. Before, CE deletes at once; EE marks at every release (domain/delayed-deletion.ts).
   */
  groupDelayedDeletion: {
    since: '18.0',
    change: 'DELETE /groups/:id marks the group for deletion; groups show marked_for_deletion_on',
    where: 'src/server/services/group-writes.ts',
  },
  /** `GET /groups/:id/descendant_groups` exists from 13.5 (doc/api/groups.md); before, no route (404). */
  groupDescendants: {
    since: '13.5',
    change: 'GET /groups/:id/descendant_groups',
    where: 'src/server/routes/group-writes.ts',
  },
  /** `POST /groups/:id/transfer` exists from 14.6 (doc/api/groups.md); before, no route (404). */
  groupTransfer: {
    since: '14.6',
    change: 'POST /groups/:id/transfer',
    where: 'src/server/routes/group-writes.ts',
  },
  /** `GET /groups/:id/transfer_locations` exists from 15.4 (doc/api/groups.md); before, no route (404). */
  groupTransferLocations: {
    since: '15.4',
    change: 'GET /groups/:id/transfer_locations',
    where: 'src/server/routes/group-writes.ts',
  },
  /** `GET`/`POST /projects/:id/access_tokens` and `DELETE .../:token_id` from 13.9 (doc/api/project_access_tokens.md). */
  projectAccessTokensApi: {
    since: '13.9',
    change: 'the project access tokens API',
    where: 'src/server/routes/access-tokens.ts',
  },
  /** The group access tokens API from 14.7 (doc/api/group_access_tokens.md). */
  groupAccessTokensApi: {
    since: '14.7',
    change: 'the group access tokens API',
    where: 'src/server/routes/access-tokens.ts',
  },
  /** `POST /projects|groups/:id/access_tokens/:token_id/rotate` from 16.0 (doc/api/project_access_tokens.md). */
  accessTokenRotate: {
    since: '16.0',
    change: 'rotating project and group access tokens',
    where: 'src/server/routes/access-tokens.ts',
  },
  /**
   * The `state` filter of the project and group access token lists from 17.2
   * (doc/api/project_access_tokens.md); before, the parameter is undeclared, so ignored.
   */
  accessTokenStateFilter: {
    since: '17.2',
    change: 'GET /projects|groups/:id/access_tokens take state',
    where: 'src/server/routes/access-tokens.ts',
  },
  /** `POST /user/personal_access_tokens` from 16.5 (lib/api/users.rb: "introduced in GitLab 16.5"). */
  ownPersonalAccessToken: {
    since: '16.5',
    change: "POST /user/personal_access_tokens (the caller's own, k8s_proxy)",
    where: 'src/server/routes/personal-access-tokens.ts',
  },
  /**
   * Access tokens must expire from 16.0 (doc/update/deprecations.md "Non-expiring access tokens"):
   * without `expires_at` a token gets the longest lifetime, 365 days, and no later date is taken;
   * before, a token without one never expires.
   */
  tokenExpiryRequired: {
    since: '16.0',
    change: 'access tokens expire: expires_at defaults to a year and may be no later',
    where: 'src/server/services/token-issue.ts',
  },
  /**
   * GitLab 18.0: delayed deletion of projects for every tier (`Projects::MarkForDeletionService` in CE);
   * before, EE only (`ee/lib/ee/api/helpers/projects_helpers.rb` `delete_project`), CE deleted at once.
   */
  delayedProjectDeletionInCe: {
    since: '18.0',
    change: 'DELETE /projects/:id marks the project for deletion on CE too',
    where: 'src/server/services/project-writes.ts',
  },
  /**
   * GitLab 17.1: webhooks have a `name` and a `description` (doc/api/project_webhooks.md, "Introduced in 17.1").
   */
  webhookNames: {
    since: '17.1',
    change: 'project and group hooks take and show name and description',
    where: 'src/server/services/hooks/hooks.ts',
  },
  /**
   * `GET /projects/:id/hooks/:hook_id/events` (`lib/api/hooks/events.rb`); the release is unverified
   * (GitLab's source shows the endpoint, not when it came): we keep 17.3.
   */
  webhookEventsApi: {
    since: '17.3',
    change: 'GET hooks/:hook_id/events lists the deliveries of a hook',
    where: 'src/server/routes/hooks.ts',
  },
  /**
   * `POST /projects/import-relation` and `GET /projects/:id/relation-imports` from 16.11 behind the flag
   * `single_relation_import`, off by default; generally available, the flag removed, in 17.1
   * (doc/api/project_import_export.md "Import a single relation"). Before 16.11, no routes (404).
   */
  singleRelationImport: {
    since: '16.11',
    change: 'POST /projects/import-relation and GET /projects/:id/relation-imports (behind a flag, off)',
    where: 'src/server/routes/relation-imports.ts',
  },
  /** GitLab 17.1: `single_relation_import` removed, the single relation import on for everyone. */
  singleRelationImportGa: {
    since: '17.1',
    change: 'the single relation import answers without a feature flag',
    where: 'src/server/routes/relation-imports.ts',
  },
  /**
   * GitLab 17.11: `POST /projects/:id/pipeline` and the trigger API use pipeline `inputs`. They came in
   * 17.10 (gitlab-org/gitlab#519958) behind `ci_inputs_for_pipelines`, off by default, which 17.11 turned on
   * (gitlab-org/gitlab#525504; GA in 18.1). With the flag off `Ci::CreatePipelineService` drops them, as
   * Grape drops the unknown parameter before 17.10 (spec/services/ci/create_pipeline_service/inputs_spec.rb,
   * "when the FF ci_inputs_for_pipelines is disabled": the pipeline is made as if none were given).
   */
  pipelineInputs: {
    since: '17.11',
    change: 'pipeline creation and triggers accept inputs for spec:inputs',
    where: 'src/server/services/pipeline-api.ts',
  },
  /**
   * GitLab 17.11: pipeline schedules take CI `inputs` (`POST`/`PUT .../pipeline_schedules`), show them
   * and pass them to the pipelines they run. GitLab's table came in 17.10 (its migration's milestone);
   * we date the API with pipeline inputs, which 17.11 turned on (RELEASE_RULES.pipelineInputs). Before,
   * Grape drops the unknown parameter and the entity has no `inputs`.
   */
  pipelineScheduleInputs: {
    since: '17.11',
    change: 'pipeline schedules take, show and run with CI inputs',
    where: 'src/server/services/pipeline-schedules.ts',
  },
  /**
   * GitLab 18.4: `EventCreateService#create_project`, `join_source`, `leave_project` and
   * `expired_leave_project` record the project as the event's target (gitlab-org/gitlab#565786), and the
   * Event model reads an older project event without one as if it had it (gitlab-org/gitlab!206175):
   * `target_type` `Project`, `target_id` the project's, and `target_type=project` lists them. Before,
   * no target. The release is our reading of those threads' dates (August and September 2025).
   */
  projectEventTargets: {
    since: '18.4',
    change: 'project events (created, joined, left, expired) name the project as their target',
    where: 'src/server/services/events/events.ts',
  },
  /**
   * GitLab 15.9: the inbound job token scope (doc/ci/jobs/ci_job_token.md, gitlab-org/gitlab#346298, behind
   * `inbound_ci_scoped_job_token`, on by default; the flag removed in 15.10). Before, another project's job
   * token reaches any project the job's user can read.
   */
  jobTokenInboundScope: {
    since: '15.9',
    change:
      "other projects' CI/CD job tokens reach a project only through its allowlist (or with its limit off)",
    where: 'jobTokenReaches',
  },
  /**
   * `GET`/`PATCH /projects/:id/job_token_scope` (lib/api/project_job_token_scope.rb, gitlab-org/gitlab#351740,
   * MRs 117842 and 118357). The release is unverified: the MRs are of April 2023, so 16.0 (or 16.1); before,
   * no routes (404).
   */
  jobTokenScopeSettingsApi: {
    since: '16.0',
    change: 'GET and PATCH /projects/:id/job_token_scope',
    where: 'src/server/routes/job-token-scope.ts',
  },
  /**
   * `GET`/`POST .../job_token_scope/allowlist` and `DELETE .../allowlist/:target_project_id` (gitlab-org/gitlab#351740,
   * MRs 118495 and 119675). The release is unverified: the MRs are of April and May 2023, and client libraries
   * called the routes by July 2023, so 16.1 or 16.2; we keep 16.1. Before, no routes (404).
   */
  jobTokenAllowlistApi: {
    since: '16.1',
    change: 'list, add and remove the projects of the job token allowlist',
    where: 'src/server/routes/job-token-scope.ts',
  },
  /**
   * GitLab 17.0: groups join the job token allowlist (doc/ci/jobs/ci_job_token.md, gitlab-org/gitlab#415519),
   * with `.../job_token_scope/groups_allowlist` (MR 145069). Before, no routes (404), and a group lets no
   * project in.
   */
  jobTokenGroupsAllowlist: {
    since: '17.0',
    change: 'the groups allowlist of the job token scope (routes, and the projects below a group reach)',
    where: 'src/server/routes/job-token-scope.ts, jobTokenReaches',
  },
} as const satisfies Record<string, ReleaseRule>
export type ReleaseRuleName = keyof typeof RELEASE_RULES

/** True when the rule `name` of RELEASE_RULES applies to `version`. */
export const applies = (version: string, name: ReleaseRuleName): boolean =>
  atLeast(version, RELEASE_RULES[name].since)

/** Bytes: the default `max_import_size`: 50 MB before 13.8, then 0 meaning unlimited (GitLab's doc/administration/settings/import_and_export_settings.md). */
export function defaultMaxImportSize(version: string): number {
  return applies(version, 'importSizeUnlimited') ? 0 : 50 * 1024 * 1024
}

/** The access level importing into a group needs: Developer (30) before 16.0, Maintainer (40) from it. */
export function importRoleFor(version: string): number {
  return applies(version, 'importNeedsMaintainer') ? accessLevels.maintainer : accessLevels.developer
}

/** Taskable's noun for `count` items: `task`/`tasks` before the switch, `checklist item(s)` after. */
export function taskStatusNoun(version: string, count: number): string {
  const noun = applies(version, 'checklistItemsWording') ? 'checklist item' : 'task'
  return count === 1 ? noun : `${noun}s`
}

/** The membership a personal project keeps for its namespace's owner: Owner (50) from 14.9, Maintainer (40) before. */
export function personalOwnerLevel(version: string): number {
  return applies(version, 'personalProjectOwnerRole') ? accessLevels.owner : accessLevels.maintainer
}
