/*
 * The typed GitLab client: one core (http.ts) over
 * a composed transport (transport.ts, retry.ts), and one small module per resource group.
 */
import { processWarning, releaseGuard } from './releases.js'
import { runners } from './runners.js'
import type { Dispatcher } from 'undici'
import { aliases } from './aliases.js'
import { groups } from './groups.js'
import { Http } from './http.js'
import { issueActions } from './issue-actions.js'
import { issues } from './issues.js'
import { labels } from './labels.js'
import { version } from './meta.js'
import { metricImages } from './metric-images.js'
import { milestones } from './milestones.js'
import { notes } from './notes.js'
import { pipelines } from './pipelines.js'
import { jobs } from './jobs.js'
import { commitStatuses } from './commit-statuses.js'
import { events } from './events.js'
import { projectExports } from './project-exports.js'
import { projectImports } from './project-imports.js'
import { projects } from './projects.js'
import { retry, type RetryPolicy } from './retry.js'
import { timeTracking } from './time-tracking.js'
import { apiRoot, auth, compose, serverRoot, userAgent, type Send, type TokenType } from './transport.js'
import { triggers } from './triggers.js'
import { jobTokenScope } from './job-token-scope.js'
import { pipelineSchedules } from './pipeline-schedules.js'
import { deployments, environments } from './environments.js'
import { ciLint } from './ci-lint.js'
import { instanceVariables } from './ci-variables.js'
import { hooks } from './hooks.js'
import { repository } from './repository.js'
import { undiciSend } from './undici-send.js'
import { Agent } from './undici.js'
import { users } from './users.js'
import { personalAccessTokens } from './personal-access-tokens.js'
import { accessTokens } from './access-tokens.js'
import { namespaces } from './namespaces.js'
import { issueLinks } from './issue-links.js'
import { awardEmoji } from './award-emoji.js'
import { discussions } from './discussions.js'
import { resourceEvents } from './resource-events.js'
import { members } from './members.js'
import { emulator } from './emulator.js'

export interface ClientOptions {
  /**
   * GitLab's URL, with any path prefix (`https://gitlab.example.com/gitlab`); `/api/v4` is
   * appended (and accepted if already there). Throws TypeError when it is not an http(s) URL.
   */
  baseUrl: string
  /** Personal, project, group, job or OAuth token; only ever sent in a header. None: anonymous. */
  token?: string
  /** `private` (PRIVATE-TOKEN, the default), `job` (JOB-TOKEN) or `oauth` (Authorization: Bearer). */
  tokenType?: TokenType
  /** Overrides of the retry policy (retry.ts: 3 retries, 500 ms doubling to 30 s, full jitter). */
  retry?: Partial<RetryPolicy>
  /** Per-attempt timeout in ms (default 60,000; 0 for none). A call may override it. */
  timeoutMs?: number
  /** `User-Agent` (default `gitlab-actions`). */
  userAgent?: string
  /** Check response bodies against the schemas (GitLabResponseError on a mismatch); default false. */
  validate?: boolean
  /** undici dispatcher to send through (default: one keep-alive Agent per client, closed by `close`). */
  dispatcher?: Dispatcher
  /**
   * Replaces the network layer (the layers above still run): a fake for transport unit tests. The
   * `emulator` calls reach it too, with paths below the server root (`/-/emulator/...`).
   */
  send?: Send
  /**
   * Called once per feature when the caller uses something the server's release has removed
   * (read from `GET /version` on first such use); a Node process warning by default.
   */
  onDeprecation?: (message: string) => void
}

/**
 * Creates a client. Layers, outermost first: user agent -> retry -> auth -> network, so every
 * retry re-runs auth, and the timeout applies to each attempt. Throws TypeError for a bad `baseUrl`.
 *
 * - `issues`, `projects`, `groups`, `users`, `instanceVariables`, `version()`: the typed resource groups.
 * - `emulator`: the reference server's controls (`/-/emulator/...`, below the server root).
 * - `request(method, path, options)`: any other call below `/api/v4` (use the `path` template).
 * - `paginate(path, options)` / `pages(path, options)`: any other list, lazily, by item or by page.
 * - `raw(method, path, options)`: the unread response, for streams and unusual statuses.
 * - `close()`: closes the client's own Agent (not a `dispatcher` passed in).
 */
export function createClient(options: ClientOptions) {
  const root = apiRoot(options.baseUrl) // validates early, also when `send` is given
  const owned = options.send || options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 30_000 })
  const core = (base: Send) =>
    new Http(
      compose(
        base,
        userAgent(options.userAgent ?? 'gitlab-actions'),
        retry(options.retry),
        auth(options.token, options.tokenType),
      ),
      {
        timeoutMs: options.timeoutMs ?? 60_000,
        validate: options.validate ?? false,
        secrets: options.token ? [options.token] : [],
      },
    )
  const http = core(options.send ?? undiciSend(root, options.dispatcher ?? owned))
  // The emulator's controls live beside the API, not below it: the same layers over the server root.
  const controls = core(options.send ?? undiciSend(serverRoot(root), options.dispatcher ?? owned))
  return {
    /** The API root calls go to, e.g. `https://gitlab.example.com/gitlab/api/v4`. */
    apiRoot: root,
    http,
    // bind() would keep only the last overload of request.
    request: http.request.bind(http) as Http['request'],
    raw: http.raw.bind(http),
    paginate: http.paginate.bind(http),
    pages: http.pages.bind(http),
    issues: issues(http),
    issueActions: issueActions(http),
    timeTracking: timeTracking(http),
    metricImages: metricImages(http),
    aliases: aliases(http),
    notes: notes(http),
    labels: labels(http),
    milestones: milestones(http),
    projects: projects(http),
    groups: groups(http),
    users: users(http),
    personalAccessTokens: personalAccessTokens(http),
    accessTokens: accessTokens(http),
    namespaces: namespaces(http),
    pipelines: pipelines(http),
    /** Jobs, their traces and artifacts, and bridges. */
    jobs: jobs(http),
    /** Statuses external CI systems post on commits, and a commit's list of statuses. */
    commitStatuses: commitStatuses(http),
    /** The Events API: what people did in projects (`GET /events`, a user's, a project's). */
    events: events(http),
    triggers: triggers(http),
    /** Which other projects' CI/CD job tokens reach a project: the limit and its allowlists. */
    jobTokenScope: jobTokenScope(http),
    /** Pipeline schedules, their pipelines, play and variables. */
    pipelineSchedules: pipelineSchedules(http),
    /** Environments: those jobs made and those made through the API. */
    environments: environments(http),
    /** Deployments: those of jobs, which follow them, and external ones. */
    deployments: deployments(http),
    /** The CI Lint API: a configuration checked in a project's context. */
    ciLint: ciLint(http),
    /** The instance's CI/CD variables (administrators; python-gitlab's `gl.variables`). */
    instanceVariables: instanceVariables(http),
    runners: runners(http, releaseGuard(http, options.onDeprecation ?? processWarning)),
    projectExports: projectExports(http),
    projectImports: projectImports(http),
    version: version(http),
    issueLinks: issueLinks(http),
    awardEmoji: awardEmoji(http),
    discussions: discussions(http),
    resourceEvents: resourceEvents(http),
    projectMembers: members(http, 'projects'),
    groupMembers: members(http, 'groups'),
    projectHooks: hooks(http, 'projects'),
    /** EE only. */
    groupHooks: hooks(http, 'groups'),
    /** Files, commits, tree, branches, protected branches and tags. */
    repository: repository(http),
    /** The reference server's controls (`gitlab-actions serve`; GitLab has none): reset, seed, clock... */
    emulator: emulator(controls),
    close: async (): Promise<void> => {
      await owned?.close()
    },
  }
}

/** The client createClient returns. */
export type GitLabClient = ReturnType<typeof createClient>

export {
  GitLabApiError,
  GitLabConnectionError,
  GitLabResponseError,
  GitLabTimeoutError,
  statusText,
} from './errors.js'
export { NOT_MODIFIED, type CallOptions, type NotModified } from './http.js'
export { collect, type Page, type PageOptions } from './paginate.js'
export { path } from './path.js'
export type { RetryPolicy } from './retry.js'
export type { TokenType } from './transport.js'
