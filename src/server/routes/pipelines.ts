import type { ApiContext } from './context.js'

/** Routes for trigger tokens, triggering, pipelines and jobs (issue 5): not implemented yet. */
export function pipelineRoutes(_api: ApiContext): void {}
