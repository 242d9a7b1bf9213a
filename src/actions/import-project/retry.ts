import { GitLabApiError, statusText, type GitLabClient } from '../../api/client.js'
import { waitOutRateLimits } from '../../api/poll.js'
import { releaseAtLeast } from '../../api/releases.js'
import type { ProjectImportStatus } from '../../schema/project-import.js'
import { IMPORTABLE_RELATIONS, type ImportableRelation } from '../../schema/relation-import.js'
import { formatDuration } from '../connection.js'
import type { ActionIO } from '../io.js'

/** What became of one failed relation kind. */
export interface RelationRetry {
  relation: string
  /** `recovered`: its relation import finished; `failed`: it ended failed or timed out; `skipped`: not tried. */
  outcome: 'recovered' | 'failed' | 'skipped'
  /** Why, in a few words (the tracker's status, GitLab's refusal, or why it was not tried). */
  detail: string
  elapsedMs: number
}

export interface RetryReport {
  /** Set when no relation could be retried at all (the release, the source), saying why. */
  unavailable?: string
  retries: RelationRetry[]
}

/** GitLab's single relation import: 16.11 behind the flag `single_relation_import`, on for everyone from 17.1. */
const SINCE = '16.11'
const GA = '17.1'

/**
 * `retry-failed-relations`: each relation kind that failed in `record`'s import re-imported, one after
 * another (GitLab runs one relation import per project at a time), from the same `archive` with
 * `POST /projects/import-relation`, and waited for until `deadline`. GitLab skips the items the project
 * holds, so only what failed is added. Kinds GitLab cannot re-import (labels, members...) are `skipped`;
 * before 16.11, or with the 16.11-17.0 flag off (a 404), nothing is tried and `unavailable` says so.
 */
export async function retryFailedRelations(
  gitlab: GitLabClient,
  record: ProjectImportStatus,
  archive: string | undefined,
  opts: {
    deadline: number
    pollInterval: number
    signal?: AbortSignal
    log: Pick<ActionIO, 'info' | 'warning'>
    now: () => number
    sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  },
): Promise<RetryReport> {
  const { log, now } = opts
  const kinds = [...new Set(record.failed_relations.map((f) => f.relation_name))]
  const importable = (k: string): k is ImportableRelation =>
    (IMPORTABLE_RELATIONS as readonly string[]).includes(k)
  const skipped = (relation: string, detail: string): RelationRetry => ({
    relation,
    outcome: 'skipped',
    detail,
    elapsedMs: 0,
  })
  const none = (why: string): RetryReport => {
    log.warning(`retry-failed-relations: ${why}`)
    return { unavailable: why, retries: kinds.map((k) => skipped(k, 'not retried')) }
  }
  if (archive === undefined)
    return none(
      "the relations can only be re-imported from a local 'archive' (GitLab needs the file uploaded)",
    )
  const version = (await gitlab.version({ signal: opts.signal }).catch(() => undefined))?.version
  if (version !== undefined && !releaseAtLeast(version, SINCE))
    return none(
      `GitLab ${version} has no single relation import (POST /projects/import-relation is GitLab ${SINCE}+)`,
    )

  const retries: RelationRetry[] = []
  for (const relation of kinds) {
    if (!importable(relation)) {
      retries.push(skipped(relation, `GitLab re-imports only ${IMPORTABLE_RELATIONS.join(', ')}`))
      continue
    }
    const start = now()
    log.info(`Re-importing the ${relation} of ${record.path_with_namespace} from ${archive}`)
    let started
    try {
      started = await waitOutRateLimits(
        () =>
          gitlab.projectImports.importRelation(
            archive,
            { path: record.path_with_namespace, relation },
            { signal: opts.signal, timeoutMs: 0 },
          ),
        { deadline: opts.deadline, signal: opts.signal, sleep: opts.sleep, now },
      )
    } catch (err) {
      if (!(err instanceof GitLabApiError)) throw err
      if (err.status === 404 && version !== undefined && !releaseAtLeast(version, GA))
        return {
          unavailable: `GitLab ${version} keeps the single relation import behind the feature flag single_relation_import, which is off (404)`,
          retries: [...retries, ...kinds.slice(retries.length).map((k) => skipped(k, 'not retried'))],
        }
      retries.push({
        relation,
        outcome: 'failed',
        detail: `refused: ${statusText(err)}`,
        elapsedMs: now() - start,
      })
      continue
    }
    const waited = await gitlab.projectImports.waitForRelationImport(started, {
      timeoutMs: Math.max(0, opts.deadline - now()),
      intervalMs: opts.pollInterval,
      signal: opts.signal,
      sleep: opts.sleep,
      now,
    })
    const status = waited.tracker.status
    const recovered = waited.ended === 'done' && status === 'finished'
    const detail = waited.ended === 'timeout' ? `still ${status} at 'timeout'` : status
    log.info(`[${formatDuration(now() - start)}] ${relation}: relation import ${detail}`)
    retries.push({ relation, outcome: recovered ? 'recovered' : 'failed', detail, elapsedMs: now() - start })
  }
  return { retries }
}
