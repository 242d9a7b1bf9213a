import type { WaitResult } from '../../api/pipelines.js'
import type { Job, Pipeline, PipelineWithMetadata } from '../../schema/pipeline.js'
import type { ActionIO } from '../io.js'
import type { DownstreamNode, FailedJobLike } from './downstream.js'

/** Where the action logs; `setSecret` registers what a job's log showed that looks like a token. */
export type Log = Pick<ActionIO, 'info' | 'warning' | 'debug'> & Partial<Pick<ActionIO, 'setSecret'>>

/** The last lines of a failed job's log, and where the job ran. */
export interface JobTail {
  job: FailedJobLike
  /** The pipeline it ran in, in words: `pipeline 12`, `child pipeline 13 (via 'tests')`. */
  where: string
  lines: string[]
  /** GitLab-token-shaped strings the lines held before masking. */
  tokens?: string[]
  /** Why the log could not be read (then `lines` is empty). */
  error?: string
}

/** What `download-artifacts` brought. */
export interface ArtifactsResult {
  /** The folder, absolute. */
  path: string
  jobs: { name: string; jobId: number; folder: string; files: number; bytes: number }[]
  /** Lines that found nothing (no such job, no artifacts), said as warnings. */
  missing: string[]
  /** An archive refused (unsafe, too large) or a download that failed: fails the step. */
  errors: string[]
}

/** What happened, for outputs and the summary. `failure` set means the step fails with it. */
export interface TriggerResult {
  pipeline: Pipeline | PipelineWithMetadata
  waited: boolean
  ended?: WaitResult['ended'] | 'aborted'
  elapsedMs?: number
  failedJobs: Job[]
  failure?: string
  canceledOnAbort?: boolean
  /** The pipelines its bridges started, with 'follow-downstream'. */
  downstream?: DownstreamNode[]
  /** Log tails of the failed jobs, the triggered pipeline's first. */
  tails?: JobTail[]
  artifacts?: ArtifactsResult
}
