/*
 * One polling loop for every wait on GitLab's background work (pipelines, exports, imports), and one
 * way of waiting out GitLab's per-minute rate limits. Time is injected so tests never wait.
 */
import { GitLabApiError, GitLabTimeoutError } from './errors.js'
import { defaultSleep, errorCode, RETRY_STATUSES, serverDelayMs } from './retry.js'

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

/** How a wait is paced and bounded; shared by every wait of the client. */
export interface PollTiming {
  /** Give up after this long (ms); the wait then ends with `timeout`. Default: wait for ever. */
  timeoutMs?: number
  /** First gap between reads (default 5 s); grows by half while nothing changes, up to `maxIntervalMs`. */
  intervalMs?: number
  /** Largest gap (default 4x `intervalMs`, at most 60 s unless intervalMs is larger). */
  maxIntervalMs?: number
  /** Aborting stops the wait; the call rejects with the signal's reason. */
  signal?: AbortSignal
  /**
   * Called the first time a read fails in a way a later read may not (502/503/504, a broken or
   * refused connection, a timed-out read, a 429), once per kind (`kind`: the status or error code).
   */
  onTransientError?: (error: Error, elapsedMs: number, kind: string) => void
  sleep?: Sleep
  now?: () => number
}

export interface PollOptions<T> extends PollTiming {
  /** One read of the state. */
  read: (signal?: AbortSignal) => Promise<T>
  /** Whether `value` ends the wait; may throw to end it with an error (a failed export). */
  done: (value: T) => boolean
  /** What must change for the gap to return to `intervalMs` (default: the value itself). */
  key?: (value: T) => unknown
  /** Called after every successful read; `changed` on the first read and whenever `key` changes. */
  onRead?: (value: T, elapsedMs: number, changed: boolean) => void
  /** Sleep one gap before the first read (the work was just asked for). */
  waitFirst?: boolean
}

export interface PollResult<T> {
  /** The last value read; undefined when no read succeeded before the timeout. */
  value: T | undefined
  ended: 'done' | 'timeout'
  elapsedMs: number
}

/** GitLab's application rate limits count per minute (`lib/gitlab/application_rate_limiter.rb`). */
const RATE_LIMIT_WINDOW_MS = 60_000
/** Past the window's end, for clocks that differ between GitLab's nodes and for the Date header's rounding. */
const RATE_LIMIT_MARGIN_MS = 1000

/**
 * How long to wait after a 429 before asking again, in ms: `Retry-After` or `RateLimit-Reset` when
 * GitLab sent one (Rack::Attack does), else the start of the next one-minute window by the answer's
 * `Date` (by `now` without one) plus a margin: `Gitlab::ApplicationRateLimiter`'s 429s (project
 * export, download, import; `lib/api/helpers/rate_limiter.rb`) carry no Retry-After.
 */
export function rateLimitDelayMs(err: GitLabApiError, now: number): number {
  const asked = serverDelayMs({ headers: err.timing }, now)
  if (asked !== undefined) return asked
  const date = Date.parse(err.timing.date ?? '')
  const at = Number.isNaN(date) ? now : date
  return RATE_LIMIT_WINDOW_MS - (at % RATE_LIMIT_WINDOW_MS) + RATE_LIMIT_MARGIN_MS
}

/** GitLab refused the call for its rate limit (and did nothing). */
export const isRateLimited = (err: unknown): err is GitLabApiError =>
  err instanceof GitLabApiError && err.status === 429

/**
 * The kind of a failure a later read may not meet, or undefined when the wait must stop (401, 403,
 * 404 and other 4xx, 500, a bad body, the caller's abort): `429`, `502`/`503`/`504` (RETRY_STATUSES),
 * `timeout`, or the network code (CONNECTION_ERRORS).
 */
export function transientKind(err: unknown): string | undefined {
  if (err instanceof GitLabApiError)
    return err.status === 429 || RETRY_STATUSES.has(err.status) ? String(err.status) : undefined
  if (err instanceof GitLabTimeoutError) return 'timeout'
  return errorCode(err)
}

/**
 * Reads until `done`, the timeout, or the signal. The gap starts at `intervalMs`, grows by half
 * while `key` stays the same and returns to `intervalMs` on a change. A read that fails
 * transiently (`transientKind`; the client's retry layer has already retried it) is reported once per
 * kind and the wait goes on to the deadline; a 429 waits at least what `rateLimitDelayMs` says. Any
 * other error is thrown at once, as is what `done` throws.
 */
export async function poll<T>(options: PollOptions<T>): Promise<PollResult<T>> {
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? defaultSleep
  const key = options.key ?? ((v: T) => v)
  const base = Math.max(1, options.intervalMs ?? 5000)
  const cap = options.maxIntervalMs ?? Math.max(base, Math.min(base * 4, 60_000))
  const start = now()
  const deadline = options.timeoutMs === undefined ? Infinity : start + options.timeoutMs
  const seen = new Set<string>()
  let gap = base
  let value: T | undefined
  let read = false
  let pause = options.waitFirst ? gap : 0
  for (;;) {
    if (pause > 0) {
      const left = deadline - now()
      if (left <= 0) return { value, ended: 'timeout', elapsedMs: now() - start }
      await sleep(Math.min(pause, left), options.signal)
    }
    options.signal?.throwIfAborted()
    pause = gap
    let current: T
    try {
      current = await options.read(options.signal)
    } catch (err) {
      const kind = options.signal?.aborted ? undefined : transientKind(err)
      if (kind === undefined) throw err
      if (!seen.has(kind)) {
        seen.add(kind)
        options.onTransientError?.(err as Error, now() - start, kind)
      }
      if (isRateLimited(err)) pause = Math.max(gap, rateLimitDelayMs(err, now()))
      if (deadline - now() <= 0) return { value, ended: 'timeout', elapsedMs: now() - start }
      continue
    }
    const elapsed = now() - start
    const changed = !read || !Object.is(key(value as T), key(current))
    gap = changed ? base : Math.min(cap, Math.round(gap * 1.5))
    pause = gap
    read = true
    value = current
    options.onRead?.(current, elapsed, changed)
    if (options.done(current)) return { value, ended: 'done', elapsedMs: elapsed }
    if (deadline - now() <= 0) return { value, ended: 'timeout', elapsedMs: now() - start }
  }
}

export interface RateLimitWaitOptions {
  /** Epoch ms after which no wait starts: the 429 is thrown instead. */
  deadline: number
  signal?: AbortSignal
  /** Called before each wait, with its length (the caller logs it). */
  onWait?: (ms: number, err: GitLabApiError) => void
  sleep?: Sleep
  now?: () => number
}

/**
 * Runs `call` until GitLab stops answering it with 429, waiting `rateLimitDelayMs` before each new
 * try, as long as the wait ends before `deadline`; then the 429 is thrown. Only for calls that may be
 * sent again (GitLab's rate limiters refuse before doing anything).
 */
export async function waitOutRateLimits<T>(
  call: () => Promise<T>,
  options: RateLimitWaitOptions,
): Promise<T> {
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? defaultSleep
  for (;;) {
    try {
      return await call()
    } catch (err) {
      if (!isRateLimited(err) || options.signal?.aborted) throw err
      const wait = rateLimitDelayMs(err, now())
      if (now() + wait > options.deadline) throw err
      options.onWait?.(wait, err)
      await sleep(wait, options.signal)
    }
  }
}
