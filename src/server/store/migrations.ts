import foundation from './migrations/001-foundation.js'
import issueDetails from './migrations/002-issue-details.js'
import transfers from './migrations/003-transfers.js'
import pipelines from './migrations/004-pipelines.js'
import runners from './migrations/005-runners.js'
import issuePositionIndex from './migrations/006-issue-position-index.js'
import gitObjects from './migrations/007-git-objects.js'
import refKinds from './migrations/008-ref-kinds.js'
import duplicates from './migrations/009-duplicates.js'
import issueStateIndex from './migrations/010-issue-state-index.js'
import labelSubscriptions from './migrations/011-label-subscriptions.js'
import issueChildrenIndex from './migrations/012-issue-children-index.js'
import issueSubresources from './migrations/013-issue-subresources.js'
import usersAndTokens from './migrations/014-users-and-tokens.js'
import projectsApi from './migrations/015-projects-api.js'
import groupsApi from './migrations/016-groups-api.js'
import membersApi from './migrations/017-members-api.js'
import accessTokens from './migrations/018-access-tokens.js'
import groupLabelsMilestones from './migrations/019-group-labels-milestones.js'
import webhooks from './migrations/020-webhooks.js'
import ciJobDefinitions from './migrations/021-ci-job-definitions.js'
import repository from './migrations/022-repository.js'
import jobOutputs from './migrations/023-job-outputs.js'
import ciProcessables from './migrations/024-ci-processables.js'
import relationImports from './migrations/025-relation-imports.js'
import pushHooks from './migrations/026-push-hooks.js'
import deleteIndexes from './migrations/027-delete-indexes.js'
import publicBuilds from './migrations/028-public-builds.js'
import protectedTags from './migrations/029-protected-tags.js'
import forks from './migrations/030-forks.js'
import forkSettings from './migrations/031-fork-settings.js'
import ciVariables from './migrations/032-ci-variables.js'
import ciGroupVariables from './migrations/033-ci-group-variables.js'
import ciInstanceVariables from './migrations/034-ci-instance-variables.js'
import forkCorrelationIds from './migrations/035-fork-correlation-ids.js'
import commitStatuses from './migrations/036-commit-statuses.js'
import commitNotes from './migrations/037-commit-notes.js'
import pipelineSchedules from './migrations/038-pipeline-schedules.js'
import jobCoverage from './migrations/039-job-coverage.js'
import runnerManagement from './migrations/040-runner-management.js'
import events from './migrations/041-events.js'
import environments from './migrations/042-environments.js'
import deploymentHooks from './migrations/043-deployment-hooks.js'
import environmentStops from './migrations/044-environment-stops.js'
import environmentSettings from './migrations/045-environment-settings.js'
import artifactLocks from './migrations/046-artifact-locks.js'
import pipelineScheduleInputs from './migrations/047-pipeline-schedule-inputs.js'
import restoreGuards from './migrations/048-restore-guards.js'
import jobTokenScope from './migrations/049-job-token-scope.js'
import environmentAutoDelete from './migrations/050-environment-auto-delete.js'
import type { Migration } from './migration.js'

/**
 * Versioned schema migrations, applied in order inside one transaction each; the store's
 * `PRAGMA user_version` records the last one applied. Append, never edit, a released migration.
 */
export const migrations: Migration[] = [
  foundation,
  issueDetails,
  transfers,
  pipelines,
  runners,
  issuePositionIndex,
  gitObjects,
  refKinds,
  duplicates,
  issueStateIndex,
  labelSubscriptions,
  issueChildrenIndex,
  issueSubresources,
  usersAndTokens,
  projectsApi,
  groupsApi,
  membersApi,
  accessTokens,
  groupLabelsMilestones,
  webhooks,
  ciJobDefinitions,
  repository,
  jobOutputs,
  ciProcessables,
  relationImports,
  pushHooks,
  deleteIndexes,
  publicBuilds,
  protectedTags,
  forks,
  forkSettings,
  ciVariables,
  ciGroupVariables,
  ciInstanceVariables,
  forkCorrelationIds,
  commitStatuses,
  commitNotes,
  pipelineSchedules,
  jobCoverage,
  runnerManagement,
  events,
  environments,
  deploymentHooks,
  environmentStops,
  environmentSettings,
  artifactLocks,
  pipelineScheduleInputs,
  restoreGuards,
  jobTokenScope,
  environmentAutoDelete,
]
