import { collect, GitLabApiError, type GitLabClient, statusText } from '../../api/client.js'
import type { Pipeline } from '../../schema/pipeline.js'
import { actionClient, formatDuration, projectRef } from '../connection.js'
import type { ActionIO } from '../io.js'
import { setShapedOutput, urlOnHost } from '../server-text.js'
import { roleTooLowToCancel } from './cancel-role.js'
import { Outputs, readInputs, secretsOf, type Settings } from './inputs.js'
import { maskSecrets } from './log-tail.js'
import { checkInputsAccepted } from './pipeline-inputs.js'
import type { Log, TriggerResult } from './result.js'

export type { Log }
import { renderSummary } from './summary.js'

import { afterPipeline, artifactsFailure, downstreamFailures } from './after-pipeline.js'

/** Test seams: time and sleeping (defaults: the real ones). */
export interface Clock {
  now?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** The trigger's errors in words a person can act on (the token is never part of them). */
function triggerError(err: unknown, s: Settings): Error {
  if (!(err instanceof GitLabApiError)) return err instanceof Error ? err : new Error(String(err))
  const where = `project '${s.project}' on ${s.gitlabUrl}`
  if (err.status === 404)
    return new Error(
      `GitLab answered 404 to the trigger: ${where} does not exist, or 'token' is not a trigger token of this ` +
        'project (nor the CI/CD job token of a running job allowed to reach it). Check both.',
    )
  if (err.status === 401 || err.status === 403)
    return new Error(`GitLab refused the trigger token (${statusText(err)}) for ${where}`)
  if (err.status === 400)
    return new Error(
      `GitLab did not create the pipeline for ref '${s.ref}' of ${where}: ${err.gitlabMessage}`,
    )
  return new Error(`Triggering the pipeline failed: ${err.message}`)
}

/** The reading side's errors: the access token cannot see or read the pipeline. */
function readError(err: unknown, s: Settings): unknown {
  if (!(err instanceof GitLabApiError)) return err
  if (err.status === 401)
    return new Error(`GitLab refused 'access-token' (${statusText(err)}): it is wrong, expired or revoked`)
  if (err.status === 403 || err.status === 404)
    return new Error(
      `'access-token' cannot read pipelines of project '${s.project}' (${statusText(err)}): ` +
        'it needs read_api and at least Reporter on the project',
    )
  return err
}

const failedJobsOf = async (reader: GitLabClient, s: Settings, id: number) =>
  (
    await collect(reader.pipelines.jobs(projectRef(s.project), id, { scope: ['failed'] }), { limit: 100 })
  ).filter((j) => !j.allow_failure)

/** Why a finished pipeline counts as a failure, or undefined when it does not. */
function verdict(result: TriggerResult, s: Settings): string | undefined {
  const p = result.pipeline
  const url = p.web_url
  if (result.ended === 'manual')
    return s.onManual === 'fail'
      ? `Pipeline ${p.id} stopped at a manual job and waits for someone to run it ('on-manual: fail'): ${url}`
      : undefined
  if (p.status === 'failed') {
    const jobs = result.failedJobs.map((j) => `'${j.name}' (${j.failure_reason ?? 'failed'})`)
    const why = [
      ...(jobs.length ? [`job ${jobs.join(', job ')}`] : []),
      ...downstreamFailures(result.downstream),
    ]
    return `Pipeline ${p.id} failed${why.length ? `: ${why.join('; ')}` : ''}. ${url}`
  }
  if (p.status === 'canceled') return `Pipeline ${p.id} was canceled on GitLab: ${url}`
  if (p.status === 'skipped') return `Pipeline ${p.id} was skipped: every job was skipped. ${url}`
  return undefined
}

/**
 * How long GitLab's answer to a trigger is still awaited after the job is cancelled: the runner
 * kills the step 10 s after its SIGINT, and canceling the pipeline needs its id.
 */
const TRIGGER_GRACE_MS = 5000

/** A signal that aborts `ms` after `signal` does (with its reason); undefined without one. */
function graceAfter(signal: AbortSignal | undefined, ms: number): AbortSignal | undefined {
  if (!signal) return undefined
  const later = new AbortController()
  const fire = () => setTimeout(() => later.abort(signal.reason), ms).unref()
  if (signal.aborted) fire()
  else signal.addEventListener('abort', fire, { once: true })
  return later.signal
}

/**
 * Triggers the pipeline and, with `wait`, follows it to a final status, logging each change with
 * the elapsed time. When `signal` aborts while waiting, or while the trigger request is under way
 * and waiting was asked for, and `cancel-on-abort` holds, the GitLab pipeline is canceled before
 * returning. Throws for a refused trigger or unreadable pipeline.
 */
export async function triggerPipeline(s: Settings, log: Log, signal?: AbortSignal, clock: Clock = {}) {
  const project = projectRef(s.project)
  /** The job was cancelled while (or just before) waiting: cancel the pipeline if 'cancel-on-abort' holds. */
  const stopped = async (result: TriggerResult, reader: GitLabClient, aborted: AbortSignal) => {
    const { id, web_url } = result.pipeline
    result.ended = 'aborted'
    result.failure = `Stopped waiting for pipeline ${id}: ${String((aborted.reason as Error)?.message ?? aborted.reason)}`
    if (!s.cancelOnAbort) {
      log.info(`Pipeline ${id} keeps running on GitLab ('cancel-on-abort: false'): ${web_url}`)
      return result
    }
    try {
      result.pipeline = await reader.pipelines.cancel(project, id, { timeoutMs: 5000 })
      result.canceledOnAbort = true
      log.info(`Canceled GitLab pipeline ${id} ('cancel-on-abort'): ${web_url}`)
    } catch (cancelErr) {
      log.warning(`Could not cancel GitLab pipeline ${id}: ${(cancelErr as Error).message}`)
    }
    return result
  }
  /**
   * The wait failed after the trigger (GitLab unreachable for good, a token that stopped working, the
   * timeout): cancel the pipeline when 'cancel-on-abort' holds, so that nothing runs unwatched, and
   * say in the failure what was left behind.
   */
  const abandoned = async (result: TriggerResult, reader: GitLabClient, why: string) => {
    const { id, web_url } = result.pipeline
    if (!s.cancelOnAbort) {
      result.failure = `${why}; pipeline ${id} keeps running on GitLab ('cancel-on-abort: false'): ${web_url}`
      return result
    }
    try {
      result.pipeline = await reader.pipelines.cancel(project, id, { timeoutMs: 5000 })
      result.canceledOnAbort = true
      result.failure = `${why}; pipeline ${id} was canceled ('cancel-on-abort'): ${web_url}`
    } catch (cancelErr) {
      result.failure = `${why}; pipeline ${id} could not be canceled (${(cancelErr as Error).message}) and may still be running: ${web_url}`
    }
    log.info(result.failure)
    return result
  }
  const trigger = actionClient(s.gitlabUrl, undefined, 'trigger-pipeline')
  const reader = s.accessToken ? actionClient(s.gitlabUrl, s.accessToken, 'trigger-pipeline') : undefined
  try {
    // Waiting and cancelling need 'access-token': it is tried (by reading the project's pipelines)
    // before anything is triggered, so that a bad one leaves no pipeline running unwatched.
    if (reader && s.wait) {
      let role: string | undefined
      try {
        for await (const _ of reader.pipelines.list(project, {}, { signal })) break
        if (s.cancelOnAbort) role = await roleTooLowToCancel(reader, project, signal)
      } catch (err) {
        // GitLab's answer is about the token; a network error's message says what to check instead.
        const why = (readError(err, s) as Error).message
        throw new Error(
          err instanceof GitLabApiError
            ? `Nothing was triggered: ${why}. Waiting for the pipeline and cancelling it need 'access-token'`
            : `Nothing was triggered: ${why}`,
        )
      }
      if (role)
        throw new Error(
          `Nothing was triggered: 'access-token' is ${role} on project '${s.project}': it can follow the pipeline ` +
            "but not cancel it, which 'cancel-on-abort' needs when the job is cancelled (Developer or higher). " +
            "Give the token's user Developer, or set 'cancel-on-abort: false'",
        )
    }
    if (s.inputs) await checkInputsAccepted(reader ?? trigger, log, signal)
    const names = Object.keys(s.variables ?? {})
    const inputNames = Object.keys(s.inputs ?? {})
    log.info(
      `Triggering a pipeline for '${s.ref}' of ${s.project} on ${s.gitlabUrl}` +
        (names.length ? ` with variables ${names.join(', ')}` : '') +
        (inputNames.length ? ` with inputs ${inputNames.join(', ')}` : ''),
    )
    let pipeline: Pipeline
    try {
      // A trigger on its way cannot be called back: on an abort, GitLab's answer is still awaited a
      // little, so that the pipeline it created is canceled below rather than left running.
      pipeline = await trigger.pipelines.trigger(
        project,
        { ref: s.ref, token: s.token, variables: s.variables, inputs: s.inputs },
        { signal: graceAfter(signal, TRIGGER_GRACE_MS) },
      )
    } catch (err) {
      throw triggerError(err, s)
    }
    log.info(
      `Pipeline ${pipeline.id} (#${pipeline.iid}) created for ${pipeline.sha.slice(0, 8)}: ${pipeline.web_url}`,
    )
    const result: TriggerResult = { pipeline, waited: false, failedJobs: [] }
    if (!s.wait || !reader) return result
    if (signal?.aborted) return await stopped(result, reader, signal)

    result.waited = true
    const now = clock.now ?? Date.now
    let lastLog = now()
    const stamp = (ms: number) => `[${formatDuration(ms)}]`
    try {
      const waited = await reader.pipelines.waitForPipeline(project, pipeline.id, {
        timeoutMs: s.timeout,
        intervalMs: s.pollInterval,
        onManual: s.onManual === 'wait' ? 'wait' : 'return',
        signal,
        now,
        sleep: clock.sleep,
        onChange: (p, ms) => {
          lastLog = now()
          log.info(`${stamp(ms)} pipeline ${p.id}: ${p.status}`)
        },
        onPoll: (p, ms) => {
          if (now() - lastLog < 60_000) return
          lastLog = now()
          log.info(`${stamp(ms)} pipeline ${p.id}: still ${p.status}`)
        },
        onTransientError: (err, ms, kind) =>
          log.warning(`${stamp(ms)} reading the pipeline failed (${kind}); still waiting: ${err.message}`),
      })
      Object.assign(result, { pipeline: waited.pipeline, ended: waited.ended, elapsedMs: waited.elapsedMs })
    } catch (err) {
      if (signal?.aborted) return await stopped(result, reader, signal)
      result.ended = 'aborted'
      return await abandoned(
        result,
        reader,
        `Waiting for pipeline ${pipeline.id} failed: ${(readError(err, s) as Error).message}`,
      )
    }
    if (result.ended === 'timeout')
      return await abandoned(
        result,
        reader,
        `Pipeline ${pipeline.id} was still ${result.pipeline.status} after ${formatDuration(s.timeout)} ('timeout')`,
      )
    if (result.pipeline.status === 'failed') result.failedJobs = await failedJobsOf(reader, s, pipeline.id)
    const deadline = now() - (result.elapsedMs ?? 0) + s.timeout
    await afterPipeline(
      reader,
      s,
      result,
      log,
      {
        remainingMs: () => deadline - now(),
        intervalMs: s.pollInterval,
        now,
        sleep: clock.sleep,
      },
      signal,
    )
    // A job cancelled after the pipeline ended stops the reads that follow it; the pipeline is left alone.
    const cancelledAfter = signal?.aborted
      ? `Stopped after pipeline ${pipeline.id} ended ${result.pipeline.status}: ${String((signal.reason as Error)?.message ?? signal.reason)}`
      : undefined
    result.failure = verdict(result, s) ?? artifactsFailure(result) ?? cancelledAfter
    log.info(
      `Pipeline ${pipeline.id} ended ${result.pipeline.status} after ${formatDuration(result.elapsedMs ?? 0)}`,
    )
    return result
  } finally {
    await Promise.all([trigger.close(), reader?.close()])
  }
}

/** `log` with each line masked (GitLab's error messages may carry what it was sent). */
const maskedLog = (log: Log, secrets: readonly string[]): Log => ({
  info: (m) => log.info(maskSecrets(m, secrets)),
  warning: (m) => log.warning(maskSecrets(m, secrets)),
  debug: (m) => log.debug(maskSecrets(m, secrets)),
  ...(log.setSecret ? { setSecret: log.setSecret.bind(log) } : {}),
})

/**
 * The whole action: inputs -> trigger (and wait) -> outputs -> summary -> verdict. What it says of
 * GitLab's answers (log lines, the failure, an error thrown) is masked as the log tails are
 * (`secretsOf`): the job summary is no log the runner masks.
 */
export async function run(io: ActionIO, signal?: AbortSignal, clock: Clock = {}): Promise<void> {
  const settings = await readInputs(io)
  const secrets = secretsOf(settings)
  const result = await triggerPipeline(settings, maskedLog(io, secrets), signal, clock).catch(
    (err: unknown) => {
      throw err instanceof Error ? Object.assign(err, { message: maskSecrets(err.message, secrets) }) : err
    },
  )
  if (result.failure !== undefined) result.failure = maskSecrets(result.failure, secrets)
  const p = result.pipeline
  io.setOutput(Outputs.PipelineId, String(p.id))
  io.setOutput(Outputs.PipelineIid, String(p.iid))
  const webUrl = urlOnHost(p.web_url, settings.gitlabUrl)
  if (webUrl) io.setOutput(Outputs.WebUrl, webUrl)
  else
    io.warning(
      `Output 'web-url' not set: GitLab's web_url is not a plain http(s) address on ${new URL(settings.gitlabUrl).host}`,
    )
  setShapedOutput(io, Outputs.Status, p.status, 'status', 'word')
  setShapedOutput(io, Outputs.Sha, p.sha, 'sha', 'sha')
  if (result.artifacts) io.setOutput(Outputs.ArtifactsPath, result.artifacts.path)
  await io.summary(renderSummary(settings, result))
  if (result.failure) io.fail(result.failure)
}
