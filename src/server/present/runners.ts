import type {
  BasicGroupDetails,
  BasicProjectDetails,
  Runner,
  RunnerDetails,
  UserBasic,
} from '../../schema/index.js'
import type { RunnerRow } from '../store/runners.js'

/** What a runner's record shows beside its row: its state now and its creator, if any. */
export interface RunnerFacts {
  online: boolean
  status: string
  creator?: UserBasic
}

/** `Entities::Ci::Runner` (lib/api/entities/ci/runner.rb), in GitLab's key order. */
export function presentRunner(row: RunnerRow, facts: RunnerFacts): Runner {
  return {
    id: row.id,
    description: row.description,
    ip_address: null,
    active: row.active === 1,
    paused: row.active !== 1,
    is_shared: row.runner_type === 'instance_type',
    runner_type: row.runner_type,
    name: row.name,
    online: facts.online,
    ...(facts.creator ? { created_by: facts.creator } : {}),
    created_at: row.created_at,
    status: facts.status,
    job_execution_status: 'idle',
  }
}

/**
 * `Entities::Ci::RunnerDetails` (lib/api/entities/ci/runner_details.rb): no runner manager ever
 * reports here, so `version`, `revision`, `platform` and `architecture` are null.
 */
export function presentRunnerDetails(
  row: RunnerRow,
  facts: RunnerFacts,
  seen: { maintenanceNote: boolean; projects: BasicProjectDetails[]; groups: BasicGroupDetails[] },
): RunnerDetails {
  return {
    ...presentRunner(row, facts),
    tag_list: JSON.parse(row.tag_list) as string[],
    run_untagged: row.run_untagged === 1,
    locked: row.locked === 1,
    maximum_timeout: row.maximum_timeout,
    access_level: row.access_level,
    version: null,
    revision: null,
    platform: null,
    architecture: null,
    contacted_at: row.contacted_at,
    maintenance_note: seen.maintenanceNote ? row.maintenance_note : null,
    projects: seen.projects,
    groups: seen.groups,
  }
}
