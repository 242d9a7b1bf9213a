import type { RunnerListQuery } from '../../schema/index.js'
import { RUNNER_STATUSES, RUNNER_TYPES } from '../../schema/runner.js'
import { runnerState } from '../domain/runner-status.js'
import { messageError, paramError } from '../grape/gitlab-errors.js'
import type { RunnerRow } from '../store/runners.js'

/** The deprecated `scope` of `GET /runners/all` and the project list (`Ci::Runner::AVAILABLE_SCOPES`). */
export const ALL_SCOPES: readonly string[] = ['specific', 'shared', ...RUNNER_TYPES, ...RUNNER_STATUSES]
/** `GET /runners` takes statuses only as its `scope`. */
export const STATUS_SCOPES: readonly string[] = RUNNER_STATUSES
/** `version_prefix`'s Grape `regexp`. */
const VERSION_PREFIX = /^[\d+.]+/

/** acts-as-taggable-on's TagList drops blank tags (`tag_list=,docker`). */
export const cleanTags = (tags: string[] | undefined) =>
  tags?.filter((tag) => tag.trim() !== '').map((t) => t.trim())

/**
 * The runner lists' `apply_filter` and deprecated `scope` (`filter_runners`, lib/api/ci/runners.rb) at
 * `nowMs`: 400 `Scope contains invalid value` for a scope outside `scopes` (null: the list takes none),
 * 400 `version_prefix is invalid` for one Grape's regexp refuses.
 */
export function filterRunners(
  rows: RunnerRow[],
  q: RunnerListQuery,
  scopes: readonly string[] | null,
  nowMs: number,
): RunnerRow[] {
  if (q.scope !== undefined && scopes && !scopes.includes(q.scope))
    throw messageError(400, 'Scope contains invalid value')
  if (q.version_prefix !== undefined && !VERSION_PREFIX.test(q.version_prefix))
    throw paramError('version_prefix is invalid')
  const tags = cleanTags(q.tag_list)
  return rows.filter((r) => {
    const state = runnerState({ ...r, active: r.active === 1 }, nowMs).scopes
    const inScope = (scope: string) =>
      scope === 'shared'
        ? r.runner_type === 'instance_type'
        : scope === 'specific'
          ? r.runner_type !== 'instance_type'
          : (RUNNER_TYPES as readonly string[]).includes(scope)
            ? r.runner_type === scope
            : state.has(scope)
    if (q.scope !== undefined && scopes && !inScope(q.scope)) return false
    if (q.type !== undefined && r.runner_type !== q.type) return false
    if (q.status !== undefined && !state.has(q.status)) return false
    if (q.paused !== undefined && (r.active === 1) === q.paused) return false
    // Versions come from runner managers, which never report here: a version filter matches none.
    if (q.version_prefix !== undefined) return false
    if (tags?.length) {
      const own = JSON.parse(r.tag_list) as string[]
      if (!tags.every((t) => own.includes(t))) return false
    }
    return true
  })
}
