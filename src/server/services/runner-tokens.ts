import { randomBytes } from 'node:crypto'
import type { RunnerRegistration, RunnerTokenReset } from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { forbidden } from '../grape/gitlab-errors.js'
import type { RunnerRow } from '../store/runners.js'
import type { ServiceContext } from './context.js'

/** `Ci::Runner::CREATED_RUNNER_TOKEN_PREFIX`: the tokens of runners made with `POST /user/runners`. */
export const CREATED_RUNNER_TOKEN_PREFIX = 'glrt-'
/** A created runner's token: the prefix, then 20 characters as Devise's `friendly_token`. */
export const newCreatedRunnerToken = () =>
  `${CREATED_RUNNER_TOKEN_PREFIX}${randomBytes(15).toString('base64url')}`
/** A runner authentication token of the registration-token flow: 20 characters, no `glrt-` prefix. */
export const newRunnerToken = () => randomBytes(15).toString('base64url')

/**
 * A runner's authentication tokens (kept as digests): the calls a runner makes with its own token
 * (lib/api/ci/runner.rb `authenticate_runner!`), and a token replaced.
 */
export function runnerTokens(ctx: ServiceContext) {
  const runners = ctx.store.runners

  /**
   * `authenticate_runner!`: the runner a token is, 403 for none. Grape keeps a JSON `null` as nil
   * (GitLab's verify then answers 500; no runner has it, so 403 here).
   */
  const runnerOf = (token: string | null): RunnerRow => {
    const r = typeof token === 'string' ? runners.byToken(token) : undefined
    if (!r) throw forbidden()
    return r
  }

  /** A new authentication token of the runner's kind (`glrt-` for created runners); the old one stops working. */
  const replace = (r: RunnerRow): RunnerTokenReset => {
    const token = r.registration_type === 'authenticated_user' ? newCreatedRunnerToken() : newRunnerToken()
    runners.setToken(r.id, token)
    return { token, token_expires_at: null }
  }

  return {
    replace,
    /**
     * `POST /runners/verify` with a runner's token: 403 for an unknown one. A registration-flow token
     * counts as contact (`heartbeat`); a `glrt-` one does not, until the runner polls for jobs.
     */
    verify(token: string): RunnerRegistration {
      const r = runnerOf(token)
      if (!token.startsWith(CREATED_RUNNER_TOKEN_PREFIX)) runners.setContactedAt(r.id, isoNow(ctx.clock))
      return { id: r.id, token, token_expires_at: null }
    },

    /**
     * `POST /runners/reset_authentication_token` with a runner's token (403 for an unknown one): the call
     * is its contact (`authenticate_runner!`'s heartbeat), then the token is replaced.
     */
    resetOwnToken(token: string): RunnerTokenReset {
      const r = runnerOf(token)
      runners.setContactedAt(r.id, isoNow(ctx.clock))
      return replace(r)
    },

    /** `DELETE /runners` with a runner's token (`UnregisterRunnerService`): 403 for an unknown one. */
    unregister(token: string): void {
      const r = runnerOf(token)
      runners.deleteRunner(r.id)
    },
  }
}
