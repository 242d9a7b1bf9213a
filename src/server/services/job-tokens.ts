import { notFound, unauthorized } from '../grape/gitlab-errors.js'
import { EXECUTING } from '../domain/composite-status.js'
import { applies } from '../domain/releases.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { ProjectRow } from '../store/projects.js'
import type { Store } from '../store/index.js'
import type { UserRow } from '../store/users.js'
import { Actor } from './access.js'

/**
 * A caller authenticated by a CI/CD job token: the job's user, within the job token scope of the job's
 * project (`reaches`, built by `jobTokens`).
 */
export class JobTokenActor extends Actor {
  constructor(
    user: UserRow,
    readonly job: { id: number; projectId: number },
    readonly reaches: (project: ProjectRow) => boolean,
  ) {
    super(user)
  }
}

/**
 * Whether a job token of project `sourceId` may reach `target` in GitLab `version` (`Ci::JobToken::Scope#accessible?`,
 * app/models/ci/job_token/scope.rb): its own project; any project before the inbound scope came (15.9,
 * RELEASE_RULES.jobTokenInboundScope), the job's user's access deciding alone; a project whose inbound scope
 * is disabled; one whose allowlist holds the source project, or, from 17.0, a group holding it
 * (`Allowlist#includes_group?`: the source's group or any group above it). The outbound scope, deprecated and
 * off by default, is not kept.
 */
export function jobTokenReaches(
  store: Store,
  version: string,
  sourceId: number,
  target: ProjectRow,
): boolean {
  if (target.id === sourceId || !applies(version, 'jobTokenInboundScope')) return true
  const scopes = store.jobTokenScopes
  if (!scopes.inboundEnabled(target.id)) return true
  if (scopes.projects.get(target.id, sourceId)) return true
  if (!applies(version, 'jobTokenGroupsAllowlist')) return false
  const source = store.projects.get(sourceId)
  return source !== undefined && scopes.groups.holdsAny(target.id, groupsAbove(store, source.namespace_id))
}

/** The group `namespaceId` and the groups above it (none for a user's namespace). */
function groupsAbove(store: Store, namespaceId: number | null): number[] {
  const ids: number[] = []
  for (let id = namespaceId; id !== null;) {
    const ns = store.namespaces.get(id)
    if (!ns || ns.kind !== 'group') break
    ids.push(ns.id)
    id = ns.parent_id
  }
  return ids
}

/**
 * `project`, unless the caller is a job token whose scope leaves it out: 404 `Project Not Found`
 * (`project_allowed_for_job_token`, lib/api/helpers.rb), as for a project the caller cannot see.
 */
export function inJobTokenScope(actor: Actor, project: ProjectRow): ProjectRow {
  if (actor instanceof JobTokenActor && !actor.reaches(project)) throw notFound('Project')
  return project
}

/** The running job a token belongs to, with its pipeline's project and user; undefined otherwise. */
export function runningJob(store: Store, runner: PipelineRunner, token: string) {
  runner.catchUp()
  const job = store.pipelines.jobByToken(token)
  if (!job) return undefined
  const pipeline = store.pipelines.byId(job.pipeline_id)
  const user = pipeline?.user_id ? store.users.get(pipeline.user_id) : undefined
  return pipeline ? { job, pipeline, user, running: EXECUTING.has(job.status) } : undefined
}

/** CI/CD job tokens: the routes that accept them say so in their spec (`jobToken: true`). */
export interface JobTokens {
  /** The job's user with the job's token scope; throws 401 unless the job is running. */
  resolve(token: string): Actor
}

/**
 * `JOB-TOKEN` authentication (`lib/gitlab/auth/auth_finders.rb`): a token of no job, of a job that
 * is not running, or of a blocked user is a 401. `version` is the GitLab release the scope follows.
 */
export function jobTokens(store: Store, runner: PipelineRunner, version: string): JobTokens {
  return {
    resolve(token: string) {
      const found = runningJob(store, runner, token)
      if (!found?.running || !found.user || found.user.state !== 'active') throw unauthorized()
      const projectId = found.pipeline.project_id
      return new JobTokenActor(found.user, { id: found.job.id, projectId }, (target) =>
        jobTokenReaches(store, version, projectId, target),
      )
    },
  }
}
