import { COMPLETED_STATUSES } from '../../schema/pipeline.js'

/** Statuses after which a job or pipeline moves no more (src/schema/pipeline.ts). */
export const COMPLETED: ReadonlySet<string> = new Set(COMPLETED_STATUSES)
/** Job statuses that `POST .../cancel` cancels (`Ci::HasStatus::CANCELABLE_STATUSES`). */
export const CANCELABLE = new Set([
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'scheduled',
])
/** A job token authenticates only while its job executes (`Ci::HasStatus::EXECUTING_STATUSES`). */
export const EXECUTING = new Set(['running', 'canceling'])

/**
 * A pipeline's status from its current jobs, after GitLab's `Gitlab::Ci::Status::Composite`
 * (without allowed failures, which the emulator does not model). No jobs reads as `skipped`.
 */
export function compositeStatus(statuses: string[]): string {
  const set = new Set(statuses)
  const only = (...allowed: string[]) => [...set].every((s) => allowed.includes(s))
  const any = (...wanted: string[]) => wanted.some((s) => set.has(s))
  if (set.size === 0 || only('skipped')) return 'skipped'
  if (only('success', 'skipped')) return 'success'
  if (only('created', 'skipped')) return 'created'
  if (only('preparing', 'skipped')) return 'preparing'
  if (only('canceled', 'success', 'skipped')) return 'canceled'
  if (only('pending', 'created', 'skipped')) return 'pending'
  if (any('canceling')) return 'canceling'
  if (any('running', 'pending')) return 'running'
  if (any('waiting_for_resource')) return 'waiting_for_resource'
  if (any('waiting_for_callback')) return 'waiting_for_callback'
  if (any('manual')) return 'manual'
  if (any('scheduled')) return 'scheduled'
  if (any('preparing')) return 'preparing'
  if (any('created')) return 'running'
  return 'failed'
}
