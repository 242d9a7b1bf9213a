import { messageError } from '../grape/gitlab-errors.js'
import type { Clock } from '../domain/clock.js'

/**
 * GitLab's default `issues_create_limit` (`lib/gitlab/application_rate_limiter.rb`): requests per minute; 0
 * turns the limit off.
 */
export const DEFAULT_ISSUES_CREATE_LIMIT = 300

/**
 * What `RateLimitedService::RateLimitedError` renders (`app/services/concerns/rate_limited_service.rb`); no
 * Retry-After for this limit.
 */
export const tooManyRequests = () =>
  messageError(429, { error: 'This endpoint has been requested too many times. Try again later.' })

/**
 * A fixed-window counter as `Gitlab::ApplicationRateLimiter` keeps one: each key may be hit `limit`
 * times in each `intervalMs` window of the clock (windows start at multiples of the interval, as
 * GitLab's cache keys do). Every call counts, refused or not. Throws 429 over the limit. `clear`
 * forgets every count (the server's reset calls it).
 */
export function fixedWindowLimiter(clock: Clock, limit: number, intervalMs = 60_000) {
  const counts = new Map<string, number>()
  let window = -1
  const hit = (key: string): void => {
    if (limit <= 0) return
    const now = Math.floor(clock.now().getTime() / intervalMs)
    if (now !== window) {
      counts.clear()
      window = now
    }
    const n = (counts.get(key) ?? 0) + 1
    counts.set(key, n)
    if (n > limit) throw tooManyRequests()
  }
  // A reset reuses ids (the next project made is id 1 again): counts kept across it would charge
  // the new world's users and projects for the old one's requests.
  return Object.assign(hit, { clear: () => counts.clear() })
}
