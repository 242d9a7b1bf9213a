/*
 * The seam between an action and the runner: the ONLY module that imports
 * `@actions/core`. Actions take an `ActionIO`; the bundles pass `actionsIO()`, tests pass a
 * recording one (test/support/action-io.ts), and the CLI its own (src/cli/action-io.ts).
 * Anything that is not the runner's business (HTTP, GitLab) stays out of this interface.
 *
 * Only the toolkit's command and file-command modules are loaded: its entry
 * (`lib/core.js`) also loads its OIDC client (@actions/http-client and the whole of undici) and
 * @actions/exec, which every bundle would compile at start for nothing. The few lines of
 * `lib/core.js` these actions use are below, as the toolkit writes them, and so is the one use of
 * its summary module (whose `fs.promises` loads Node's promise file API and readline with it).
 */
import { access, appendFile, constants } from 'node:fs'
import { EOL } from 'node:os'
import { issueCommand } from '@actions/core/lib/command.js'
import { issueFileCommand, prepareKeyValueMessage } from '@actions/core/lib/file-command.js'
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
  const debug = (message: string) => issueCommand('debug', {}, message)
  return {
    // core.getInput (process.env, as the toolkit reads it)
    getInput: (name) => (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '').trim(),
    getEnv: (name) => env[name] || undefined,
    // core.setSecret
    setSecret: (value) => {
      if (value) issueCommand('add-mask', {}, value)
    },
    // core.setOutput: the GITHUB_OUTPUT file, or the old stdout command without one
    setOutput: (name, value) => {
      if (process.env.GITHUB_OUTPUT) return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value))
      process.stdout.write(EOL)
      issueCommand('set-output', { name }, value)
    },
    info: (message) => void process.stdout.write(oneLine(message) + EOL),
    warning: (message) => issueCommand('warning', {}, oneLine(message)),
    debug: (message) => debug(oneLine(message)),
    summary: async (html) => {
      if (!env.GITHUB_STEP_SUMMARY) return debug('no GITHUB_STEP_SUMMARY: job summary skipped')
      await appendSummary(env.GITHUB_STEP_SUMMARY, html + EOL)
    },
    // core.setFailed: exit code 1 and an error annotation
    fail: (error) => {
      process.exitCode = 1
      issueCommand('error', {}, oneLine(messageOf(error)))
    },
  }
}

/**
 * core.summary.addRaw(text).write(): the file must be readable and writable, then `text` is
 * appended (the toolkit's messages), on fs's callback API.
 */
function appendSummary(path: string, text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    access(path, constants.R_OK | constants.W_OK, (denied) => {
      if (denied)
        return reject(
          new Error(
            `Unable to access summary file: '${path}'. Check if the file has correct read/write permissions.`,
          ),
        )
      appendFile(path, text, { encoding: 'utf8' }, (err) => (err ? reject(err) : resolve()))
    }),
  )
}
