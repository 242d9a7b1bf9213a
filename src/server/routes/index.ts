import type { ScopedRoutes } from '../compose.js'
import { aliasRoutes } from './aliases.js'
import type { ApiContext } from './context.js'
import { emulatorRoutes, emulatorSeedRoutes, type EmulatorControls } from './emulator.js'
import { groupListRoutes } from './group-list.js'
import { groupProjectRoutes } from './group-projects.js'
import { healthRoutes } from './health.js'
import { issueDetailRoutes } from './issue-details.js'
import { issueNoteRoutes } from './issue-notes.js'
import { timeTrackingRoutes } from './issue-time-tracking.js'
import { issueRoutes } from './issues.js'
import { metaRoutes } from './meta.js'
import { metricImageRoutes, metricImageUploadRoutes } from './metric-images.js'
import { openapiRoutes } from './openapi.js'
import { pipelineEmulatorRoutes } from './pipeline-emulator.js'
import { pipelineRoutes } from './pipelines.js'
import { projectExportRoutes } from './project-export.js'
import { projectImportRoutes } from './project-import.js'
import { projectLabelRoutes } from './project-labels.js'
import { projectMilestoneRoutes } from './project-milestones.js'
import { projectListRoutes } from './project-list.js'
import { runnerRoutes } from './runners.js'
import { triggerRoutes } from './triggers.js'
import { userLookupRoutes } from './user-lookup.js'

/**
 * Every route module, once, in the order the OpenAPI document lists them. The routes that need a
 * body parser of their own are in `scopedRoutes`.
 */
export function registerRoutes(api: ApiContext, options: { emulator: EmulatorControls }): void {
  const { transfers, pipelines, triggers } = api.services
  metaRoutes(api)
  issueRoutes(api)
  issueDetailRoutes(api)
  issueNoteRoutes(api)
  timeTrackingRoutes(api)
  metricImageRoutes(api)
  projectExportRoutes(api, transfers.exports)
  projectImportRoutes(api, transfers.imports, transfers)
  triggerRoutes(api, triggers)
  pipelineEmulatorRoutes(api, pipelines)
  pipelineRoutes(api, pipelines)
  aliasRoutes(api)
  runnerRoutes(api)
  groupProjectRoutes(api)
  projectLabelRoutes(api)
  projectMilestoneRoutes(api)
  userLookupRoutes(api)
  projectListRoutes(api)
  groupListRoutes(api)
  healthRoutes(api)
  emulatorRoutes(api, options.emulator)
  openapiRoutes(api)
}

/** The route tables compose.ts `registerBodyParsers` mounts under their own body parsers. */
export function scopedRoutes(api: ApiContext, options: { emulator: EmulatorControls }): ScopedRoutes {
  return {
    metricImageUploads: (route) => metricImageUploadRoutes(api, route),
    textForms: (scope) => emulatorSeedRoutes(scope, options.emulator),
  }
}
