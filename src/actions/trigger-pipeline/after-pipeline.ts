/*
 * What trigger-pipeline does once the pipeline has ended: follow its downstream pipelines
 * ('follow-downstream'), bring the failed jobs' log tails home ('log-lines'), and download the
 * artifacts asked for ('download-artifacts'). Each step reads with the access token; none can
 * turn a passed pipeline into a failure except an artifacts archive that is refused or fails.
 */
import { collect, GitLabApiError, type GitLabClient } from '../../api/client.js'
import type { Job } from '../../schema/pipeline.js'
import { projectRef } from '../connection.js'
import { downloadArtifacts } from './artifacts.js'
import {
  followDownstream,
  nodeName,
  walk,
  type DownstreamNode,
  type DownstreamSource,
  type FailedJobLike,
} from './downstream.js'
import { secretsOf, type Settings } from './inputs.js'
import { TailCollector } from './log-tail.js'
import type { JobTail, Log, TriggerResult } from './result.js'

/** Most failed jobs whose logs are read (the rest are named in the failure only). */
const MAX_TAILS = 20

/** How the wait for downstream pipelines is timed: what is left of 'timeout', the same poll interval. */
export interface WaitTiming {
  remainingMs: () => number
  intervalMs: number
  now?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** The follower's reads through the client. */
function clientSource(reader: GitLabClient, timing: WaitTiming, signal?: AbortSignal): DownstreamSource {
  return {
    bridges: (projectId, pipelineId) =>
      collect(reader.jobs.bridges(projectId, pipelineId, {}, { signal }), { limit: 100 }),
    wait: async (projectId, pipelineId) =>
      (
        await reader.pipelines.waitForPipeline(projectId, pipelineId, {
          timeoutMs: Math.max(1000, timing.remainingMs()),
          intervalMs: timing.intervalMs,
          onManual: 'return',
          signal,
          now: timing.now,
          sleep: timing.sleep,
        })
      ).pipeline,
    failedJobs: (projectId, pipelineId) =>
      collect(reader.pipelines.jobs(projectId, pipelineId, { scope: ['failed'] }, { signal }), {
        limit: 100,
      }),
  }
}

/** Streams a job's trace (`GET /projects/:id/jobs/:job_id/trace`, `lib/api/ci/jobs.rb`) into its tail. */
async function readTail(
  reader: GitLabClient,
  projectId: number | string,
  job: FailedJobLike,
  where: string,
  s: Settings,
  signal?: AbortSignal,
): Promise<JobTail> {
  // The variables' values too: the summary, where these lines also go, is no log the runner masks.
  const secrets = secretsOf(s)
  try {
    const { body } = await reader.jobs.traceStream(projectId, job.id, { signal })
    const tail = new TailCollector({ lines: s.logLines, secrets })
    const decoder = new TextDecoder()
    for await (const chunk of body as AsyncIterable<Uint8Array | string>)
      tail.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
    tail.push(decoder.decode())
    const lines = tail.end()
    return { job, where, lines, tokens: [...tail.tokens] }
  } catch (err) {
    const why = err instanceof GitLabApiError ? `GitLab answered ${err.status}` : (err as Error).message
    return { job, where, lines: [], error: `The log could not be read: ${why}` }
  }
}

/** `job 'unit' (script_failure)` for failure messages. */
const jobWords = (jobs: readonly FailedJobLike[]) =>
  jobs.map((j) => `job '${j.name}' (${j.failure_reason ?? 'failed'})`).join(', ')

/**
 * Why the downstream pipelines failed the parent, one phrase each: those whose bridge failed and
 * may not (GitLab's rule, downstream.ts), with their failed jobs.
 */
export const downstreamFailures = (tree: readonly DownstreamNode[] | undefined): string[] =>
  [...walk(tree ?? [])]
    .filter((n) => n.counts)
    .map((n) =>
      n.pipeline
        ? `${nodeName(n)} failed${n.failedJobs.length ? `: ${jobWords(n.failedJobs)}` : ''}`
        : `bridge '${n.bridge.name}' failed (${n.bridge.failure_reason ?? 'no downstream pipeline'})`,
    )

/** The failure an artifacts archive that was refused or failed makes, when nothing else failed. */
export const artifactsFailure = (result: TriggerResult): string | undefined =>
  result.artifacts?.errors.length
    ? `Artifacts not downloaded: ${result.artifacts.errors.join(' ')}`
    : undefined

/**
 * Follows downstream pipelines, reads failed jobs' log tails and downloads artifacts, as the
 * settings ask, filling `result` (`downstream`, `tails`, `artifacts`). Only for a pipeline that
 * ended (not after a timeout or an abort).
 */
export async function afterPipeline(
  reader: GitLabClient,
  s: Settings,
  result: TriggerResult,
  log: Log,
  timing: WaitTiming,
  signal?: AbortSignal,
): Promise<void> {
  const p = result.pipeline
  const project = projectRef(s.project)
  if (s.followDownstream) {
    try {
      result.downstream = await followDownstream(clientSource(reader, timing, signal), p.project_id, p.id)
    } catch (err) {
      // The parent's outcome stands; only the tree is missing (a GitLab that lists no bridges, a 403).
      const why = err instanceof GitLabApiError ? `GitLab answered ${err.status}` : (err as Error).message
      log.warning(`Could not list the bridges of pipeline ${p.id} to follow its downstream pipelines: ${why}`)
      result.downstream = []
    }
    for (const node of walk(result.downstream)) {
      const status = node.pipeline ? node.pipeline.status : `no pipeline (bridge ${node.bridge.status})`
      log.info(`${nodeName(node)}: ${status}${node.note ? `; ${node.note}` : ''}`)
      if (node.pipeline?.status === 'failed' && !node.counts && !node.bridge.allow_failure)
        log.warning(
          `${nodeName(node)} failed, which does not fail pipeline ${p.id} (its bridge has no strategy: depend): ${node.pipeline.web_url}`,
        )
    }
  }
  if (signal?.aborted) return
  if (s.logLines > 0) {
    const failed: [number | string, FailedJobLike, string][] = [
      ...result.failedJobs.map((j: Job): [number | string, FailedJobLike, string] => [
        project,
        j,
        `pipeline ${p.id}`,
      ]),
      ...[...walk(result.downstream ?? [])].flatMap((n) =>
        n.failedJobs.map((j): [number | string, FailedJobLike, string] => [
          n.pipeline?.project_id ?? project,
          j,
          nodeName(n),
        ]),
      ),
    ]
    result.tails = []
    for (const [projectId, job, where] of failed.slice(0, MAX_TAILS)) {
      const tail = await readTail(reader, projectId, job, where, s, signal)
      // Masked in what the action writes already; registered so that nothing after it shows them either.
      for (const token of tail.tokens ?? []) log.setSecret?.(token)
      result.tails.push(tail)
      log.info(`Last lines of job '${job.name}' (${job.stage}) in ${where}: ${job.web_url}`)
      for (const line of tail.error ? [tail.error] : tail.lines) log.info(`  ${line}`)
    }
  }
  if (signal?.aborted) return
  if (s.downloadArtifacts?.length) {
    const pipelines = [
      { projectId: p.project_id, pipelineId: p.id },
      ...[...walk(result.downstream ?? [])].flatMap((n) =>
        n.pipeline ? [{ projectId: n.pipeline.project_id, pipelineId: n.pipeline.id }] : [],
      ),
    ]
    result.artifacts = await downloadArtifacts(reader, s, pipelines, log, signal)
  }
}
