/**
 * `WebHooks::AutoDisabling` (`app/models/concerns/web_hooks/auto_disabling.rb`, GitLab 18.x): every failed
 * delivery (an HTTP status outside 2xx, a timeout, a refused connection) counts; after the fourth in a row
 * the hook rests for a backoff that starts at a minute and doubles up to a day (`disabled_until`), and past
 * the fortieth it is disabled for good. A success sets the count back to zero. Earlier releases told 4xx
 * (disabled at once) from 5xx apart; 18.x backs off on both (`WebHooks::LogExecutionService`).
 */
export const TEMPORARILY_DISABLED_FAILURE_THRESHOLD = 3
export const PERMANENTLY_DISABLED_FAILURE_THRESHOLD = 39
const INITIAL_BACKOFF_MS = 60_000
const MAX_BACKOFF_MS = 86_400_000

export interface HookFailureState {
  recent_failures: number
  disabled_until: string | null
}

export type AlertStatus = 'executable' | 'temporarily_disabled' | 'disabled'

/** `temporarily_disabled?`: resting until `disabled_until`, which has not passed. */
export function temporarilyDisabled(hook: HookFailureState, now: Date): boolean {
  return (
    hook.disabled_until !== null &&
    Date.parse(hook.disabled_until) >= now.getTime() &&
    hook.recent_failures > TEMPORARILY_DISABLED_FAILURE_THRESHOLD &&
    hook.recent_failures <= PERMANENTLY_DISABLED_FAILURE_THRESHOLD
  )
}

/** `permanently_disabled?`. */
export const permanentlyDisabled = (hook: HookFailureState) =>
  hook.recent_failures > PERMANENTLY_DISABLED_FAILURE_THRESHOLD

/** `alert_status`. */
export function alertStatus(hook: HookFailureState, now: Date): AlertStatus {
  if (temporarilyDisabled(hook, now)) return 'temporarily_disabled'
  if (permanentlyDisabled(hook)) return 'disabled'
  return 'executable'
}

/** `executable?`: a delivery may go out. */
export const executable = (hook: HookFailureState, now: Date) =>
  !temporarilyDisabled(hook, now) && !permanentlyDisabled(hook)

/** `backoff!`: the state after a failed delivery; unchanged when the hook was not executable. */
export function afterFailure(hook: HookFailureState, now: Date): HookFailureState {
  if (!executable(hook, now)) return hook
  const failures = Math.min(Math.max(hook.recent_failures + 1, 1), PERMANENTLY_DISABLED_FAILURE_THRESHOLD + 1)
  if (failures <= TEMPORARILY_DISABLED_FAILURE_THRESHOLD) return { ...hook, recent_failures: failures }
  // `next_backoff` reads the count before this failure.
  const backoff = INITIAL_BACKOFF_MS * 2 ** (hook.recent_failures - TEMPORARILY_DISABLED_FAILURE_THRESHOLD)
  const ms = Math.min(Math.max(backoff, INITIAL_BACKOFF_MS), MAX_BACKOFF_MS)
  return { recent_failures: failures, disabled_until: new Date(now.getTime() + ms).toISOString() }
}

/** `enable!`: the state after a successful delivery. */
export const afterSuccess = (): HookFailureState => ({ recent_failures: 0, disabled_until: null })
