import { notFound, unauthorized } from '../grape/gitlab-errors.js'
import { EXECUTING } from '../domain/composite-status.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { ProjectRow } from '../store/projects.js'
import type { Store } from '../store/index.js'
import type { UserRow } from '../store/users.js'
import { Actor } from './access.js'

/**
 * A caller authenticated by a CI/CD job token: the job's user, limited to the job's own project.
 * Our choice: the emulator keeps no job token allowlists, so other projects stay hidden (404).
 */
export class JobTokenActor extends Actor {
  constructor(
    user: UserRow,
    readonly job: { id: number; projectId: number },
  ) {
    super(user)
  }
}

/**
 * `project`, unless the caller is a job token of another project's job: 404 `Project Not Found` (the job
 * token scope, `project_allowed_for_job_token`, with no allowlists kept here).
 */
export function inJobTokenScope(actor: Actor, project: ProjectRow): ProjectRow {
  if (actor instanceof JobTokenActor && actor.job.projectId !== project.id) throw notFound('Project')
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
 * is not running, or of a blocked user is a 401.
 */
export function jobTokens(store: Store, runner: PipelineRunner): JobTokens {
  return {
    resolve(token: string) {
      const found = runningJob(store, runner, token)
      if (!found?.running || !found.user || found.user.state !== 'active') throw unauthorized()
      return new JobTokenActor(found.user, { id: found.job.id, projectId: found.pipeline.project_id })
    },
  }
}
