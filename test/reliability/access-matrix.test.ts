import { startServer, type Reply, type TestServer } from '../support/server.js'
import { manualClock } from '../support/pipeline-seed.js'
import { installNetworkGuard, type NetworkGuard } from '../support/fuzz-network-guard.js'
import { loadOperations, type Operation } from '../support/fuzz-openapi.js'
import { inspectDb } from '../../src/server/store/inspect.js'

/*
 * Every endpoint of `/api/v4/openapi.json` by every role by every visibility.
 * The expected rule of each endpoint is the table RULES below (GitLab's policies,
 * `app/policies/project_policy.rb` and the permissions page); a route with no rule fails the test, so new
 * routes must state theirs. For every cell:
 *   - a project (or group) the role may not see answers exactly what a project that does not exist
 *     answers (status, body): no 403-versus-404 and no error text tells them apart;
 *   - a visible one answers 403 below the rule's role (or 404 where GitLab hides the feature),
 *     and never 401/403/404 at or above it;
 *   - anonymous callers get 401 where GitLab authenticates.
 * Lists are checked for leaks: every item listed is readable by the caller on its own, and
 * X-Total counts exactly what the caller may see.
 */

const TOKENS = {
  anonymous: '',
  outsider: 'glpat-outsider-token',
  guest: 'glpat-guest-token',
  reporter: 'glpat-reporter-token',
  developer: 'glpat-developer-token',
  maintainer: 'glpat-maintainer-token',
  owner: 'glpat-owner-token',
  admin: 'glpat-root-token',
} as const
type Role = keyof typeof TOKENS
/** An administrator no cell uses, for the resets: a cell may revoke or rotate root's own token. */
const KEEPER = 'glpat-keeper-token'
const ROLES = Object.keys(TOKENS) as Role[]
const RANK: Record<Role, number> = {
  anonymous: 0,
  outsider: 1,
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
  admin: 100,
}
const VISIBILITIES = ['private', 'internal', 'public'] as const
type Visibility = (typeof VISIBILITIES)[number]
const TRIGGER = { private: 'a1', internal: 'b2', public: 'c3' } as const
/** The blob of the seeded `README.md` (`hello`): `git hash-object`'s SHA. */
const README_BLOB = 'b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0'
const triggerToken = (v: Visibility) => `glptt-${TRIGGER[v].repeat(20)}`

const groupBlock = (v: Visibility) => `
  - path: ${v}-group
    visibility: ${v}
    members: { olivia: owner, mark: maintainer, dana: developer, rita: reporter, gus: guest }`
const projectBlock = (v: Visibility) => `
  - path: ${v}-group/proj
    visibility: ${v}
    refs: [main]
    branches: [feature]
    tags: [v1]
    files: { README.md: hello }
    labels: [ { name: bug, color: "#d9534f" } ]
    milestones: [ { title: v1.0 } ]
    triggers: [ { description: deploy, owner: mark, token: ${triggerToken(v)} } ]
    members: { bert: developer }
    issues:
      - { title: Open one, author: dana, labels: [bug] }
      - { title: Confidential one, author: dana, confidential: true }
      - { title: Incident, author: dana, issue_type: incident }`
const seed = `
users:
  - { username: root, admin: true, token: ${TOKENS.admin} }
  - { username: olivia, token: ${TOKENS.owner} }
  - { username: mark, token: ${TOKENS.maintainer} }
  - { username: dana, token: ${TOKENS.developer} }
  - { username: rita, token: ${TOKENS.reporter} }
  - { username: gus, token: ${TOKENS.guest} }
  - { username: otto, token: ${TOKENS.outsider} }
  - { username: bert }
  - { username: keeper, admin: true, token: ${KEEPER} }
groups:${VISIBILITIES.map(groupBlock).join('')}
projects:${VISIBILITIES.map(projectBlock).join('')}
aliases: [ { name: pub, project: public-group/proj } ]
`

/**
 * The rule of one endpoint. `min`: the least role that may use it on a project (or group) it can
 * see (`reader`: whoever can see it; `user`: any signed-in reader; `admin`: administrators only).
 * `auth`: anonymous callers get 401 (GitLab's `authenticate!`). `scope`: what the path's `{id}`
 * names (`none`: instance-level, no visibility dimension). `denied`: the status below `min`
 * (403 unless GitLab hides the feature with 404). `ok`: statuses that count as success besides
 * 2xx (304 for subscribe twice, 410 for endpoints a release removed).
 */
interface Rule {
  min:
    'reader' | 'user' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'admin' | 'any' | 'code'
  auth?: boolean
  scope?: 'project' | 'group' | 'none'
  denied?: number | ((role: Role, v: Visibility) => number)
  ok?: number[]
  /** Exactly these roles may use it (a rule finer than a least role). */
  roles?: Role[]
  /** The issue iid `{issue_iid}` (`{noteable_id}` for notes) names (default 1). */
  issue?: string
  /** The user whose id `{id}` (and `{user_id}`) names (instance-level user routes). */
  user?: string
  /** The member whose id `{user_id}` names under a project's or group's `/members`. */
  member?: string
  /** The user whose seeded personal access token `{id}` names. */
  token?: string
  /** `{id}` names the instance runner reset() makes. */
  runner?: boolean
  /** Send the body as a multipart upload with a small PNG as `file`. */
  multipart?: boolean
  /**
   * A CI read under "Project-based pipeline visibility" (`public_jobs`): `pipeline` needs `read_pipeline`
   * and `read_build`, `build` `read_build`, `jobs` (a pipeline's jobs) `read_pipeline`, and lists nothing
   * without `read_build`. `min` is the rule with `public_jobs` on (the seed's); see `ciAllowed`.
   */
  ci?: 'pipeline' | 'build' | 'jobs'
  body?: (v: Visibility) => Record<string, unknown>
  /** `{id}` is declared an Integer: the project that does not exist is named by a number, not a path. */
  numericId?: boolean
}
/** A call on mark's (the maintainer's) seeded token: his own and administrators' only. */
const marksToken = (denied: number): Rule => ({
  min: 'user',
  roles: ['maintainer', 'admin'],
  auth: true,
  scope: 'none',
  token: 'mark',
  denied,
})
/** The status `rule` answers `role` below it. */
const deniedStatus = (rule: Rule, role: Role, v: Visibility) =>
  typeof rule.denied === 'function' ? rule.denied(role, v) : (rule.denied ?? 403)
/** A pipeline schedule's rule: those who cannot read it (below Reporter) get 404, the others 403. */
const scheduleDenied = (role: Role) => (RANK[role] < RANK.reporter ? 404 : 403)
const RULES: Record<string, Rule> = {
  'GET /version': { min: 'user', auth: true, scope: 'none' },
  'GET /user': { min: 'user', auth: true, scope: 'none' },
  'GET /issues': { min: 'user', auth: true, scope: 'none' },
  'GET /issues/{id}': { min: 'admin', auth: true, scope: 'none', denied: 403 },
  // lib/api/users.rb: anonymous callers must name a `username` (403 otherwise).
  'GET /users': { min: 'user', scope: 'none' },
  'GET /projects': { min: 'reader', scope: 'none' },
  'GET /groups': { min: 'reader', scope: 'none' },
  'GET /namespaces': { min: 'user', auth: true, scope: 'none' },
  // lib/api/users.rb: writes are `authenticated_as_admin!`; reading one user needs a signed-in
  // caller (403 `Not authorized!` otherwise).
  'POST /users': {
    min: 'admin',
    auth: true,
    scope: 'none',
    body: () => ({
      email: 'matrix@example.com',
      username: 'matrix',
      name: 'Matrix',
      password: 'matrix-password',
    }),
  },
  'GET /users/{id}': { min: 'user', scope: 'none', user: 'otto' },
  // lib/api/events.rb: the caller's own events need a signed-in caller; a user's contribution events
  // (those in projects the caller may see) do not.
  'GET /events': { min: 'user', auth: true, scope: 'none' },
  'GET /users/{id}/events': { min: 'reader', scope: 'none', user: 'otto' },
  'PUT /users/{id}': {
    min: 'admin',
    auth: true,
    scope: 'none',
    user: 'otto',
    body: () => ({ bio: 'matrix' }),
  },
  'DELETE /users/{id}': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'GET /users/{user_id}/memberships': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{id}/block': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{id}/unblock': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{id}/deactivate': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{id}/activate': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{id}/ban': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{id}/unban': { min: 'admin', auth: true, scope: 'none', user: 'bert' },
  // lib/api/personal_access_tokens.rb: a token is its owner's and administrators'; others' are 404
  // (revoking one: 400, RevokeService's refusal).
  'POST /users/{user_id}/personal_access_tokens': {
    min: 'admin',
    auth: true,
    scope: 'none',
    user: 'otto',
    body: () => ({ name: 'matrix', scopes: ['api'] }),
  },
  'GET /personal_access_tokens': { min: 'user', auth: true, scope: 'none' },
  'GET /personal_access_tokens/self': { min: 'user', auth: true, scope: 'none' },
  'GET /personal_access_tokens/{id}': marksToken(404),
  'DELETE /personal_access_tokens/self': { min: 'user', auth: true, scope: 'none' },
  'DELETE /personal_access_tokens/{id}': marksToken(400),
  'POST /personal_access_tokens/self/rotate': { min: 'user', auth: true, scope: 'none' },
  'POST /personal_access_tokens/{id}/rotate': marksToken(404),
  // lib/api/namespaces.rb: a namespace is its members' (`read_namespace_via_membership`), 404 to
  // others even when public; whether a path is taken, any signed-in caller may ask.
  'GET /namespaces/{id}': { min: 'guest', auth: true, scope: 'group', denied: 404 },
  'GET /namespaces/{id}/exists': { min: 'user', auth: true, scope: 'none' },
  'GET /projects/{id}': { min: 'reader' },
  'GET /groups/{id}': { min: 'reader', scope: 'group' },
  'GET /groups/{id}/issues': { min: 'reader', scope: 'group' },
  'GET /groups/{id}/projects': { min: 'reader', scope: 'group' },
  // lib/api/members.rb: every call authenticates; reading needs the source only, adding, editing and
  // removing others `admin_project_member` (Maintainer) or `admin_group_member` (Owner); a member may leave.
  'GET /projects/{id}/members': { min: 'reader', auth: true },
  'GET /projects/{id}/members/all': { min: 'reader', auth: true },
  'GET /projects/{id}/members/{user_id}': { min: 'reader', auth: true, member: 'bert' },
  'GET /projects/{id}/members/all/{user_id}': { min: 'reader', auth: true, member: 'dana' },
  'POST /projects/{id}/members': {
    min: 'maintainer',
    auth: true,
    body: () => ({ username: 'otto', access_level: 30 }),
  },
  'PUT /projects/{id}/members/{user_id}': {
    min: 'maintainer',
    auth: true,
    member: 'bert',
    body: () => ({ access_level: 20 }),
  },
  'DELETE /projects/{id}/members/{user_id}': { min: 'maintainer', auth: true, member: 'bert' },
  'GET /groups/{id}/members': { min: 'reader', auth: true },
  'GET /groups/{id}/members/all': { min: 'reader', auth: true },
  'GET /groups/{id}/members/{user_id}': { min: 'reader', auth: true, member: 'dana' },
  'GET /groups/{id}/members/all/{user_id}': { min: 'reader', auth: true, member: 'dana' },
  'POST /groups/{id}/members': {
    min: 'owner',
    auth: true,
    body: () => ({ username: 'otto', access_level: 10 }),
  },
  'PUT /groups/{id}/members/{user_id}': {
    min: 'owner',
    auth: true,
    member: 'dana',
    body: () => ({ access_level: 40 }),
  },
  'DELETE /groups/{id}/members/{user_id}': {
    min: 'owner',
    roles: ['reporter', 'owner', 'admin'],
    auth: true,
    member: 'rita',
  },
  // Every label and milestone call authenticates (`before { authenticate! }` in lib/api/labels.rb and
  // project_milestones.rb); writes need `admin_label` / `admin_milestone` (Reporter, and Planner, from 15.0).
  'GET /projects/{id}/labels': { min: 'reader', auth: true },
  'GET /projects/{id}/labels/{label_id}': { min: 'reader', auth: true },
  'POST /projects/{id}/labels': {
    min: 'reporter',
    auth: true,
    body: () => ({ name: 'matrix', color: '#000' }),
  },
  'PUT /projects/{id}/labels/{label_id}': { min: 'reporter', auth: true, body: () => ({ description: 'x' }) },
  'DELETE /projects/{id}/labels/{label_id}': { min: 'reporter', auth: true },
  'PUT /projects/{id}/labels': {
    min: 'reporter',
    auth: true,
    body: () => ({ name: 'bug', description: 'x' }),
  },
  'DELETE /projects/{id}/labels': { min: 'reporter', auth: true, body: () => ({ name: 'bug' }) },
  'POST /projects/{id}/labels/{label_id}/subscribe': { min: 'user', auth: true, ok: [304] },
  'POST /projects/{id}/labels/{label_id}/unsubscribe': { min: 'user', auth: true, ok: [304] },
  'GET /projects/{id}/milestones': { min: 'reader', auth: true },
  'GET /projects/{id}/milestones/{milestone_id}': { min: 'reader', auth: true },
  'POST /projects/{id}/milestones': { min: 'reporter', auth: true, body: () => ({ title: 'matrix' }) },
  'PUT /projects/{id}/milestones/{milestone_id}': {
    min: 'reporter',
    auth: true,
    body: () => ({ title: 'y' }),
  },
  'DELETE /projects/{id}/milestones/{milestone_id}': { min: 'reporter', auth: true },
  'GET /projects/{id}/milestones/{milestone_id}/issues': { min: 'reader', auth: true },
  'GET /projects/{id}/milestones/{milestone_id}/merge_requests': { min: 'reader', auth: true },
  // lib/api/group_labels.rb and group_milestones.rb authenticate every call too; writes need
  // `admin_label` / `admin_milestone` in the group. Promoting needs them in the project's group.
  'GET /groups/{id}/labels': { min: 'reader', auth: true },
  'GET /groups/{id}/labels/{name}': { min: 'reader', auth: true },
  'POST /groups/{id}/labels': {
    min: 'reporter',
    auth: true,
    body: () => ({ name: 'matrix', color: '#000' }),
  },
  'PUT /groups/{id}/labels/{name}': { min: 'reporter', auth: true, body: () => ({ description: 'x' }) },
  'DELETE /groups/{id}/labels/{name}': { min: 'reporter', auth: true },
  'PUT /groups/{id}/labels': { min: 'reporter', auth: true, body: () => ({ name: 'pub', description: 'x' }) },
  'DELETE /groups/{id}/labels': { min: 'reporter', auth: true, body: () => ({ name: 'pub' }) },
  'POST /groups/{id}/labels/{label_id}/subscribe': { min: 'user', auth: true, ok: [304] },
  'POST /groups/{id}/labels/{label_id}/unsubscribe': { min: 'user', auth: true, ok: [304] },
  'GET /groups/{id}/milestones': { min: 'reader', auth: true },
  'GET /groups/{id}/milestones/{milestone_id}': { min: 'reader', auth: true },
  'POST /groups/{id}/milestones': { min: 'reporter', auth: true, body: () => ({ title: 'matrix' }) },
  'PUT /groups/{id}/milestones/{milestone_id}': { min: 'reporter', auth: true, body: () => ({ title: 'y' }) },
  'DELETE /groups/{id}/milestones/{milestone_id}': { min: 'reporter', auth: true },
  'GET /groups/{id}/milestones/{milestone_id}/issues': { min: 'reader', auth: true },
  'GET /groups/{id}/milestones/{milestone_id}/merge_requests': { min: 'reader', auth: true },
  'PUT /projects/{id}/labels/{name}/promote': { min: 'reporter', auth: true },
  'POST /projects/{id}/milestones/{milestone_id}/promote': { min: 'reporter', auth: true },
  'GET /projects/{id}/issues': { min: 'reader' },
  // lib/api/project_events.rb: whoever sees the project (its pushes only to those who read its code).
  'GET /projects/{id}/events': { min: 'reader' },
  'POST /projects/{id}/issues': { min: 'user', auth: true, body: () => ({ title: 'From the matrix' }) },
  'GET /projects/{id}/issues/{issue_iid}': { min: 'reader' },
  'PUT /projects/{id}/issues/{issue_iid}': { min: 'reporter', auth: true, body: () => ({ title: 'Edited' }) },
  'DELETE /projects/{id}/issues/{issue_iid}': { min: 'owner', auth: true },
  'PUT /projects/{id}/issues/{issue_iid}/reorder': {
    min: 'reporter',
    auth: true,
    body: () => ({ move_after_id: 'ISSUE2' }),
  },
  // MoveService's own refusal: 400 `Cannot move issue due to insufficient permissions!` (lib/api/issues.rb).
  'POST /projects/{id}/issues/{issue_iid}/move': {
    min: 'reporter',
    denied: 400,
    auth: true,
    body: () => ({ to_project_id: 'OTHER' }),
  },
  'POST /projects/{id}/issues/{issue_iid}/subscribe': { min: 'user', auth: true, ok: [304] },
  'POST /projects/{id}/issues/{issue_iid}/unsubscribe': { min: 'user', auth: true, ok: [304] },
  'POST /projects/{id}/issues/{issue_iid}/todo': { min: 'user', auth: true, ok: [304] },
  'GET /projects/{id}/issues/{issue_iid}/related_merge_requests': { min: 'reader' },
  'GET /projects/{id}/issues/{issue_iid}/closed_by': { min: 'reader' },
  'GET /projects/{id}/issues/{issue_iid}/participants': { min: 'reader' },
  // `authenticated_as_admin!` comes first (403 for everyone else); none is recorded for a seeded issue.
  'GET /projects/{id}/issues/{issue_iid}/user_agent_detail': { min: 'admin', auth: true, ok: [404] },
  'GET /projects/{id}/issues/{noteable_id}/notes': { min: 'user', auth: true },
  'POST /projects/{id}/issues/{noteable_id}/notes': { min: 'user', auth: true, body: () => ({ body: 'Hi' }) },
  'POST /projects/{id}/issues/{issue_iid}/time_estimate': {
    min: 'reporter',
    auth: true,
    body: () => ({ duration: '1h' }),
  },
  'POST /projects/{id}/issues/{issue_iid}/reset_time_estimate': { min: 'reporter', auth: true },
  'POST /projects/{id}/issues/{issue_iid}/add_spent_time': {
    min: 'reporter',
    auth: true,
    body: () => ({ duration: '1h' }),
  },
  'POST /projects/{id}/issues/{issue_iid}/reset_spent_time': { min: 'reporter', auth: true },
  'GET /projects/{id}/issues/{issue_iid}/time_stats': { min: 'reader' },
  // Metric images live on incidents; reset() uploads one to each. Reporters may upload,
  // guests get 403 `Not allowed!` (`ee/lib/ee/api/issues.rb`).
  'GET /projects/{id}/issues/{issue_iid}/metric_images': { min: 'reader', issue: '3' },
  'POST /projects/{id}/issues/{issue_iid}/metric_images': {
    min: 'reporter',
    auth: true,
    issue: '3',
    multipart: true,
  },
  'PUT /projects/{id}/issues/{issue_iid}/metric_images/{metric_image_id}': {
    min: 'reporter',
    auth: true,
    issue: '3',
    body: () => ({ url_text: 'Graph' }),
  },
  'DELETE /projects/{id}/issues/{issue_iid}/metric_images/{metric_image_id}': {
    min: 'reporter',
    auth: true,
    issue: '3',
  },
  // Authenticated by the trigger token in the body, whoever calls.
  'POST /projects/{id}/trigger/pipeline': {
    min: 'any',
    body: (v) => ({ ref: 'main', token: triggerToken(v) }),
  },
  'POST /projects/{id}/ref/{ref}/trigger/pipeline': { min: 'any', body: (v) => ({ token: triggerToken(v) }) },
  // The repository (lib/api/files.rb, commits.rb, repositories.rb, branches.rb, tags.rb): reads
  // are `download_code`, writes `push_code` (Developer; the seeded `feature` branch is unprotected).
  // GET of a file requires `ref`, which Grape refuses (400) before any access check: every caller
  // who sees the project gets the same 400.
  'GET /projects/{id}/repository/files/{file_path}': { min: 'reader' },
  'GET /projects/{id}/repository/files/{file_path}/raw': { min: 'code' },
  // Blame requires `ref` too (a GET's JSON body is not read, as Grape reads none): the same 400 to all who see it.
  'GET /projects/{id}/repository/files/{file_path}/blame': { min: 'reader' },
  'POST /projects/{id}/repository/files/{file_path}': {
    min: 'developer',
    auth: true,
    body: () => ({ branch: 'feature', content: 'x', commit_message: 'm' }),
  },
  'PUT /projects/{id}/repository/files/{file_path}': {
    min: 'developer',
    auth: true,
    body: () => ({ branch: 'feature', content: 'x', commit_message: 'm' }),
  },
  'DELETE /projects/{id}/repository/files/{file_path}': {
    min: 'developer',
    auth: true,
    body: () => ({ branch: 'feature', commit_message: 'm' }),
  },
  'GET /projects/{id}/repository/commits': { min: 'code' },
  'POST /projects/{id}/repository/commits': {
    min: 'developer',
    auth: true,
    body: () => ({
      branch: 'feature',
      commit_message: 'm',
      actions: [{ action: 'create', file_path: 'matrix.txt', content: 'x' }],
    }),
  },
  'GET /projects/{id}/repository/commits/{sha}': { min: 'code' },
  'GET /projects/{id}/repository/commits/{sha}/diff': { min: 'code' },
  'GET /projects/{id}/repository/commits/{sha}/refs': { min: 'code' },
  // lib/api/commits.rb: `read_code`, and a signed-in author to comment.
  'GET /projects/{id}/repository/commits/{sha}/comments': { min: 'code' },
  'POST /projects/{id}/repository/commits/{sha}/comments': {
    min: 'code',
    auth: true,
    body: () => ({ note: 'matrix' }),
  },
  // lib/api/commit_statuses.rb: `authenticate!`; `read_commit_status` is Reporter's, `create_commit_status`
  // Developer's, then `update_pipeline` on main, which the seed protects fully (Maintainers push).
  'GET /projects/{id}/repository/commits/{sha}/statuses': { min: 'reporter', auth: true },
  'POST /projects/{id}/statuses/{sha}': {
    min: 'maintainer',
    auth: true,
    body: () => ({ state: 'success', ref: 'main' }),
  },
  'GET /projects/{id}/repository/compare': { min: 'code', body: () => ({ from: 'main', to: 'feature' }) },
  'GET /projects/{id}/repository/merge_base': { min: 'code', body: () => ({ refs: ['main', 'feature'] }) },
  'GET /projects/{id}/repository/contributors': { min: 'code' },
  // `{sha}` of a blob route names the seeded README.md's blob (`hello`).
  'GET /projects/{id}/repository/blobs/{sha}': { min: 'code' },
  'GET /projects/{id}/repository/blobs/{sha}/raw': { min: 'code' },
  'GET /projects/{id}/repository/archive': { min: 'code' },
  'GET /projects/{id}/repository/archive.{format}': { min: 'code' },
  'GET /projects/{id}/repository/tree': { min: 'code' },
  'GET /projects/{id}/repository/branches': { min: 'code' },
  'GET /projects/{id}/repository/branches/{branch}': { min: 'code' },
  'POST /projects/{id}/repository/branches': {
    min: 'developer',
    auth: true,
    body: () => ({ branch: 'matrix', ref: 'main' }),
  },
  'DELETE /projects/{id}/repository/branches/{branch}': { min: 'developer', auth: true },
  // lib/api/branches.rb: `download_code` and 202; Branches::DeleteMergedService's `push_code` check
  // happens in its job, which refuses quietly (a Reporter's 202 deletes nothing).
  'DELETE /projects/{id}/repository/merged_branches': { min: 'code', auth: true },
  // lib/api/protected_branches.rb: `authorize_admin_project` (Maintainer).
  'GET /projects/{id}/protected_branches': { min: 'maintainer', auth: true },
  'GET /projects/{id}/protected_branches/{name}': { min: 'maintainer', auth: true },
  'POST /projects/{id}/protected_branches': {
    min: 'maintainer',
    auth: true,
    body: () => ({ name: 'matrix-*' }),
  },
  'DELETE /projects/{id}/protected_branches/{name}': { min: 'maintainer', auth: true },
  // lib/api/protected_tags.rb: `authorize_admin_project` (Maintainer). The seed protects no tag, so a
  // Maintainer's read or delete of `{name}` finds none: 404 `Not found` counts as allowed.
  'GET /projects/{id}/protected_tags': { min: 'maintainer', auth: true },
  'GET /projects/{id}/protected_tags/{name}': { min: 'maintainer', auth: true, ok: [404] },
  'POST /projects/{id}/protected_tags': { min: 'maintainer', auth: true, body: () => ({ name: 'matrix-*' }) },
  'DELETE /projects/{id}/protected_tags/{name}': { min: 'maintainer', auth: true, ok: [404] },
  'GET /projects/{id}/repository/tags': { min: 'code' },
  'GET /projects/{id}/repository/tags/{tag_name}': { min: 'code' },
  'POST /projects/{id}/repository/tags': {
    min: 'developer',
    auth: true,
    body: () => ({ tag_name: 'matrix', ref: 'main' }),
  },
  'DELETE /projects/{id}/repository/tags/{tag_name}': { min: 'developer', auth: true },
  'GET /projects/{id}/triggers': { min: 'maintainer', auth: true },
  'POST /projects/{id}/triggers': { min: 'maintainer', auth: true, body: () => ({ description: 'x' }) },
  'GET /projects/{id}/triggers/{trigger_id}': { min: 'maintainer', auth: true },
  // Only the token's owner (mark, a maintainer) may change it (GitLab's TriggerPolicy), or an administrator.
  'PUT /projects/{id}/triggers/{trigger_id}': {
    min: 'maintainer',
    roles: ['maintainer', 'admin'],
    auth: true,
    body: () => ({ description: 'y' }),
  },
  'DELETE /projects/{id}/triggers/{trigger_id}': { min: 'maintainer', auth: true },
  // lib/api/project_job_token_scope.rb: `authenticate!`, `authorize_admin_project` (Maintainer). The writes
  // declare `id` an Integer (`numericId`). Adding a target that does not exist is a Maintainer's 404
  // `target_..._id not found`; taking the project itself, or a group not listed, off is a 400.
  'GET /projects/{id}/job_token_scope': { min: 'maintainer', auth: true },
  'PATCH /projects/{id}/job_token_scope': { min: 'maintainer', auth: true, body: () => ({ enabled: true }) },
  'GET /projects/{id}/job_token_scope/allowlist': { min: 'maintainer', auth: true },
  'POST /projects/{id}/job_token_scope/allowlist': {
    min: 'maintainer',
    auth: true,
    numericId: true,
    ok: [404],
    body: () => ({ target_project_id: 2147483647 }),
  },
  'DELETE /projects/{id}/job_token_scope/allowlist/{target_project_id}': {
    min: 'maintainer',
    auth: true,
    numericId: true,
    ok: [400],
  },
  'GET /projects/{id}/job_token_scope/groups_allowlist': { min: 'maintainer', auth: true },
  'POST /projects/{id}/job_token_scope/groups_allowlist': {
    min: 'maintainer',
    auth: true,
    numericId: true,
    ok: [404],
    body: () => ({ target_group_id: 2147483647 }),
  },
  'DELETE /projects/{id}/job_token_scope/groups_allowlist/{target_group_id}': {
    min: 'maintainer',
    auth: true,
    numericId: true,
    ok: [400],
  },
  // lib/api/environments.rb, lib/api/deployments.rb (`authenticate!`, ProjectPolicy): Reporters read them
  // (whoever sees a public or internal project), Developers write; reset() makes a stopped environment
  // `matrix` (the first) and two successful external deployments, the first of which is not the last.
  'GET /projects/{id}/environments': { min: 'code', auth: true },
  'POST /projects/{id}/environments': { min: 'developer', auth: true, body: () => ({ name: 'made' }) },
  'GET /projects/{id}/environments/{environment_id}': { min: 'code', auth: true },
  'PUT /projects/{id}/environments/{environment_id}': {
    min: 'developer',
    auth: true,
    body: () => ({ external_url: 'https://matrix.example.com' }),
  },
  'DELETE /projects/{id}/environments/{environment_id}': { min: 'developer', auth: true },
  // `authorize! :stop_environment, environment`: `matrix` is stopped, with no stop action to play, so
  // `update_environment` (Developer) is enough (EnvironmentPolicy).
  'POST /projects/{id}/environments/{environment_id}/stop': { min: 'developer', auth: true },
  // `authorize! :stop_environment, user_project` (Maintainer); `before` at least a week before the matrix's clock.
  'POST /projects/{id}/environments/stop_stale': {
    min: 'maintainer',
    auth: true,
    body: () => ({ before: '2026-05-01T00:00:00Z' }),
  },
  // `authorize! :read_environment` (403 for those who may not read them), then the service's
  // `destroy_environment` (Developer): 401 with its message. reset() makes no review app, so a Developer's
  // dry run finds none to delete: 400.
  'DELETE /projects/{id}/environments/review_apps': {
    min: 'developer',
    auth: true,
    ok: [400],
    denied: (role, v) => (allowed({ min: 'code' }, role, v) ? 401 : 403),
  },
  'GET /projects/{id}/deployments': { min: 'code', auth: true },
  'POST /projects/{id}/deployments': {
    min: 'developer',
    auth: true,
    // `sha` names a commit as `project.commit` reads it: a ref name does.
    body: () => ({
      environment: 'production',
      sha: 'main',
      ref: 'main',
      tag: false,
      status: 'success',
    }),
  },
  'GET /projects/{id}/deployments/{deployment_id}': { min: 'code', auth: true },
  'PUT /projects/{id}/deployments/{deployment_id}': {
    min: 'developer',
    auth: true,
    body: () => ({ status: 'failed' }),
  },
  'DELETE /projects/{id}/deployments/{deployment_id}': { min: 'maintainer', auth: true },
  // lib/api/ci/pipeline_schedules.rb (`authenticate!`, Ci::PipelineSchedulePolicy): the seeded schedule is
  // mark's (a Maintainer), on main, which only Maintainers may push (play needs it). A schedule below
  // `read_pipeline_schedule` (Reporter) is `404 Pipeline Schedule Not Found`; edits are its owner's only.
  'GET /projects/{id}/pipeline_schedules': { min: 'reporter', auth: true },
  'POST /projects/{id}/pipeline_schedules': {
    min: 'developer',
    auth: true,
    body: () => ({ description: 'matrix', ref: 'main', cron: '0 1 * * *' }),
  },
  'GET /projects/{id}/pipeline_schedules/{pipeline_schedule_id}': {
    min: 'reporter',
    auth: true,
    denied: 404,
  },
  'GET /projects/{id}/pipeline_schedules/{pipeline_schedule_id}/pipelines': {
    min: 'reporter',
    auth: true,
    denied: 404,
  },
  'PUT /projects/{id}/pipeline_schedules/{pipeline_schedule_id}': {
    min: 'maintainer',
    roles: ['maintainer', 'admin'],
    auth: true,
    denied: scheduleDenied,
    body: () => ({ description: 'edited' }),
  },
  'DELETE /projects/{id}/pipeline_schedules/{pipeline_schedule_id}': {
    min: 'maintainer',
    auth: true,
    denied: scheduleDenied,
  },
  'POST /projects/{id}/pipeline_schedules/{pipeline_schedule_id}/take_ownership': {
    min: 'maintainer',
    auth: true,
    denied: scheduleDenied,
  },
  'POST /projects/{id}/pipeline_schedules/{pipeline_schedule_id}/play': {
    min: 'maintainer',
    auth: true,
    denied: scheduleDenied,
  },
  // `set_pipeline_variables` (Developer) on the project comes first: 403 before the schedule is looked up.
  'POST /projects/{id}/pipeline_schedules/{pipeline_schedule_id}/variables': {
    min: 'maintainer',
    roles: ['maintainer', 'admin'],
    auth: true,
    body: () => ({ key: 'MATRIX_NEW', value: 'x' }),
  },
  'PUT /projects/{id}/pipeline_schedules/{pipeline_schedule_id}/variables/{key}': {
    min: 'maintainer',
    roles: ['maintainer', 'admin'],
    auth: true,
    body: () => ({ value: 'y' }),
  },
  'DELETE /projects/{id}/pipeline_schedules/{pipeline_schedule_id}/variables/{key}': {
    min: 'maintainer',
    auth: true,
  },
  // lib/api/ci/variables.rb: `authenticate!`, then `admin_cicd_variables` (Maintainer).
  'GET /projects/{id}/variables': { min: 'maintainer', auth: true },
  'POST /projects/{id}/variables': {
    min: 'maintainer',
    auth: true,
    body: () => ({ key: 'MATRIX_NEW', value: 'x' }),
  },
  'GET /projects/{id}/variables/{key}': { min: 'maintainer', auth: true },
  'PUT /projects/{id}/variables/{key}': { min: 'maintainer', auth: true, body: () => ({ value: 'y' }) },
  'DELETE /projects/{id}/variables/{key}': { min: 'maintainer', auth: true },
  // lib/api/ci/group_variables.rb: `authenticate!`, then the group's `admin_cicd_variables` (Owner).
  'GET /groups/{id}/variables': { min: 'owner', auth: true },
  'POST /groups/{id}/variables': {
    min: 'owner',
    auth: true,
    body: () => ({ key: 'MATRIX_NEW', value: 'x' }),
  },
  'GET /groups/{id}/variables/{key}': { min: 'owner', auth: true },
  'PUT /groups/{id}/variables/{key}': { min: 'owner', auth: true, body: () => ({ value: 'y' }) },
  'DELETE /groups/{id}/variables/{key}': { min: 'owner', auth: true },
  // lib/api/admin/ci/variables.rb: `authenticated_as_admin!`.
  'GET /admin/ci/variables': { min: 'admin', auth: true, scope: 'none' },
  'POST /admin/ci/variables': {
    min: 'admin',
    auth: true,
    scope: 'none',
    body: () => ({ key: 'MATRIX_NEW', value: 'x' }),
  },
  'GET /admin/ci/variables/{key}': { min: 'admin', auth: true, scope: 'none' },
  'PUT /admin/ci/variables/{key}': { min: 'admin', auth: true, scope: 'none', body: () => ({ value: 'y' }) },
  'DELETE /admin/ci/variables/{key}': { min: 'admin', auth: true, scope: 'none' },
  // Webhooks: `admin_web_hook` on the project (Maintainer), `admin_group` on the group (Owner, EE).
  'GET /projects/{id}/hooks': { min: 'maintainer', auth: true },
  'POST /projects/{id}/hooks': {
    min: 'maintainer',
    auth: true,
    body: () => ({ url: 'https://example.com/hook' }),
  },
  'GET /projects/{id}/hooks/{hook_id}': { min: 'maintainer', auth: true },
  'PUT /projects/{id}/hooks/{hook_id}': {
    min: 'maintainer',
    auth: true,
    body: () => ({ note_events: true }),
  },
  'DELETE /projects/{id}/hooks/{hook_id}': { min: 'maintainer', auth: true },
  'GET /projects/{id}/hooks/{hook_id}/events': { min: 'maintainer', auth: true },
  // The sample goes nowhere (no network here): 422 with the connection's error.
  'POST /projects/{id}/hooks/{hook_id}/test/{trigger}': { min: 'maintainer', auth: true, ok: [422] },
  'GET /groups/{id}/hooks': { min: 'owner', auth: true },
  'POST /groups/{id}/hooks': { min: 'owner', auth: true, body: () => ({ url: 'https://example.com/hook' }) },
  'GET /groups/{id}/hooks/{hook_id}': { min: 'owner', auth: true },
  'PUT /groups/{id}/hooks/{hook_id}': { min: 'owner', auth: true, body: () => ({ note_events: true }) },
  'DELETE /groups/{id}/hooks/{hook_id}': { min: 'owner', auth: true },
  'GET /groups/{id}/hooks/{hook_id}/events': { min: 'owner', auth: true },
  'POST /groups/{id}/hooks/{hook_id}/test/{trigger}': { min: 'owner', auth: true, ok: [422] },
  'GET /projects/{id}/pipelines': { min: 'reader', ci: 'pipeline' },
  'GET /projects/{id}/pipelines/{pipeline_id}': { min: 'reader', ci: 'pipeline' },
  'GET /projects/{id}/pipelines/{pipeline_id}/jobs': { min: 'reader', ci: 'jobs' },
  // `authorize! :read_pipeline_variable`, no `authenticate!`: anonymous callers get 403 on a public project.
  // Maintainers (`admin_pipeline`) read them; a Developer only of a pipeline of theirs (mark's trigger made it).
  'GET /projects/{id}/pipelines/{pipeline_id}/variables': { min: 'maintainer' },
  // `protected_ref`: the matrix's pipelines run on main, which the seed protects fully (Maintainers push and merge).
  'POST /projects/{id}/pipelines/{pipeline_id}/cancel': { min: 'maintainer', auth: true },
  'POST /projects/{id}/pipelines/{pipeline_id}/retry': { min: 'maintainer', auth: true },
  // `destroy_pipeline`: the project's Owners (and administrators).
  'DELETE /projects/{id}/pipelines/{pipeline_id}': { min: 'owner', auth: true },
  // lib/api/ci/jobs.rb: `authenticate!`, then `authorize_read_builds!` (public pipelines: whoever reads the project).
  // lib/api/ci/jobs.rb `GET /job`: a CI/CD job token's own job; a personal access token is no job (404).
  'GET /job': { min: 'user', auth: true, scope: 'none', roles: [], denied: 404 },
  'GET /projects/{id}/jobs': { min: 'reader', auth: true, ci: 'build' },
  'GET /projects/{id}/jobs/{job_id}': { min: 'reader', auth: true, ci: 'build' },
  'GET /projects/{id}/jobs/{job_id}/trace': { min: 'reader', auth: true, ci: 'build' },
  // lib/api/ci/pipelines.rb: `authenticate_non_get!`, as the pipeline's jobs.
  'GET /projects/{id}/pipelines/{pipeline_id}/bridges': { min: 'reader', ci: 'build' },
  // The matrix's jobs wait to run: 400 `Unplayable Job`, 403 `Job is not retryable`, 403 `Job is not erasable!`.
  // On main, fully protected: Maintainers' (`protected_ref` in `Ci::BuildPolicy`).
  'POST /projects/{id}/jobs/{job_id}/play': { min: 'maintainer', auth: true, ok: [400] },
  'POST /projects/{id}/jobs/{job_id}/retry': { min: 'maintainer', auth: true, ok: [403] },
  'POST /projects/{id}/jobs/{job_id}/cancel': { min: 'maintainer', auth: true },
  'POST /projects/{id}/jobs/{job_id}/erase': { min: 'maintainer', auth: true, ok: [403] },
  // lib/api/ci/job_artifacts.rb: no `authenticate!` for reads; the matrix's jobs have no artifacts (404),
  // and the by-ref download names no `job` (400 `job is missing`).
  'GET /projects/{id}/jobs/{job_id}/artifacts': { min: 'reader', ok: [404], ci: 'build' },
  'GET /projects/{id}/jobs/{job_id}/artifacts/{artifact_path}': { min: 'reader', ok: [404], ci: 'build' },
  'GET /projects/{id}/jobs/artifacts/{ref_name}/download': { min: 'any', ok: [400] },
  // Keep: `update_build`, on main (fully protected) Maintainers'; the matrix's jobs have no artifacts (404).
  'POST /projects/{id}/jobs/{job_id}/artifacts/keep': { min: 'maintainer', auth: true, ok: [404] },
  // `destroy_artifacts`: the project's Maintainers (204 for a job without artifacts; 202 for the project).
  'DELETE /projects/{id}/jobs/{job_id}/artifacts': { min: 'maintainer', auth: true },
  'DELETE /projects/{id}/artifacts': { min: 'maintainer', auth: true },
  // lib/api/lint.rb: `authorize! :create_pipeline` for POST, `authorize_read_code!` for GET; no authentication.
  'POST /projects/{id}/ci/lint': { min: 'developer', body: () => ({ content: 'build: { script: make }' }) },
  'GET /projects/{id}/ci/lint': { min: 'code' },
  // `create_pipeline`: Developer; on `feature`, as main is fully protected (`allowed_to_write_ref?`, 400 below
  // Maintainer); the seed's `ci_jobs` shortcut gives it its jobs.
  'POST /projects/{id}/pipeline': { min: 'developer', auth: true, body: () => ({ ref: 'feature' }) },
  'GET /project_aliases': { min: 'admin', auth: true, scope: 'none', denied: 403 },
  'POST /project_aliases': {
    min: 'admin',
    auth: true,
    scope: 'none',
    denied: 403,
    body: () => ({ project_id: 'OTHER', name: 'matrix' }),
  },
  'GET /project_aliases/{name}': { min: 'admin', auth: true, scope: 'none', denied: 403 },
  'DELETE /project_aliases/{name}': { min: 'admin', auth: true, scope: 'none', denied: 403 },
  // Removed in GitLab 18.0 (the default release): 410 for every signed-in caller, hidden or not.
  'POST /runners/reset_registration_token': { min: 'user', auth: true, scope: 'none', ok: [410] },
  'POST /projects/{id}/runners/reset_registration_token': { min: 'user', auth: true, ok: [410] },
  'POST /groups/{id}/runners/reset_registration_token': {
    min: 'user',
    auth: true,
    scope: 'group',
    ok: [410],
  },
  'POST /runners': { min: 'any', scope: 'none', ok: [410] },
  // lib/api/user_runners.rb: an instance runner is the administrators' (403 `Insufficient permissions`).
  'POST /user/runners': {
    min: 'admin',
    auth: true,
    scope: 'none',
    body: () => ({ runner_type: 'instance_type' }),
  },
  // lib/api/ci/runners.rb with Ci::RunnerPolicy, on reset()'s instance runner: any signed-in user reads it,
  // administrators alone change it or read its jobs (403 `No access granted`).
  'GET /runners': { min: 'user', auth: true, scope: 'none' },
  'GET /runners/all': { min: 'admin', auth: true, scope: 'none' },
  'GET /runners/{id}': { min: 'user', auth: true, scope: 'none', runner: true },
  'PUT /runners/{id}': {
    min: 'admin',
    auth: true,
    scope: 'none',
    runner: true,
    body: () => ({ description: 'matrix' }),
  },
  'DELETE /runners/{id}': { min: 'admin', auth: true, scope: 'none', runner: true },
  'POST /runners/{id}/reset_authentication_token': { min: 'admin', auth: true, scope: 'none', runner: true },
  'GET /runners/{id}/jobs': { min: 'admin', auth: true, scope: 'none', runner: true },
  // `read_project_runners` / `admin_project_runners`: Maintainer. Enabling names the public project's runner
  // (already enabled in the public project: 400); the instance runner is enabled in no project (404).
  'GET /projects/{id}/runners': { min: 'maintainer', auth: true },
  'POST /projects/{id}/runners': {
    min: 'maintainer',
    auth: true,
    ok: [400],
    body: () => ({ runner_id: 'PROJECT_RUNNER' }),
  },
  'DELETE /projects/{id}/runners/{runner_id}': { min: 'maintainer', auth: true, ok: [404] },
  // `read_group_runners`: Owner.
  'GET /groups/{id}/runners': { min: 'owner', auth: true },
  // lib/api/ci/runner.rb: the runner's own token, whoever calls (403 for an unknown one).
  'POST /runners/verify': { min: 'any', scope: 'none', body: () => ({ token: 'glrt-unknown' }) },
  'DELETE /runners': { min: 'any', scope: 'none', body: () => ({ token: 'glrt-unknown' }) },
  'POST /runners/reset_authentication_token': {
    min: 'any',
    scope: 'none',
    body: () => ({ token: 'glrt-unknown' }),
  },
  'POST /projects/{id}/export': { min: 'maintainer', auth: true },
  'GET /projects/{id}/export': { min: 'maintainer', auth: true },
  'GET /projects/{id}/export/download': { min: 'maintainer', auth: true, ok: [404] },
  'GET /projects/{id}/import': { min: 'reader', auth: true },
  // Namespace-scoped creation; the namespace rules are the import tests' (test/server/routes).
  'POST /projects/import': { min: 'user', auth: true, scope: 'none', ok: [400] },
  'POST /projects/remote-import': { min: 'user', auth: true, scope: 'none', ok: [400] },
  'POST /projects/remote-import-s3': { min: 'user', auth: true, scope: 'none', ok: [400] },
  // Found by full path, then the relation, then admin_project: the rules are relation-imports.test.ts's.
  'POST /projects/import-relation': { min: 'user', auth: true, scope: 'none', ok: [400] },
  'GET /projects/{id}/relation-imports': { min: 'maintainer', auth: true },
  // lib/api/issue_links.rb authenticates every call; linking and unlinking need `admin_issue_link`
  // (the Guest role) on the issues: 403 when linking, 404 `No Issue Link found` when unlinking.
  // reset() links issue 1 to 3 in each project (2 is confidential).
  'GET /projects/{id}/issues/{issue_iid}/links': { min: 'user', auth: true },
  // lib/api/discussions.rb authenticates every call; its notes follow the notes' rules (dana's, in reset()).
  'GET /projects/{id}/issues/{noteable_id}/discussions': { min: 'user', auth: true },
  'POST /projects/{id}/issues/{noteable_id}/discussions': {
    min: 'user',
    auth: true,
    body: () => ({ body: 'Hi' }),
  },
  'GET /projects/{id}/issues/{noteable_id}/discussions/{discussion_id}': { min: 'user', auth: true },
  'POST /projects/{id}/issues/{noteable_id}/discussions/{discussion_id}/notes': {
    min: 'user',
    auth: true,
    body: () => ({ body: 'Re' }),
  },
  'GET /projects/{id}/issues/{noteable_id}/discussions/{discussion_id}/notes/{note_id}': {
    min: 'user',
    auth: true,
  },
  'PUT /projects/{id}/issues/{noteable_id}/discussions/{discussion_id}/notes/{note_id}': {
    min: 'developer',
    roles: ['developer', 'maintainer', 'owner', 'admin'],
    auth: true,
    body: () => ({ body: 'Edited' }),
  },
  'DELETE /projects/{id}/issues/{noteable_id}/discussions/{discussion_id}/notes/{note_id}': {
    min: 'developer',
    roles: ['developer', 'maintainer', 'owner', 'admin'],
    auth: true,
  },
  // lib/api/resource_*_events.rb authenticate every call; reset() edits issue 3 so that each kind
  // has an event (the server has no iterations: one by id is always 404).
  ...Object.fromEntries(
    ['label', 'milestone', 'state', 'weight', 'iteration'].flatMap((kind): [string, Rule][] => [
      [
        `GET /projects/{id}/issues/{eventable_id}/resource_${kind}_events`,
        { min: 'user', auth: true, issue: '3' },
      ],
      [
        `GET /projects/{id}/issues/{eventable_id}/resource_${kind}_events/{event_id}`,
        { min: 'user', auth: true, issue: '3', ...(kind === 'iteration' ? { ok: [404] } : {}) },
      ],
    ]),
  ),
  // lib/api/award_emoji.rb: readers see awards (anonymous ones too); awarding needs a signed-in
  // reader (404 `Award Emoji Not Found` otherwise); only the giver (dana, in reset()) or an
  // administrator takes one back (401 for anyone else).
  ...Object.fromEntries(
    ['/projects/{id}/issues/{issue_iid}', '/projects/{id}/issues/{issue_iid}/notes/{note_id}'].flatMap(
      (base): [string, Rule][] => [
        [`GET ${base}/award_emoji`, { min: 'reader' }],
        [`GET ${base}/award_emoji/{award_id}`, { min: 'reader' }],
        [`POST ${base}/award_emoji`, { min: 'user', denied: 404, body: () => ({ name: 'tada' }) }],
        [
          `DELETE ${base}/award_emoji/{award_id}`,
          { min: 'developer', roles: ['developer', 'admin'], denied: 401 },
        ],
      ],
    ),
  ),
  // reset() comments on issue 1 as dana (developer): `admin_note` is its author's, Maintainers' and up.
  'GET /projects/{id}/issues/{noteable_id}/notes/{note_id}': { min: 'user', auth: true },
  'PUT /projects/{id}/issues/{noteable_id}/notes/{note_id}': {
    min: 'developer',
    roles: ['developer', 'maintainer', 'owner', 'admin'],
    auth: true,
    body: () => ({ body: 'Edited' }),
  },
  'DELETE /projects/{id}/issues/{noteable_id}/notes/{note_id}': {
    min: 'developer',
    roles: ['developer', 'maintainer', 'owner', 'admin'],
    auth: true,
  },
  'POST /projects/{id}/issues/{issue_iid}/links': {
    min: 'guest',
    auth: true,
    body: () => ({ target_project_id: 'OTHER', target_issue_iid: 1 }),
  },
  'GET /projects/{id}/issues/{issue_iid}/links/{issue_link_id}': { min: 'user', auth: true },
  'DELETE /projects/{id}/issues/{issue_iid}/links/{issue_link_id}': { min: 'guest', auth: true, denied: 404 },
  // lib/api/groups.rb: creating a top-level group needs `can_create_group` (every seeded user has it);
  // editing, deleting, transferring and sharing are the Owner's (`admin_group`), sharing answering 404
  // `Not Found` below it (Groups::GroupLinks::CreateService); reading subgroups needs the group only.
  'POST /groups': {
    min: 'user',
    auth: true,
    scope: 'none',
    body: () => ({ name: 'Matrix', path: 'matrix' }),
  },
  'PUT /groups/{id}': { min: 'owner', auth: true, scope: 'group', body: () => ({ description: 'matrix' }) },
  'DELETE /groups/{id}': { min: 'owner', auth: true, scope: 'group' },
  'GET /groups/{id}/subgroups': { min: 'reader', scope: 'group' },
  'GET /groups/{id}/descendant_groups': { min: 'reader', scope: 'group' },
  'POST /groups/{id}/transfer': {
    min: 'owner',
    auth: true,
    scope: 'group',
    body: () => ({ group_id: 'OTHER_GROUP' }),
  },
  // A GET: anonymous callers are not refused first (`authenticate_non_get!`), but by the group's rules.
  'GET /groups/{id}/transfer_locations': { min: 'owner', scope: 'group' },
  'POST /groups/{id}/share': {
    min: 'owner',
    auth: true,
    scope: 'group',
    denied: 404,
    body: () => ({ group_id: 'OTHER_GROUP', group_access: 30 }),
  },
  // No share exists after reset(): an Owner gets 404 `Group Link Not Found`.
  'DELETE /groups/{id}/share/{group_id}': { min: 'owner', auth: true, scope: 'group', ok: [404] },
  // lib/api/projects.rb: creating needs a signed-in user (in their own namespace); for another user,
  // administrators; editing `admin_project` (Maintainer); archiving, deleting and transferring are the
  // Owner's (`archive_project`, `remove_project`, `change_namespace`); sharing `admin_project`.
  'POST /projects': { min: 'user', auth: true, scope: 'none', body: () => ({ name: 'matrix' }) },
  'POST /projects/user/{user_id}': {
    min: 'admin',
    auth: true,
    scope: 'none',
    user: 'otto',
    body: () => ({ name: 'matrix' }),
  },
  'PUT /projects/{id}': { min: 'maintainer', auth: true, body: () => ({ description: 'matrix' }) },
  'DELETE /projects/{id}': { min: 'owner', auth: true },
  'POST /projects/{id}/archive': { min: 'owner', auth: true },
  'POST /projects/{id}/unarchive': { min: 'owner', auth: true },
  'PUT /projects/{id}/transfer': { min: 'owner', auth: true, body: () => ({ namespace: 'olivia' }) },
  'POST /projects/{id}/share': {
    min: 'maintainer',
    auth: true,
    body: () => ({ group_id: 'OTHER_GROUP', group_access: 30 }),
  },
  // No share exists after reset(): who may unshare gets 404 `Group Link Not Found`.
  'DELETE /projects/{id}/share/{group_id}': { min: 'maintainer', auth: true, ok: [404] },
  'GET /users/{user_id}/projects': { min: 'reader', scope: 'none', user: 'olivia' },
  // Forks (lib/api/projects.rb): forking needs `fork_project` (`download_code`'s readers; below it GitLab's
  // `not_found!`), into the caller's own namespace; unlinking `remove_fork_project` and linking
  // `link_forked_project` are the Owner's (the seed has no fork: unlinking answers 304).
  'POST /projects/{id}/fork': { min: 'code', auth: true, denied: 404, body: () => ({ path: 'matrix-fork' }) },
  'GET /projects/{id}/forks': { min: 'reader' },
  'DELETE /projects/{id}/fork': { min: 'owner', auth: true, ok: [304] },
  'POST /projects/{id}/fork/{forked_from_id}': { min: 'owner', auth: true, ok: [409] },
  // lib/api/users.rb: the caller's own token (k8s_proxy only); impersonation tokens are administrators'.
  'POST /user/personal_access_tokens': {
    min: 'user',
    auth: true,
    scope: 'none',
    body: () => ({ name: 'matrix', scopes: ['k8s_proxy'] }),
  },
  'GET /users/{user_id}/impersonation_tokens': { min: 'admin', auth: true, scope: 'none', user: 'otto' },
  'POST /users/{user_id}/impersonation_tokens': {
    min: 'admin',
    auth: true,
    scope: 'none',
    user: 'otto',
    body: () => ({ name: 'matrix', scopes: ['api'], expires_at: '2026-12-01' }),
  },
  'GET /users/{user_id}/impersonation_tokens/{impersonation_token_id}': {
    min: 'admin',
    auth: true,
    scope: 'none',
    user: 'otto',
  },
  'DELETE /users/{user_id}/impersonation_tokens/{impersonation_token_id}': {
    min: 'admin',
    auth: true,
    scope: 'none',
    user: 'otto',
  },
  // lib/api/resource_access_tokens.rb: Maintainers of a project, Owners of a group (reset() makes one
  // token of each); below them reads and rotations are 401, creation and revocation the services' 400.
  ...Object.fromEntries(
    (['projects', 'groups'] as const).flatMap((kind): [string, Rule][] => {
      const min = kind === 'projects' ? 'maintainer' : 'owner'
      const base = `/${kind}/{id}/access_tokens`
      return [
        [`GET ${base}`, { min, auth: true, denied: 401 }],
        [`POST ${base}`, { min, auth: true, denied: 400, body: () => ({ name: 'matrix', scopes: ['api'] }) }],
        [`GET ${base}/{token_id}`, { min, auth: true, denied: 401 }],
        [`DELETE ${base}/{token_id}`, { min, auth: true, denied: 400 }],
        [`POST ${base}/{token_id}/rotate`, { min, auth: true, denied: 401 }],
      ]
    }),
  ),
}

/** True when `role` may see a project or group of visibility `v` (`app/policies/project_policy.rb`). */
const canSee = (role: Role, v: Visibility) =>
  role === 'admin' || v === 'public' || (v === 'internal' && role !== 'anonymous') || RANK[role] >= 10

/**
 * `read_build` and `read_pipeline` of a role that sees the project (`app/policies/project_policy.rb`):
 * `read_build` is Reporter+ or `public_builds`; `read_pipeline` is Reporter+, `public_access` (a public
 * project, or an internal one signed in) or `public_builds & guest_access`; a pipeline itself also asks
 * `read_build` (`app/policies/ci/pipeline_policy.rb`).
 */
function ciAbilities(role: Role, v: Visibility, publicJobs: boolean) {
  const reporter = role === 'admin' || RANK[role] >= RANK.reporter
  const signedIn = role !== 'anonymous'
  const publicAccess = v === 'public' || (v === 'internal' && signedIn)
  const guestAccess = RANK[role] >= RANK.guest || (signedIn && v !== 'private')
  return {
    readBuild: reporter || publicJobs,
    readPipeline: reporter || publicAccess || (publicJobs && guestAccess),
  }
}

/** Whether `role` may make the CI read `kind` (an empty list for `jobs` without `read_build`). */
function ciAllowed(kind: NonNullable<Rule['ci']>, role: Role, v: Visibility, publicJobs: boolean) {
  const can = ciAbilities(role, v, publicJobs)
  if (kind === 'build') return can.readBuild
  if (kind === 'jobs') return can.readPipeline
  return can.readPipeline && can.readBuild
}

function allowed(rule: Rule, role: Role, v: Visibility): boolean {
  if (rule.roles) return rule.roles.includes(role)
  switch (rule.min) {
    case 'any':
    case 'reader':
      return true
    // `download_code`: whoever sees a public or internal project, Reporters and up in a private one.
    case 'code':
      return v !== 'private' || role === 'admin' || RANK[role] >= RANK.reporter
    case 'user':
      return role !== 'anonymous'
    case 'admin':
      return role === 'admin'
    default:
      return RANK[role] >= RANK[rule.min]
  }
}

describe('access matrix: every endpoint by every role by every visibility', () => {
  let t: TestServer
  let ops: Operation[]
  let guard: NetworkGuard
  beforeAll(async () => {
    guard = installNetworkGuard()
    t = await startServer(seed, { clock: manualClock('2026-06-01T10:00:00.000Z') })
    ops = await loadOperations(t.baseUrl)
  })
  afterAll(async () => {
    await t.close()
    guard.uninstall()
  })

  const key = (op: Operation) => `${op.method} ${op.path}`
  const one = (sql: string, ...args: unknown[]) =>
    inspectDb(t.server.store)
      .prepare(sql)
      .pluck()
      .get(...args) as number | undefined
  const projectId = (v: Visibility) =>
    one('SELECT id FROM projects WHERE full_path = ?', `${v}-group/proj`) as number
  const BOUNDARY = 'matrixboundary'
  const PNG = '\x89PNG\r\n\x1a\n'
  const multipartBody = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="graph.png"\r\ncontent-type: image/png\r\n\r\n${PNG}\r\n--${BOUNDARY}--\r\n`
  const send = (
    method: string,
    path: string,
    role: Role,
    body?: Record<string, unknown>,
    multipart = false,
  ): Promise<Reply> =>
    t.http(method, `/api/v4${path}`, {
      ...(TOKENS[role] ? { token: TOKENS[role] } : {}),
      ...(body ? { json: body } : {}),
      ...(multipart
        ? { form: multipartBody, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }
        : {}),
    })

  /** Back to the seed (plus one pipeline per project) after anything may have changed it. */
  let dirty = true
  async function reset(): Promise<void> {
    if (!dirty) return
    expect((await t.http('POST', '/-/emulator/reset', { token: KEEPER })).status).toBe(200)
    // A banned user, for unban.
    const bert = one("SELECT id FROM users WHERE username = 'bert'")
    expect((await send('POST', `/users/${bert}/ban`, 'admin')).status).toBe(201)
    for (const v of VISIBILITIES) {
      const res = await t.http('POST', `/api/v4/projects/${projectId(v)}/trigger/pipeline`, {
        form: `ref=main&token=${triggerToken(v)}`,
      })
      expect(res.status).toBe(201)
      const image = await send(
        'POST',
        `/projects/${projectId(v)}/issues/3/metric_images`,
        'admin',
        undefined,
        true,
      )
      expect(image.status).toBe(201)
      const link = await send('POST', `/projects/${projectId(v)}/issues/1/links`, 'admin', {
        target_project_id: projectId(v),
        target_issue_iid: 3,
      })
      expect(link.status).toBe(201)
      const comment = await send('POST', `/projects/${projectId(v)}/issues/1/notes`, 'developer', {
        body: 'From the matrix',
      })
      expect(comment.status).toBe(201)
      const variable = await send('POST', `/projects/${projectId(v)}/variables`, 'admin', {
        key: 'MATRIX',
        value: 'from the matrix',
      })
      expect(variable.status).toBe(201)
      const schedule = await send('POST', `/projects/${projectId(v)}/pipeline_schedules`, 'maintainer', {
        description: 'nightly',
        ref: 'main',
        cron: '0 1 * * *',
      })
      expect(schedule.status).toBe(201)
      const scheduleId = (schedule.body as { id: number }).id
      const scheduleVariable = await send(
        'POST',
        `/projects/${projectId(v)}/pipeline_schedules/${scheduleId}/variables`,
        'maintainer',
        { key: 'MATRIX', value: 'from the matrix' },
      )
      expect(scheduleVariable.status).toBe(201)
      const environment = await send('POST', `/projects/${projectId(v)}/environments`, 'admin', {
        name: 'matrix',
      })
      expect(environment.status).toBe(201)
      const environmentId = (environment.body as { id: number }).id
      const stopped = await send(
        'POST',
        `/projects/${projectId(v)}/environments/${environmentId}/stop`,
        'admin',
      )
      expect(stopped.status).toBe(200)
      for (let n = 0; n < 2; n++) {
        const deployment = await send('POST', `/projects/${projectId(v)}/deployments`, 'admin', {
          environment: 'production',
          sha: one("SELECT sha FROM project_refs WHERE project_id = ? AND name = 'main'", projectId(v)),
          ref: 'main',
          tag: false,
          status: 'success',
        })
        expect(deployment.status).toBe(201)
      }
      const groupVariable = await send('POST', `/groups/${v}-group/variables`, 'admin', {
        key: 'MATRIX',
        value: 'from the matrix',
      })
      expect(groupVariable.status).toBe(201)
      const edit = await send('PUT', `/projects/${projectId(v)}/issues/3`, 'admin', {
        state_event: 'close',
        add_labels: 'bug',
        milestone_id: one('SELECT id FROM milestones WHERE project_id = ?', projectId(v)),
        weight: 2,
      })
      expect(edit.status).toBe(200)
      const thread = await send('POST', `/projects/${projectId(v)}/issues/1/discussions`, 'developer', {
        body: 'A thread',
      })
      expect(thread.status).toBe(201)
      for (const awardable of ['issues/1', `issues/1/notes/${(comment.body as { id: number }).id}`]) {
        const given = await send('POST', `/projects/${projectId(v)}/${awardable}/award_emoji`, 'developer', {
          name: 'thumbsup',
        })
        expect(given.status).toBe(201)
      }
    }
    // A project and a group access token of each visibility, and an impersonation token of otto's.
    for (const v of VISIBILITIES)
      for (const base of [`/projects/${projectId(v)}`, `/groups/${v}-group`])
        expect(
          (await send('POST', `${base}/access_tokens`, 'admin', { name: 'seeded', scopes: ['api'] })).status,
        ).toBe(201)
    const otto = one("SELECT id FROM users WHERE username = 'otto'")
    const impersonation = await send('POST', `/users/${otto}/impersonation_tokens`, 'admin', {
      name: 'seeded',
      scopes: ['api'],
      expires_at: '2026-12-01',
    })
    expect(impersonation.status).toBe(201)
    const instanceVariable = await send('POST', '/admin/ci/variables', 'admin', { key: 'MATRIX', value: 'x' })
    expect(instanceVariable.status).toBe(201)
    // An instance runner, and a project runner of the public project.
    for (const body of [
      { runner_type: 'instance_type' },
      { runner_type: 'project_type', project_id: projectId('public') },
    ])
      expect((await send('POST', '/user/runners', 'admin', body)).status).toBe(201)
    dirty = false
  }
  /** A label `pub` and a milestone of the group, made when missing for the routes that name them. */
  async function groupFixtures(op: Operation, v: Visibility): Promise<void> {
    if (!/^\/groups\/\{id\}\/(labels|milestones)/.test(op.path)) return
    const group = `${v}-group`
    const owned = (table: string, title: string) =>
      one(
        `SELECT x.id FROM ${table} x JOIN namespaces n ON n.id = x.group_id WHERE n.full_path = ? AND x.title = ?`,
        group,
        title,
      )
    if (!owned('labels', 'pub'))
      expect(
        (await send('POST', `/groups/${group}/labels`, 'admin', { name: 'pub', color: '#fff' })).status,
      ).toBe(201)
    if (!owned('milestones', 'Group one'))
      expect(
        (await send('POST', `/groups/${group}/milestones`, 'admin', { title: 'Group one' })).status,
      ).toBe(201)
  }
  /** A hook of the project or group of `v` for the routes under `/hooks/{hook_id}` (URL never reached). */
  function hookFixtures(op: Operation, v: Visibility): void {
    if (!op.path.includes('{hook_id}')) return
    const owner = op.path.startsWith('/groups/')
      ? { project_id: null, group_id: one('SELECT id FROM namespaces WHERE full_path = ?', `${v}-group`) }
      : { project_id: projectId(v), group_id: null }
    inspectDb(t.server.store)
      .prepare(
        `INSERT INTO web_hooks (project_id, group_id, url, issues_events, created_at)
         VALUES (?, ?, 'https://example.com/hook', 1, '2026-06-01T10:00:00.000Z')`,
      )
      .run(owner.project_id, owner.group_id)
  }
  const ref = (scope: string, v: Visibility) =>
    scope === 'group' ? `${v}-group` : scope === 'project' ? String(projectId(v)) : ''
  /** The path of `op` with `{id}` = `target` and every other parameter naming a real record of `v`. */
  const fillPath = (op: Operation, v: Visibility, target: string, issue = '1', member?: string) => {
    const pid = projectId(v)
    const eventKind = /resource_(\w+)_events/.exec(op.path)?.[1] ?? 'state'
    const values: Record<string, string> = {
      id: target || String(one('SELECT id FROM issues WHERE project_id = ? AND iid = 1', pid)),
      user_id: member ?? target,
      issue_iid: issue,
      noteable_id: issue,
      eventable_id: issue,
      trigger_id: String(one('SELECT id FROM triggers WHERE project_id = ?', pid)),
      target_project_id: String(pid),
      target_group_id: String(
        one("SELECT id FROM namespaces WHERE path = ? AND kind = 'group'", `${v}-group`),
      ),
      pipeline_schedule_id: String(one('SELECT id FROM ci_pipeline_schedules WHERE project_id = ?', pid)),
      environment_id: String(one('SELECT MIN(id) FROM environments WHERE project_id = ?', pid)),
      deployment_id: String(one('SELECT MIN(id) FROM deployments WHERE project_id = ?', pid)),
      pipeline_id: String(one('SELECT id FROM pipelines WHERE project_id = ?', pid)),
      job_id: String(
        one(
          'SELECT b.id FROM ci_builds b JOIN pipelines p ON p.id = b.pipeline_id WHERE p.project_id = ?',
          pid,
        ),
      ),
      ref_name: 'main',
      key: 'MATRIX',
      artifact_path: 'out.txt',
      metric_image_id: String(
        one(
          'SELECT m.id FROM metric_images m JOIN issues i ON i.id = m.issue_id WHERE i.project_id = ?',
          pid,
        ),
      ),
      issue_link_id: String(
        one('SELECT l.id FROM issue_links l JOIN issues i ON i.id = l.source_id WHERE i.project_id = ?', pid),
      ),
      note_id: String(
        one(
          'SELECT n.id FROM notes n JOIN issues i ON i.id = n.issue_id WHERE i.project_id = ? AND n.system = 0',
          pid,
        ),
      ),
      // Iterations have no events; any other kind's id serves (it answers 404).
      event_id: String(
        one(
          `SELECT e.id FROM resource_${eventKind === 'iteration' ? 'state' : eventKind}_events e
           JOIN issues i ON i.id = e.issue_id WHERE i.project_id = ?`,
          pid,
        ),
      ),
      discussion_id: String(
        one(
          'SELECT d.discussion_id FROM note_discussions d JOIN notes n ON n.id = d.note_id JOIN issues i ON i.id = n.issue_id WHERE i.project_id = ?',
          pid,
        ),
      ),
      award_id: String(
        op.path.includes('{note_id}')
          ? one(
              'SELECT a.id FROM note_award_emoji a JOIN notes n ON n.id = a.note_id JOIN issues i ON i.id = n.issue_id WHERE i.project_id = ?',
              pid,
            )
          : one(
              'SELECT a.id FROM award_emoji a JOIN issues i ON i.id = a.issue_id WHERE i.project_id = ?',
              pid,
            ),
      ),
      token_id: String(
        one(
          'SELECT t.id FROM personal_access_tokens t JOIN bot_users b ON b.user_id = t.user_id WHERE b.source_type = ? AND b.source_id = ?',
          ...(op.path.startsWith('/groups/')
            ? ['namespace', one('SELECT id FROM namespaces WHERE full_path = ?', `${v}-group`)]
            : ['project', pid]),
        ),
      ),
      impersonation_token_id: String(
        one('SELECT token_id FROM access_token_kinds WHERE impersonation = 1 ORDER BY token_id LIMIT 1'),
      ),
      // A project label's promotion names the project's own label; aliases and group labels `pub`;
      // a protected branch, the default branch (protected when seeded).
      name: op.path.includes('/protected_branches/')
        ? 'main'
        : op.path.startsWith('/projects/')
          ? 'bug'
          : 'pub',
      file_path: 'README.md',
      // A project link names the public project as the source (the public cell: itself, 409).
      forked_from_id: String(projectId('public')),
      branch: 'feature',
      sha: op.path.includes('/blobs/') ? README_BLOB : 'main',
      tag_name: 'v1',
      format: 'zip',
      ref: 'main',
      label_id: op.path.startsWith('/groups/') ? 'pub' : 'bug',
      milestone_id: String(
        op.path.startsWith('/groups/')
          ? one(
              'SELECT m.id FROM milestones m JOIN namespaces n ON n.id = m.group_id WHERE n.full_path = ?',
              `${v}-group`,
            )
          : one('SELECT id FROM milestones WHERE project_id = ?', pid),
      ),
      group_id: String(otherGroup(v)),
      hook_id: String(
        one(
          op.path.startsWith('/groups/')
            ? 'SELECT h.id FROM web_hooks h JOIN namespaces n ON n.id = h.group_id WHERE n.full_path = ?'
            : 'SELECT id FROM web_hooks WHERE project_id = ?',
          op.path.startsWith('/groups/') ? `${v}-group` : pid,
        ) ?? 0,
      ),
      trigger: 'issues_events',
      runner_id: String(instanceRunner()),
    }
    return op.path.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? 'x')
  }
  const instanceRunner = () =>
    one("SELECT id FROM ci_runners WHERE runner_type = 'instance_type' ORDER BY id LIMIT 1")
  /** A group other than the project's: the public one, or the internal one from the public. */
  const otherGroup = (v: Visibility) =>
    one('SELECT id FROM namespaces WHERE full_path = ?', v === 'public' ? 'internal-group' : 'public-group')
  /** `OTHER` in a body names another project: the public one, or the internal one from the public. */
  const resolveBody = (body: Record<string, unknown>, v: Visibility) =>
    Object.fromEntries(
      Object.entries(body).map(([k, val]) => [
        k,
        val === 'OTHER'
          ? projectId(v === 'public' ? 'internal' : 'public')
          : val === 'OTHER_GROUP'
            ? otherGroup(v)
            : val === 'PROJECT_RUNNER'
              ? one("SELECT id FROM ci_runners WHERE runner_type = 'project_type' ORDER BY id LIMIT 1")
              : val === 'ISSUE2'
                ? one('SELECT id FROM issues WHERE project_id = ? AND iid = 2', projectId(v))
                : val,
      ]),
    )

  it('has a rule for every endpoint the server publishes', () => {
    const missing = ops.map(key).filter((k) => !(k in RULES))
    expect(missing).toEqual([])
  })

  // Every endpoint by three visibilities by every role, each after a store reset: minutes of cells
  // (250-270 s of CPU in all), in parts so that no one test needs them all. Part `part`
  // takes every PARTS-th endpoint; together they take each once.
  const PARTS = 8
  it.each(Array.from({ length: PARTS }, (_, part) => part))(
    'answers each cell as GitLab would, and hidden things look like missing things (endpoints, part %i of 8)',
    async (part) => {
      const problems: string[] = []
      for (const op of ops.filter((_, i) => i % PARTS === part)) {
        const rule = RULES[key(op)]
        if (!rule) continue
        const scope =
          rule.scope ??
          (op.path.startsWith('/groups/') ? 'group' : op.path.includes('{id}') ? 'project' : 'none')
        for (const visibility of scope === 'none' ? (['public'] as const) : VISIBILITIES)
          for (const role of ROLES) {
            await reset()
            await groupFixtures(op, visibility)
            hookFixtures(op, visibility)
            const user = rule.user && String(one('SELECT id FROM users WHERE username = ?', rule.user))
            const token =
              rule.token &&
              String(
                one(
                  'SELECT t.id FROM personal_access_tokens t JOIN users u ON u.id = t.user_id WHERE u.username = ?',
                  rule.token,
                ),
              )
            const member = rule.member && String(one('SELECT id FROM users WHERE username = ?', rule.member))
            const runner = rule.runner && String(instanceRunner())
            const fill = (target: string) =>
              fillPath(
                op,
                visibility,
                target || user || token || runner || '',
                rule.issue,
                member || undefined,
              )
            const body = rule.body?.(visibility)
            const res = await send(
              op.method,
              fill(ref(scope, visibility)),
              role,
              body && resolveBody(body, visibility),
              rule.multipart,
            )
            if (op.method !== 'GET') dirty = true
            const cell = `${key(op)} [${visibility}, ${role}] -> ${res.status} ${res.text.slice(0, 160)}`
            const hidden = scope !== 'none' && !canSee(role, visibility)
            if (res.status >= 500) {
              problems.push(`5xx: ${cell}`)
              continue
            }
            if (rule.auth && role === 'anonymous') {
              if (res.status !== 401) problems.push(`expected 401: ${cell}`)
              continue
            }
            if (rule.min === 'any') continue
            if (hidden) {
              // Indistinguishable from a project or group that does not exist.
              const missing = await send(
                op.method,
                fill(
                  scope === 'group' ? 'no-such-group' : rule.numericId ? '2147483647' : 'no-such%2Fproject',
                ),
                role,
                body && resolveBody(body, visibility),
                rule.multipart,
              )
              const success = res.status >= 200 && res.status < 300
              if (success || missing.status !== res.status || missing.text !== res.text)
                problems.push(
                  `leak (hidden ${res.status} ${res.text} vs missing ${missing.status} ${missing.text}): ${cell}`,
                )
              continue
            }
            const ok = (res.status >= 200 && res.status < 300) || (rule.ok ?? []).includes(res.status)
            if (allowed(rule, role, visibility)) {
              if (!ok && [401, 403, 404].includes(res.status)) problems.push(`expected success: ${cell}`)
            } else if (res.status !== deniedStatus(rule, role, visibility))
              problems.push(`expected ${deniedStatus(rule, role, visibility)}: ${cell}`)
          }
      }
      expect(problems).toEqual([])
    },
    // Parts took 30-72 s each (7 minutes in all) at a load average of 4-7; the whole once timed out at 600 s.
    300_000,
  )

  it('CI reads follow public_jobs ("Project-based pipeline visibility") by role and visibility', async () => {
    await reset()
    dirty = true
    const problems: string[] = []
    const ciOps = ops.filter((op) => RULES[key(op)]?.ci)
    expect(ciOps).toHaveLength(9)
    for (const publicJobs of [false, true]) {
      for (const v of VISIBILITIES) {
        const set = await send('PUT', `/projects/${projectId(v)}`, 'admin', { public_jobs: publicJobs })
        expect([set.status, (set.body as { public_jobs?: boolean }).public_jobs]).toEqual([200, publicJobs])
      }
      for (const op of ciOps) {
        const rule = RULES[key(op)]!
        for (const v of VISIBILITIES)
          for (const role of ROLES) {
            const res = await send('GET', fillPath(op, v, String(projectId(v))), role)
            const cell = `${key(op)} [${v}, ${role}, public_jobs ${publicJobs}] -> ${res.status} ${res.text.slice(0, 120)}`
            if (!canSee(role, v)) {
              if (res.status !== (rule.auth && role === 'anonymous' ? 401 : 404))
                problems.push(`hidden: ${cell}`)
              continue
            }
            if (rule.auth && role === 'anonymous') {
              if (res.status !== 401) problems.push(`expected 401: ${cell}`)
              continue
            }
            const ok = (res.status >= 200 && res.status < 300) || (rule.ok ?? []).includes(res.status)
            if (!ciAllowed(rule.ci!, role, v, publicJobs)) {
              if (res.status !== 403 || res.text !== '{"message":"403 Forbidden"}')
                problems.push(`expected 403: ${cell}`)
            } else if (!ok) problems.push(`expected success: ${cell}`)
            else if (rule.ci === 'jobs') {
              // Ci::JobsFinder: `read_pipeline` without `read_build` lists no job.
              const listed = (res.body as unknown[]).length
              const readBuild = ciAbilities(role, v, publicJobs).readBuild
              if (readBuild !== listed > 0) problems.push(`${listed} jobs listed: ${cell}`)
            }
          }
      }
    }
    expect(problems).toEqual([])
  }, 300_000)

  it('lists show only what the caller may read, and X-Total counts only that', async () => {
    await reset()
    const problems: string[] = []
    const lists = [
      '/issues?scope=all',
      ...VISIBILITIES.flatMap((v) => [
        `/projects/${projectId(v)}/issues`,
        `/groups/${v}-group/issues`,
        `/groups/${v}-group/projects`,
        `/projects/${projectId(v)}/pipelines`,
      ]),
    ]
    for (const role of ROLES)
      for (const list of lists) {
        const res = await send('GET', `${list}${list.includes('?') ? '&' : '?'}per_page=100`, role)
        if (res.status !== 200) continue
        const items = res.body as { id: number; iid?: number; project_id?: number; confidential?: boolean }[]
        if (res.headers['x-total'] !== undefined && Number(res.headers['x-total']) !== items.length)
          problems.push(`${list} [${role}]: X-Total ${res.headers['x-total']} but ${items.length} items`)
        for (const item of items) {
          // Each listed issue must be readable on its own by the same caller.
          if (item.iid === undefined || item.project_id === undefined || list.includes('/pipelines')) continue
          const single = await send('GET', `/projects/${item.project_id}/issues/${item.iid}`, role)
          if (single.status !== 200)
            problems.push(
              `${list} [${role}] lists issue ${item.project_id}#${item.iid} it cannot read (${single.status})`,
            )
        }
        const confidential = items.filter((i) => i.confidential).length
        if (confidential > 0 && RANK[role] < RANK.reporter && role !== 'admin')
          problems.push(`${list} [${role}] shows ${confidential} confidential issue(s)`)
      }
    expect(problems).toEqual([])
  })

  it('the project and group lists show only what the caller may read on its own', async () => {
    await reset()
    const problems: string[] = []
    for (const role of ROLES)
      for (const [list, single] of [
        ['/projects', '/projects/'],
        ['/groups?all_available=true', '/groups/'],
        ['/namespaces', '/namespaces/'],
      ] as const) {
        const res = await send('GET', `${list}${list.includes('?') ? '&' : '?'}per_page=100`, role)
        if (res.status !== 200) continue
        const items = res.body as { id: number; kind?: string }[]
        if (Number(res.headers['x-total']) !== items.length)
          problems.push(`${list} [${role}]: X-Total ${res.headers['x-total']} but ${items.length} items`)
        for (const item of items) {
          // Namespaces have no single read here: a group among them must be readable as a group.
          if (item.kind === 'user') continue
          const read = await send('GET', `${item.kind ? '/groups/' : single}${item.id}`, role)
          if (read.status !== 200)
            problems.push(`${list} [${role}] lists ${item.id} it cannot read (${read.status})`)
        }
        if (role === 'anonymous' || role === 'outsider') {
          const privateOnes = items.filter((i) => (i as { visibility?: string }).visibility === 'private')
          if (privateOnes.length > 0)
            problems.push(`${list} [${role}] shows private ${privateOnes.map((i) => i.id)}`)
        }
      }
    expect(problems).toEqual([])
  })
})
