/** `Ci::Runner::ONLINE_CONTACT_TIMEOUT`: a runner that contacted within it is online. */
const ONLINE_MS = 2 * 3_600_000
/** `Ci::Runner::STALE_TIMEOUT`: created and last contacted longer ago than this is stale. */
const STALE_MS = 7 * 86_400_000

export interface RunnerTimes {
  created_at: string
  contacted_at: string | null
  active: boolean
}

/** Where a runner stands at `nowMs` (app/models/ci/runner.rb): its `online?` and the states it is in. */
export function runnerState(runner: RunnerTimes, nowMs: number) {
  const contacted = runner.contacted_at === null ? null : Date.parse(runner.contacted_at)
  const online = contacted !== null && contacted > nowMs - ONLINE_MS
  // `stale?`: `[created_at, contacted_at].compact.max <= stale_deadline`.
  const stale = Math.max(Date.parse(runner.created_at), contacted ?? 0) <= nowMs - STALE_MS
  /** The `status` filter's scopes (`Ci::Runner.online`, `.offline`, ..., the deprecated `.active`, `.paused`). */
  const scopes = new Set<string>([
    online ? 'online' : contacted === null ? 'never_contacted' : 'offline',
    runner.active ? 'active' : 'paused',
  ])
  if (stale) scopes.add('stale')
  /** `deprecated_rest_status`, what the REST API shows as `status`. */
  const status = stale
    ? 'stale'
    : contacted === null
      ? 'never_contacted'
      : !runner.active
        ? 'paused'
        : online
          ? 'online'
          : 'offline'
  return { online, status, scopes }
}
