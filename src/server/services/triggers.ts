import { randomBytes } from 'node:crypto'
import type { Pipeline, Trigger, TriggerPipeline } from '../../schema/index.js'
import { forbidden, messageError, notFound, recordNotFound, unauthorized } from '../grape/gitlab-errors.js'
import { checkUnmodifiedSince } from '../grape/unmodified-since.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import { presentUser } from '../present/users.js'
import type { ProjectRow } from '../store/projects.js'
import type { TriggerRow } from '../store/triggers.js'
import type { UserRow } from '../store/users.js'
import { Actor, Level, writable } from './access.js'
import type { ServiceContext } from './context.js'
import { isoNow } from '../domain/clock.js'
import { jobTokenReaches, runningJob } from './job-tokens.js'
import type { PipelineService } from './pipelines.js'
import type { SecretBox } from '../store/secret-box.js'
import { resolveRef } from './refs.js'
import { acceptedInputs, mayCreatePipeline, refRefusal, requireBuildsEnabled } from './pipeline-api.js'

/** `glptt-` + 40 lower-case hex characters (`app/models/ci/trigger.rb`). */
export const newTriggerToken = () => `glptt-${randomBytes(20).toString('hex')}`

/** What the store keeps of a token: its hint (4 characters after the prefix) and a sealed copy. */
export function sealTrigger(box: SecretBox, token: string) {
  return { token, token_hint: token.replace(/^glptt-/, '').slice(0, 4), token_encrypted: box.seal(token) }
}

const base = (message: string) => messageError(400, { base: [message] })

/**
 * Trigger tokens (`lib/api/ci/triggers.rb`): Maintainers list, read, create and
 * delete them; only the owner (or an administrator) edits one or sees it whole.
 */
export function triggerService(ctx: ServiceContext, runner: PipelineRunner, pipelines: PipelineService) {
  const { store, access } = ctx
  const box = store.secrets

  const requireUser = (actor: Actor) => {
    if (!actor.user) throw unauthorized()
  }
  /** `admin_build`, which every trigger call asks first: Maintainer, in a project not archived (reads too). */
  const adminBuild = (actor: Actor, p: ProjectRow) =>
    writable(p) && access.atLeast(actor, p, Level.maintainer)
  /** `admin_trigger`: the owner while still a Maintainer, or an administrator. */
  const owns = (actor: Actor, p: ProjectRow, t: TriggerRow) =>
    actor.admin || (t.owner_id !== null && t.owner_id === actor.id && adminBuild(actor, p))
  const find = (p: ProjectRow, id: number) => {
    const row = store.triggers.get(p.id, id)
    if (!row) throw recordNotFound()
    return row
  }
  const present = (actor: Actor, p: ProjectRow, t: TriggerRow): Trigger => {
    const owner = t.owner_id === null ? undefined : store.users.get(t.owner_id)
    return {
      id: t.id,
      token: owns(actor, p, t) ? box.open(t.token_encrypted) : t.token_hint,
      description: t.description,
      created_at: t.created_at,
      updated_at: t.updated_at,
      last_used: t.last_used,
      expires_at: t.expires_at,
      owner: owner ? presentUser(owner, ctx.instance) : null,
    }
  }
  /**
   * `create_pipeline`: an active Developer or more in a project that is not archived, while the repository
   * and CI/CD features leave the pipeline abilities to them (services/ci-access.ts `pipelines`).
   */
  return {
    list(actor: Actor, p: ProjectRow, limit: number, offset: number) {
      requireUser(actor)
      if (!adminBuild(actor, p)) throw forbidden()
      const rows = store.triggers.ofProject(p.id, limit, offset)
      return { items: rows.map((t) => present(actor, p, t)), total: store.triggers.count(p.id) }
    },

    get(actor: Actor, p: ProjectRow, id: number): Trigger {
      requireUser(actor)
      if (!adminBuild(actor, p)) throw forbidden()
      return present(actor, p, find(p, id))
    },

    /** A JSON `null` description is stored as an empty one (our choice). */
    create(actor: Actor, p: ProjectRow, description: string | null): Trigger {
      requireUser(actor)
      if (!adminBuild(actor, p)) throw forbidden()
      const now = isoNow(ctx.clock)
      const id = store.triggers.insert({
        project_id: p.id,
        owner_id: actor.id,
        description: description ?? '',
        created_at: now,
        ...sealTrigger(box, newTriggerToken()),
      })
      return present(actor, p, find(p, id))
    },

    /** Only the owner edits: 403 with GitLab's sentence for everyone else who can see the project. */
    update(actor: Actor, p: ProjectRow, id: number, description: string | null | undefined): Trigger {
      requireUser(actor)
      if (!writable(p)) throw forbidden()
      const row = find(p, id)
      if (!owns(actor, p, row))
        throw forbidden('The current user is not authorized to update the pipeline trigger token')
      if (description !== undefined) store.triggers.update(row.id, description ?? '', isoNow(ctx.clock))
      return present(actor, p, find(p, id))
    },

    /** Any Maintainer deletes; `If-Unmodified-Since` older than the last change is a 412. */
    remove(actor: Actor, p: ProjectRow, id: number, unmodifiedSince?: string | string[]): void {
      requireUser(actor)
      if (!adminBuild(actor, p)) throw forbidden()
      const row = find(p, id)
      checkUnmodifiedSince(unmodifiedSince, row.updated_at)
      store.triggers.remove(row.id)
    },

    /**
     * `POST /projects/:id/trigger/pipeline` after parameter checks
     * (`app/services/ci/pipeline_trigger_service.rb`): a trigger token of this project, or the job token of a
     * running job whose user can see the project, within the job token scope; then the owner's right to create pipelines, the ref and the
     * CI configuration, in GitLab's order.
     * `payload` is the request's parameters without the token (`TRIGGER_PAYLOAD`).
     */
    trigger(projectRef: string, input: TriggerPipeline, payload: Record<string, unknown>): Promise<Pipeline> {
      const p = /^\d+$/.test(projectRef)
        ? store.projects.get(Number(projectRef))
        : store.projects.byPath(projectRef)
      if (!p) throw notFound()
      const trigger = store.triggers.byToken(input.token)
      let user: UserRow | undefined
      let upstream: { pipelineId: number; jobId: number } | undefined
      if (trigger) {
        if (trigger.project_id !== p.id) throw notFound()
        if (trigger.expires_at && trigger.expires_at <= isoNow(ctx.clock)) throw notFound()
        user = trigger.owner_id === null ? undefined : store.users.get(trigger.owner_id)
      } else {
        const found = runningJob(store, runner, input.token)
        if (!found) throw notFound()
        if (!found.running) throw messageError(401, 'Job is not running')
        user = found.user
        // The job's user reads the project only within the job token scope (`Ci::JobToken::Scope`).
        const inScope = jobTokenReaches(store, ctx.instance.version, found.pipeline.project_id, p)
        if (!user || !inScope || !access.canReadProject(new Actor(user), p)) throw notFound()
        upstream = { pipelineId: found.pipeline.id, jobId: found.job.id }
      }
      // `Chain::Validate::Abilities`, as the trigger's owner (or the job's user), before the ref is checked.
      requireBuildsEnabled(ctx, p)
      if (!user || !mayCreatePipeline(ctx, new Actor(user), p))
        throw base('Insufficient permissions to create a new pipeline')
      if (!pipelines.mayWriteOriginRef(new Actor(user), p, input.ref)) throw refRefusal(input.ref)
      const ref = resolveRef(store, p.id, input.ref)
      if (ref === 'ambiguous') throw base('Ref is ambiguous')
      if (ref === undefined) throw base('Reference not found')
      const variables = Object.entries(input.variables ?? {}).map(([key, value]) => ({
        key,
        value: String(value),
        variable_type: 'env_var',
      }))
      variables.push({ key: 'TRIGGER_PAYLOAD', value: JSON.stringify(payload), variable_type: 'file' })
      const inputs = acceptedInputs(ctx.instance.version, input.inputs)
      return pipelines.create({
        project: p,
        ref: ref.name,
        sha: ref.sha,
        tag: ref.kind === 'tag',
        userId: user?.id ?? null,
        source: trigger ? 'trigger' : 'pipeline',
        ...(trigger ? { triggerId: trigger.id } : {}),
        ...(upstream ? { upstream } : {}),
        variables,
        ...(inputs ? { inputs } : {}),
      })
    },
  }
}
export type TriggerService = ReturnType<typeof triggerService>
