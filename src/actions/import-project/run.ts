import { GitLabApiError, statusText } from '../../api/client.js'
import type { ImportTarget } from '../../api/project-imports.js'
import { waitOutRateLimits } from '../../api/poll.js'
import { defaultSleep } from '../../api/retry.js'
import type { ProjectImportStatus } from '../../schema/project-import.js'
import { actionClient, formatDuration } from '../connection.js'
import type { ActionIO } from '../io.js'
import { oneLine, setShapedOutput } from '../server-text.js'
import { Outputs, readInputs, type Settings } from './inputs.js'
import type { ImportResult } from './result.js'
import { renderSummary } from './summary.js'

export type Log = Pick<ActionIO, 'info' | 'warning' | 'debug'>
export interface Clock {
  now?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

function explain(err: unknown, s: Settings): Error {
  if (!(err instanceof GitLabApiError)) return err instanceof Error ? err : new Error(String(err))
  const into = s.namespace ? `namespace '${s.namespace}'` : "the token user's namespace"
  if (err.status === 401) return new Error(`GitLab refused the token (${statusText(err)})`)
  if (err.status === 403 || err.status === 404)
    return new Error(
      `GitLab refused the import into ${into} (${statusText(err)}): the token needs Maintainer on the group`,
    )
  if (err.status === 429)
    return new Error(
      `GitLab's import limit (429) would still hold at 'timeout': raise 'timeout' or import later`,
    )
  if (err.status === 400 || err.status === 422)
    return new Error(`GitLab refused the import of '${s.path}' (${err.status}): ${err.gitlabMessage}`)
  return new Error(`The import request failed: ${err.message}`)
}

/** Starts the import from the one source given, waits (with `wait`) for a final status. */
export async function importProject(
  s: Settings,
  log: Log,
  signal?: AbortSignal,
  clock: Clock = {},
): Promise<ImportResult> {
  const now = clock.now ?? Date.now
  const sleep = clock.sleep ?? defaultSleep
  const gitlab = actionClient(s.gitlabUrl, s.token, 'import-project', { retry: { sleep } })
  const start = now()
  const target: ImportTarget = {
    path: s.path,
    ...(s.name !== undefined ? { name: s.name } : {}),
    ...(s.namespace !== undefined ? { namespace: s.namespace } : {}),
    overwrite: s.overwrite,
    ...(s.overrideParams ? { override_params: s.overrideParams } : {}),
  }
  try {
    // GitLab's import limit (6 a minute per user by default) refuses before reading the archive: a
    // 429 is waited out until 'timeout' and the call made again (an upload opens the file again).
    const limit = {
      deadline: start + s.timeout,
      signal,
      sleep,
      now,
      onWait: (ms: number) => log.info(`waiting ${Math.ceil(ms / 1000)} s for GitLab's import limit (429)`),
    }
    let record: ProjectImportStatus
    try {
      if (s.archive !== undefined) {
        log.info(`Uploading ${s.archive} to ${s.gitlabUrl} as '${s.path}'`)
        const archive = s.archive
        record = await waitOutRateLimits(
          () => gitlab.projectImports.fromFile(archive, target, { signal, timeoutMs: 0 }),
          limit,
        )
      } else if (s.url !== undefined) {
        log.info(`Asking ${s.gitlabUrl} to import '${s.path}' from a URL`)
        const url = s.url
        record = await waitOutRateLimits(() => gitlab.projectImports.fromUrl(url, target, { signal }), limit)
      } else {
        log.info(`Asking ${s.gitlabUrl} to import '${s.path}' from s3://${s.s3Bucket}/${s.s3Key}`)
        const source = {
          region: s.s3Region as string,
          bucket_name: s.s3Bucket as string,
          file_key: s.s3Key as string,
          access_key_id: s.s3AccessKeyId as string,
          secret_access_key: s.s3SecretAccessKey as string,
        }
        record = await waitOutRateLimits(
          () => gitlab.projectImports.fromS3(source, target, { signal }),
          limit,
        )
      }
    } catch (err) {
      throw explain(err, s)
    }
    log.info(`Project ${record.path_with_namespace} (id ${record.id}): import ${record.import_status}`)
    if (!s.wait) return { record, waited: false, elapsedMs: now() - start }

    const waited = await gitlab.projectImports.waitForImport(record, {
      timeoutMs: Math.max(0, s.timeout - (now() - start)),
      intervalMs: s.pollInterval,
      signal,
      sleep,
      now,
      onChange: (r) => log.info(`[${formatDuration(now() - start)}] import ${r.import_status}`),
      onTransientError: (err, _ms, kind) =>
        log.warning(
          `[${formatDuration(now() - start)}] reading the import status failed (${kind}); still waiting: ${err.message}`,
        ),
    })
    record = waited.record
    if (waited.ended === 'timeout') return { record, waited: true, elapsedMs: now() - start, timedOut: true }
    return { record, waited: true, elapsedMs: now() - start }
  } finally {
    await gitlab.close()
  }
}

/**
 * After a finished import: `retry-failed-relations` re-imports the failed relation kinds, then `verify`
 * compares the archive with the project. Both need the archive on disk (the `archive` input). The time
 * left of `timeout` bounds the retries.
 */
export async function afterImport(
  s: Settings,
  r: ImportResult,
  log: Log,
  signal?: AbortSignal,
  clock: Clock = {},
): Promise<ImportResult> {
  const p = r.record
  if (!r.waited || r.timedOut || p.import_status !== 'finished') return r
  const wantsRetry = s.retryFailedRelations && p.failed_relations.length > 0
  if (!wantsRetry && !s.verify) return r
  const now = clock.now ?? Date.now
  const sleep = clock.sleep ?? defaultSleep
  const gitlab = actionClient(s.gitlabUrl, s.token, 'import-project', { retry: { sleep } })
  const out: ImportResult = { ...r }
  try {
    if (wantsRetry) {
      const { retryFailedRelations } = await import('./retry.js')
      out.retry = await retryFailedRelations(gitlab, p, s.archive, {
        deadline: now() + Math.max(0, s.timeout - r.elapsedMs),
        pollInterval: s.pollInterval,
        signal,
        log,
        now,
        sleep,
      })
    }
    if (s.verify) {
      if (s.archive === undefined) {
        out.verify = {
          error: "verify reads the archive again: it needs the 'archive' input, not url or s3-*",
        }
        log.warning(out.verify.error)
      } else {
        log.info(`Comparing ${s.archive} with ${p.path_with_namespace}`)
        const { verifyImport } = await import('./verify.js')
        try {
          out.verify = await verifyImport(gitlab, s.archive, p.id, signal)
        } catch (err) {
          out.verify = { error: `the comparison failed: ${(err as Error).message}` }
          log.warning(out.verify.error)
        }
      }
    }
  } finally {
    await gitlab.close()
  }
  return out
}

/** The failed relation kinds that no retry recovered. */
export function stillFailed(r: ImportResult): string[] {
  const kinds = [...new Set(r.record.failed_relations.map((f) => f.relation_name))]
  const recovered = new Set(r.retry?.retries.filter((x) => x.outcome === 'recovered').map((x) => x.relation))
  return kinds.filter((k) => !recovered.has(k))
}

/** Why the step fails, or undefined. */
export function verdict(s: Settings, r: ImportResult): string | undefined {
  const p = r.record
  if (r.timedOut)
    return `The import of ${p.path_with_namespace} was still ${p.import_status} after ${formatDuration(s.timeout)} ('timeout'); GitLab may still finish it: check before importing again`
  if (p.import_status === 'failed')
    return `The import of ${p.path_with_namespace} failed: ${p.import_error ?? 'no error given'}`
  if (!s.failOnFailedRelations) return undefined
  const left = stillFailed(r)
  if (p.failed_relations.length && !r.retry)
    return `The import of ${p.path_with_namespace} finished, but ${p.failed_relations.length} relation(s) failed ('fail-on-failed-relations')`
  if (left.length)
    return `The import of ${p.path_with_namespace} finished, but ${left.join(', ')} failed and were not recovered ('fail-on-failed-relations')`
  if (r.verify && 'error' in r.verify) return `The import could not be verified: ${r.verify.error}`
  if (r.verify?.differences)
    return `${p.path_with_namespace} differs from the archive in ${r.verify.differences} of ${r.verify.rows.length} kinds ('verify', 'fail-on-failed-relations')`
  return undefined
}

/** The whole action: inputs -> import (and wait) -> outputs -> summary -> verdict. */
export async function run(io: ActionIO, signal?: AbortSignal, clock: Clock = {}): Promise<void> {
  const s = await readInputs(io)
  const r = await afterImport(s, await importProject(s, io, signal, clock), io, signal, clock)
  const p = r.record
  io.setOutput(Outputs.ProjectId, String(p.id))
  setShapedOutput(io, Outputs.ProjectPath, p.path_with_namespace, 'path_with_namespace', 'path')
  setShapedOutput(io, Outputs.ImportStatus, p.import_status, 'import_status', 'word')
  io.setOutput(Outputs.ImportError, oneLine(p.import_error))
  io.setOutput(Outputs.FailedRelations, String(p.failed_relations.length))
  if (p.failed_relations.length)
    io.warning(
      `${p.failed_relations.length} relation(s) failed to import: ${[...new Set(p.failed_relations.map((f) => f.relation_name))].join(', ')}`,
    )
  if (r.retry) {
    io.setOutput(
      Outputs.RecoveredRelations,
      r.retry.retries
        .filter((x) => x.outcome === 'recovered')
        .map((x) => x.relation)
        .join(','),
    )
    io.setOutput(Outputs.StillFailedRelations, stillFailed(r).join(','))
  }
  if (r.verify && !('error' in r.verify)) {
    io.setOutput(Outputs.VerifyResult, r.verify.differences ? 'differ' : 'match')
    io.setOutput(Outputs.VerifyDifferences, String(r.verify.differences))
  }
  const failure = verdict(s, r)
  await io.summary(renderSummary(s, r, failure))
  if (failure) io.fail(failure)
}
