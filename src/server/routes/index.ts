import type { FastifyInstance } from 'fastify'
import type { Clock } from '../domain/clock.js'
import type { Instruments } from '../domain/instruments.js'
import type { BackgroundWork } from '../services/background-work.js'
import { scopedBodyParsers } from '../http/body-parsers.js'
import type { ResponseCache } from '../http/response-cache.js'
import type { Instance } from '../present/context.js'
import type { Access } from '../services/access.js'
import type { Services } from '../services/index.js'
import { METRIC_IMAGE_MAX_BYTES } from '../services/metric-images.js'
import { aliasRoutes } from './aliases.js'
import type { ApiContext } from './context.js'
import { routeTable } from './define.js'
import { inOneAfter } from './one-after.js'
import { emulatorRoutes, emulatorSeedRoutes } from './emulator.js'
import { emulatorSnapshotRoutes } from './emulator-snapshots.js'
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
import { commitStatusRoutes } from './commit-statuses.js'
import { eventRoutes } from './events.js'
import { jobRoutes } from './jobs.js'
import { projectExportRoutes } from './project-export.js'
import { projectImportRoutes } from './project-import.js'
import { relationImportRoutes } from './relation-imports.js'
import { projectLabelRoutes } from './project-labels.js'
import { projectMilestoneRoutes } from './project-milestones.js'
import { projectListRoutes } from './project-list.js'
import { runnerRoutes } from './runners.js'
import { runnerManagementRoutes } from './runner-management.js'
import { triggerRoutes } from './triggers.js'
import { jobTokenScopeRoutes } from './job-token-scope.js'
import { pipelineScheduleRoutes } from './pipeline-schedules.js'
import { environmentRoutes } from './environments.js'
import { ciVariableRoutes } from './ci-variables.js'
import { ciLintRoutes } from './ci-lint.js'
import { userLookupRoutes } from './user-lookup.js'
import { userRoutes } from './users.js'
import { memberRoutes } from './members.js'
import { personalAccessTokenRoutes } from './personal-access-tokens.js'
import { accessTokenRoutes } from './access-tokens.js'
import { namespaceRoutes } from './namespaces.js'
import { issueLinkRoutes } from './issue-links.js'
import { awardEmojiRoutes } from './award-emoji.js'
import { issueDiscussionRoutes } from './issue-discussions.js'
import { resourceEventRoutes } from './resource-events.js'
import { groupWriteRoutes } from './group-writes.js'
import { projectWriteRoutes } from './project-writes.js'
import { projectForkRoutes } from './project-forks.js'
import { groupLabelRoutes } from './group-labels.js'
import { groupMilestoneRoutes } from './group-milestones.js'
import { promotionRoutes } from './promotions.js'
import { emulatorInstrumentRoutes } from './emulator-instruments.js'
import { emulatorClockRoutes } from './emulator-clock.js'
import { hookRoutes } from './hooks.js'
import { repositoryFileRoutes } from './repository-files.js'
import { repositoryArchiveRoutes } from './repository-archive.js'
import { repositoryCommitRoutes } from './repository-commits.js'
import { repositoryCompareRoutes } from './repository-compare.js'
import { repositoryProtectedTagRoutes } from './repository-protected-tags.js'
import { repositoryRefRoutes } from './repository-refs.js'

/**
 * Mounts every route on `app`: the flat tables, then those served under a body parser of their
 * own (the metric images' uploads, the emulator's seed), with the response cache for the lists.
 */
export function mountRoutes(
  app: FastifyInstance,
  state: {
    instance: Instance
    clock: Clock
    access: Access
    services: Services
    cache: ResponseCache
    instruments: Instruments
    background: BackgroundWork
  },
): void {
  const { instance, access, services } = state
  const route = routeTable(app, instance, state.clock, state.cache)
  const api: ApiContext = { app, route, instance, access, services }
  inOneAfter(app, () => {
    registerRoutes(api)
    emulatorInstrumentRoutes(api, state.instruments)
    emulatorClockRoutes(api, state.background)
    emulatorSnapshotRoutes(api, services.emulator)
  })
  scopedBodyParsers(app, services.transfers, {
    ...(services.metricImages
      ? {
          metricImageUploads: {
            fileSize: METRIC_IMAGE_MAX_BYTES,
            mount: (scope) => metricImageUploadRoutes(api, route.within(scope)),
          },
        }
      : {}),
    textForms: (scope) => emulatorSeedRoutes(scope, services.emulator),
  })
}

/** Every route module, once, in the order the OpenAPI document lists them. */
function registerRoutes(api: ApiContext): void {
  const { transfers, pipelines, triggers } = api.services
  metaRoutes(api)
  issueRoutes(api)
  issueDetailRoutes(api)
  issueNoteRoutes(api)
  timeTrackingRoutes(api)
  metricImageRoutes(api)
  projectExportRoutes(api, transfers.exports)
  projectImportRoutes(api, transfers.imports, transfers)
  relationImportRoutes(api, transfers)
  triggerRoutes(api, triggers)
  jobTokenScopeRoutes(api, api.services.jobTokenScopes)
  pipelineScheduleRoutes(api, api.services.pipelineSchedules)
  environmentRoutes(api, api.services.environments)
  ciVariableRoutes(api)
  pipelineEmulatorRoutes(api, pipelines)
  pipelineRoutes(api, pipelines)
  ciLintRoutes(api, pipelines)
  jobRoutes(api, api.services.jobs)
  commitStatusRoutes(api, api.services.commitStatuses)
  eventRoutes(api, api.services.events)
  aliasRoutes(api)
  runnerRoutes(api)
  runnerManagementRoutes(api)
  groupProjectRoutes(api)
  projectLabelRoutes(api)
  projectMilestoneRoutes(api)
  userLookupRoutes(api)
  userRoutes(api)
  memberRoutes(api)
  personalAccessTokenRoutes(api)
  accessTokenRoutes(api)
  namespaceRoutes(api)
  projectListRoutes(api)
  groupListRoutes(api)
  healthRoutes(api)
  emulatorRoutes(api, api.services.emulator)
  openapiRoutes(api)
  issueLinkRoutes(api)
  awardEmojiRoutes(api)
  issueDiscussionRoutes(api)
  resourceEventRoutes(api)
  groupWriteRoutes(api)
  projectWriteRoutes(api)
  projectForkRoutes(api)
  groupLabelRoutes(api)
  groupMilestoneRoutes(api)
  promotionRoutes(api)
  hookRoutes(api)
  repositoryFileRoutes(api)
  repositoryCommitRoutes(api)
  repositoryCompareRoutes(api)
  repositoryArchiveRoutes(api)
  repositoryRefRoutes(api)
  repositoryProtectedTagRoutes(api)
}
