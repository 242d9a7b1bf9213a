import type { IssueDeps } from '../services/issue-lookup.js'
import { aliasRoutes } from './aliases.js'
import type { ApiContext } from './context.js'
import { emulatorRoutes, type EmulatorControls } from './emulator.js'
import { groupListRoutes } from './group-list.js'
import { groupProjectRoutes } from './group-projects.js'
import { healthRoutes } from './health.js'
import { issueDetailRoutes } from './issue-details.js'
import { issueNoteRoutes } from './issue-notes.js'
import { timeTrackingRoutes } from './issue-time-tracking.js'
import { issueRoutes } from './issues.js'
import { metaRoutes } from './meta.js'
import { metricImageRoutes } from './metric-images.js'
import { openapiRoutes } from './openapi.js'
import { pipelineEmulatorRoutes } from './pipeline-emulator.js'
import { pipelineRoutes } from './pipelines.js'
import { projectExportRoutes } from './project-export.js'
import { projectImportRoutes } from './project-import.js'
import { projectLabelRoutes } from './project-labels.js'
import { projectListRoutes } from './project-list.js'
import { runnerRoutes } from './runners.js'
import { triggerRoutes } from './triggers.js'
import { userLookupRoutes } from './user-lookup.js'

/**
 * Every route module, once, in the order the OpenAPI document lists them, with the services that
 * several modules share.
 */
export function registerRoutes(api: ApiContext, options: { emulator: EmulatorControls }): void {
  const issueDeps: IssueDeps = { ctx: api.ctx, issues: api.services.issues }

  metaRoutes(api)
  issueRoutes(api)
  issueDetailRoutes(api, issueDeps)
  issueNoteRoutes(api, issueDeps)
  timeTrackingRoutes(api, issueDeps)
  metricImageRoutes(api, issueDeps)
  // In this order: the uploads' multipart settings register after the metric images' own scope.
  const { transfers, pipelines, triggers } = api.services
  transfers.registerUploads()
  projectExportRoutes(api, transfers.exports)
  projectImportRoutes(api, transfers.imports, transfers)
  triggerRoutes(api, triggers)
  pipelineEmulatorRoutes(api, pipelines)
  pipelineRoutes(api, pipelines)
  aliasRoutes(api)
  runnerRoutes(api)
  groupProjectRoutes(api)
  projectLabelRoutes(api)
  userLookupRoutes(api)
  projectListRoutes(api)
  groupListRoutes(api)
  healthRoutes(api)
  emulatorRoutes(api, options.emulator)
  openapiRoutes(api)
}
