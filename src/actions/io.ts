/*
 * The seam between an action and the runner: the ONLY module that imports
 * `@actions/core`. Actions take an `ActionIO`; the bundles pass `actionsIO()`, tests pass a
 * recording one (test/support/action-io.ts), and the CLI its own (src/cli/action-io.ts).
 * Anything that is not the runner's business (HTTP, GitLab) stays out of this interface.
 */
import * as core from '@actions/core'
import { oneLine } from './server-text.js'

/** What an action may do to the runner. Every method is synchronous except `summary`. */
export interface ActionIO {
  /** The input's raw value, trimmed; `''` when the runner did not set it (never throws). */
  getInput(name: string): string
  /** An environment variable, `undefined` when unset or empty (`CI_SERVER_URL` fallbacks and the like). */
  getEnv(name: string): string | undefined
  /** Masks `value` in every later log line (the runner's `::add-mask::`). Call before logging anything. */
  setSecret(value: string): void
  /** Sets a step output (the runner's `GITHUB_OUTPUT` file). */
  setOutput(name: string, value: string): void
  info(message: string): void
  warning(message: string): void
  debug(message: string): void
  /** Appends HTML (already escaped, see summary.ts) to the job summary (`GITHUB_STEP_SUMMARY`). */
  summary(html: string): Promise<void>
  /** Marks the step failed with an error annotation; sets the exit code, does not exit. */
  fail(error: unknown): void
}

/** The message of anything thrown, as one line a person can act on. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * The runner's IO through the Actions toolkit. Every log line goes through `oneLine`: messages
 * carry server text (paths, titles, errors), and no line of it may start a workflow command.
 * `summary` is skipped with a debug line when the
 * runner gave no summary file (local runs), instead of failing the step.
 */
export function actionsIO(env: NodeJS.ProcessEnv = process.env): ActionIO {
  return {
    getInput: (name) => core.getInput(name),
    getEnv: (name) => env[name] || undefined,
    setSecret: (value) => {
      if (value) core.setSecret(value)
    },
    setOutput: (name, value) => core.setOutput(name, value),
    info: (message) => core.info(oneLine(message)),
    warning: (message) => core.warning(oneLine(message)),
    debug: (message) => core.debug(oneLine(message)),
    summary: async (html) => {
      if (!env.GITHUB_STEP_SUMMARY) return core.debug('no GITHUB_STEP_SUMMARY: job summary skipped')
      await core.summary.addRaw(html, true).write()
    },
    fail: (error) => core.setFailed(oneLine(messageOf(error))),
  }
}
