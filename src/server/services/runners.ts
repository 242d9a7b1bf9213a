import { randomBytes } from 'node:crypto'
import type { RunnerRegister, RunnerRegistration } from '../../schema/runner.js'
import { forbidden, messageError, unauthorized, validationError } from '../grape/gitlab-errors.js'
import { applies } from '../domain/releases.js'
import { errorFields, runnerErrors } from '../domain/runner-validation.js'
import type { RunnerScope } from '../store/runners.js'
import type { ProjectRow } from '../store/projects.js'
import type { Project } from '../../schema/index.js'
import { runnerManagement } from './runner-management.js'
import { newRunnerToken } from './runner-tokens.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { isoNow } from '../domain/clock.js'

/**
 * GitLab's `RunnersTokenPrefixable` prefix, then 20 characters as Devise's `friendly_token`.
 * (GitLab added the prefix during 14.x; older releases handed out the 20 characters alone. Not modelled.)
 */
export const newRegistrationToken = () => `GR1348941${randomBytes(15).toString('base64url')}`

/**
 * The bodies of the removed endpoints. `POST /runners` is GitLab's own answer to a disallowed
 * registration (`render_api_error_with_reason!(410, '410 Gone', 'runner registration disallowed')`).
 * GitLab's source never shipped a 410 for the reset endpoints (they answer 403 once registration
 * tokens are disallowed), so their body is our choice, in GitLab's `{"message": "<status>"}` form.
 */
export const goneRegistration = () => messageError(410, '410 Gone - runner registration disallowed')
export const goneReset = () => messageError(410, '410 Gone')

/**
 * Runner registration tokens and the deprecated registration-token flow of `POST /runners`
 * (GitLab's doc/api/runners.md; GitLab's `lib/api/ci/runners.rb` and `lib/api/ci/runner.rb`), and the
 * runner management API (`runner-management.ts`) over the same runners. `projectRecord` presents a
 * runner's projects.
 */
export function runnerService(ctx: ServiceContext, projectRecord: (project: ProjectRow) => Project) {
  const { access, store } = ctx
  const runners = store.runners
  const version = () => ctx.instance.version

  /** Authentication, then removal (from 18.0), then the caller's right; GitLab's order. */
  const resetFor = (actor: Actor, scopeOf: () => RunnerScope) => {
    if (!actor.user) throw unauthorized()
    if (applies(version(), 'resetRegistrationTokenGone')) throw goneReset()
    const scope = scopeOf()
    const token = newRegistrationToken()
    runners.setRegistrationToken(scope, token, isoNow(ctx.clock))
    return { token }
  }

  return {
    runners,
    ...runnerManagement(ctx, projectRecord),

    /** `POST /runners/reset_registration_token`: administrators only (403 `403 Forbidden` otherwise). */
    resetInstance: (actor: Actor) =>
      resetFor(actor, () => {
        if (!actor.admin) throw forbidden()
        return { kind: 'instance' }
      }),

    /** `POST /projects/:id/runners/reset_registration_token`: 404 when hidden, 403 below Maintainer. */
    resetProject: (actor: Actor, ref: string) =>
      resetFor(actor, () => {
        const project = access.project(actor, ref)
        if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
        return { kind: 'project', id: project.id }
      }),

    /** `POST /groups/:id/runners/reset_registration_token`: 404 when hidden, 403 below Owner. */
    resetGroup: (actor: Actor, ref: string) =>
      resetFor(actor, () => {
        const group = access.group(actor, ref)
        if (!actor.admin && access.groupLevel(actor, group) < Level.owner) throw forbidden()
        return { kind: 'group', id: group.id }
      }),

    /**
     * `POST /runners` with a registration token (`Ci::Runners::RegisterRunnerService`): a blank or
     * unknown token is 403 `invalid token supplied`; from 17.0 any other token is 410 (registration
     * tokens disallowed, as GitLab answers when `allow_runner_registration_token` is off).
     */
    register(params: RunnerRegister): RunnerRegistration {
      const token = params.token
      if (/^\s*$/.test(token)) throw forbidden('invalid token supplied')
      if (applies(version(), 'runnerRegistrationTokenGone')) throw goneRegistration()
      const owner = runners.byRegistrationToken(token)
      if (!owner) throw forbidden('invalid token supplied')
      // acts-as-taggable-on's TagList drops blank tags (`tag_list=,docker`).
      const tags = (params.tag_list ?? []).filter((tag) => tag !== '')
      const runUntagged = params.run_untagged ?? true
      const maintenanceNote = params.maintenance_note ?? params.maintainer_note ?? null
      const errors = runnerErrors({
        run_untagged: runUntagged,
        tags,
        note: maintenanceNote,
        timeout: params.maximum_timeout,
      })
      if (errors.length > 0) throw validationError(errorFields(errors))
      const plain = newRunnerToken()
      const id = runners.insertRunner({
        runner_type: owner.project_id ? 'project_type' : owner.namespace_id ? 'group_type' : 'instance_type',
        project_id: owner.project_id,
        namespace_id: owner.namespace_id,
        token: plain,
        description: params.description ?? null,
        name: params.info?.name ?? null,
        maintenance_note: maintenanceNote,
        active: params.paused !== undefined ? !params.paused : (params.active ?? true),
        locked: params.locked ?? false,
        run_untagged: runUntagged,
        access_level: params.access_level ?? 'not_protected',
        maximum_timeout: params.maximum_timeout ?? null,
        tag_list: tags,
        created_at: isoNow(ctx.clock),
      })
      return { id, token: plain, token_expires_at: null }
    },
  }
}
export type RunnerService = ReturnType<typeof runnerService>
