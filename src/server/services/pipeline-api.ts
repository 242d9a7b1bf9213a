import type { PipelineCreate } from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import { forbidden, messageError, unauthorized } from '../grape/gitlab-errors.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import type { NewPipelineInput } from './pipeline-writes.js'
import { resolveRef } from './refs.js'
import { ciAbilities } from './ci-access.js'
import { featureLevel } from './project-settings.js'

const base = (message: string) => messageError(400, { base: [message] })

/**
 * `Chain::Validate::Abilities`' first refusal, before the user's rights: `project.builds_enabled?` (the
 * CI/CD feature not disabled), 400 `Pipelines are disabled!`.
 */
export function requireBuildsEnabled(ctx: ServiceContext, p: ProjectRow): void {
  if (featureLevel(ctx.store, p.id, 'builds') === 'disabled') throw base('Pipelines are disabled!')
}

/**
 * `create_pipeline`: an active Developer of a project not archived, with the pipeline abilities the
 * repository and CI/CD features leave (services/ci-access.ts).
 */
export function mayCreatePipeline(ctx: ServiceContext, actor: Actor, p: ProjectRow): boolean {
  return (
    actor.user?.state === 'active' &&
    writable(p) &&
    ctx.access.atLeast(actor, p, Level.developer) &&
    ciAbilities(ctx.store, ctx.access, actor, p).pipelines
  )
}

/** `Chain::Validate::Abilities`' refusal of a branch or tag the user may not write (`ref` as asked). */
export const refRefusal = (ref: string) =>
  base(
    `You do not have sufficient permission to run a pipeline on '${ref}'. Please select a different branch or contact your administrator for assistance.`,
  )

/** The `inputs` a request may pass: from GitLab 17.11 (RELEASE_RULES.pipelineInputs); dropped before. */
export const acceptedInputs = (version: string, inputs: Record<string, unknown> | undefined) =>
  inputs !== undefined && applies(version, 'pipelineInputs') ? inputs : undefined

/**
 * `POST /projects/:id/pipeline` (`lib/api/ci/pipelines.rb`) up to the pipeline's creation: `create_pipeline`
 * (Developer, an active user, a project not archived, the pipeline abilities left by the repository and CI/CD
 * features, services/ci-access.ts: 403 otherwise), `Pipelines are disabled!` (400) with the CI/CD feature
 * disabled, then the ref as
 * the caller's right to write the ref (`allowed_to_write_ref?`, 400, an ambiguous ref's branch too), then
 * `Chain::Validate::Repository` checks it (`Reference not found`, `Ref is ambiguous`). Source `api`.
 */
export function apiPipelineInput(
  ctx: ServiceContext,
  actor: Actor,
  p: ProjectRow,
  params: PipelineCreate,
  mayWriteRef: (originRef: string) => boolean,
): NewPipelineInput {
  if (!actor.user) throw unauthorized()
  if (!mayCreatePipeline(ctx, actor, p)) throw forbidden()
  requireBuildsEnabled(ctx, p)
  if (!mayWriteRef(params.ref)) throw refRefusal(params.ref)
  const ref = resolveRef(ctx.store, p.id, params.ref)
  if (ref === 'ambiguous') throw base('Ref is ambiguous')
  if (ref === undefined) throw base('Reference not found')
  const inputs = acceptedInputs(ctx.instance.version, params.inputs)
  return {
    project: p,
    ref: ref.name,
    sha: ref.sha,
    tag: ref.kind === 'tag',
    userId: actor.user.id,
    source: 'api',
    variables: (params.variables ?? [])
      .filter((v) => v.key !== undefined)
      .map((v) => ({ key: v.key ?? '', value: v.value ?? '', variable_type: v.variable_type ?? 'env_var' })),
    ...(inputs ? { inputs } : {}),
  }
}
