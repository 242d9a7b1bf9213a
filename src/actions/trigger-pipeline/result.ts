import type { WaitResult } from '../../api/pipelines.js'
import type { Job, Pipeline, PipelineWithMetadata } from '../../schema/pipeline.js'

/** What happened, for outputs and the summary. `failure` set means the step fails with it. */
export interface TriggerResult {
  pipeline: Pipeline | PipelineWithMetadata
  waited: boolean
  ended?: WaitResult['ended'] | 'aborted'
  elapsedMs?: number
  failedJobs: Job[]
  failure?: string
  canceledOnAbort?: boolean
}
