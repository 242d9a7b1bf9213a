/*
 * Retries as undici's RetryHandler does, not as clients that retry everything.
 * The policy is data; time and chance are injected so tests never wait.
 */
import type { ApiRequest, ApiResponse, HttpMethod, Layer } from './transport.js'

export interface RetryPolicy {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries: number
  /** First backoff step (default 500 ms); retry n waits up to `baseDelayMs * 2^(n-1)` (full jitter). */
  baseDelayMs: number
  /** Cap of a computed backoff step (default 30 s). */
  maxDelayMs: number
  /** Cap of a wait the server asks for (`Retry-After`, `RateLimit-Reset`; default 5 min). */
  maxServerDelayMs: number
  /** Waits `ms`; rejects with `signal.reason` when the caller aborts (default: a timer). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  /** A number in [0, 1) for the jitter (default Math.random). */
  random: () => number
  /** Epoch milliseconds, to read HTTP dates and `RateLimit-Reset` (default Date.now). */
  now: () => number
}

/** A timer that an AbortSignal cancels (rejecting with the signal's reason). */
export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => (clearTimeout(timer), reject(signal?.reason))
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/** The defaults: 3 retries, 500 ms doubling to at most 30 s, server waits up to 5 min. */
export const defaultRetryPolicy: Readonly<RetryPolicy> = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxServerDelayMs: 300_000,
  sleep: defaultSleep,
  random: Math.random,
  now: Date.now,
}

/** Methods that may run twice without doing the work twice (RFC 9110 §9.2.2). */
export const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])
/** Statuses a later attempt may turn into a success: GitLab or its proxy was briefly away. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504])
/** Network failures worth another attempt: the connection broke or never came up. */
export const CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
])

const header = (res: Pick<ApiResponse, 'headers'>, name: string) => {
  const v = res.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * The wait a 429 or 503 asks for, in ms: `Retry-After` (seconds or an HTTP date), else
 * `RateLimit-Reset` (epoch seconds), else `RateLimit-ResetTime` (an HTTP date); `lib/gitlab/rack_attack.rb`.
 * Undefined when the response names none; never negative.
 */
export function serverDelayMs(res: Pick<ApiResponse, 'headers'>, now: number): number | undefined {
  const retryAfter = header(res, 'retry-after')?.trim()
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return Math.max(0, date - now)
  }
  const reset = header(res, 'ratelimit-reset')?.trim()
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now)
  const resetTime = Date.parse(header(res, 'ratelimit-resettime') ?? '')
  if (!Number.isNaN(resetTime)) return Math.max(0, resetTime - now)
  return undefined
}

/** The network error code of `err` or of its `cause` (undici wraps some socket errors). */
export function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && CONNECTION_ERRORS.has(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * Whether an answer may be retried: a 429 for every method (GitLab refused the call and did
 * nothing), 502/503/504 only for idempotent methods (the call may have been applied before the
 * proxy gave up).
 */
export const mayRetryStatus = (method: HttpMethod, status: number) =>
  status === 429 || (RETRY_STATUSES.has(status) && IDEMPOTENT.has(method))

/**
 * The retry layer. Which calls are safe to retry, and so retried:
 *
 * - **429 Too Many Requests, any method.** GitLab's rate limiters answer before doing anything, so
 *   even a POST (create issue, trigger pipeline, schedule export) is retried. The wait is what the
 *   server asks for (`serverDelayMs`, capped at `maxServerDelayMs`), else the backoff.
 * - **502/503/504 and broken connections (`CONNECTION_ERRORS`), GET/HEAD/PUT/DELETE/OPTIONS only.**
 *   A POST or PATCH that met a proxy error or a reset may already have been applied, so it is
 *   never sent twice: the caller gets the error, and must look before trying again.
 * - **Never:** other statuses, timeouts (GitLabTimeoutError), a caller's abort, and calls whose
 *   body is a stream (it cannot be replayed).
 *
 * Backoff is exponential with full jitter: retry n waits `random() * min(maxDelayMs, baseDelayMs *
 * 2^(n-1))`. The body of a refused attempt is dumped before sleeping, freeing its socket. After
 * `maxRetries` retries the last response is returned (or the last error thrown) as it was.
 */
export const retry = (policy: Partial<RetryPolicy> = {}): Layer => {
  const p: RetryPolicy = { ...defaultRetryPolicy, ...policy }
  const backoff = (attempt: number) => p.random() * Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1))
  return (next) => async (req: ApiRequest) => {
    const replayable = req.body === undefined || typeof req.body === 'string' || Buffer.isBuffer(req.body)
    for (let attempt = 1; ; attempt++) {
      const last = attempt > p.maxRetries || !replayable
      let res: ApiResponse
      try {
        res = await next(req)
      } catch (err) {
        if (last || !IDEMPOTENT.has(req.method) || !errorCode(err) || req.signal?.aborted) throw err
        await p.sleep(backoff(attempt), req.signal)
        continue
      }
      if (last || !mayRetryStatus(req.method, res.status)) return res
      const asked = serverDelayMs(res, p.now())
      await res.body.dump() // free the socket before waiting
      await p.sleep(asked !== undefined ? Math.min(asked, p.maxServerDelayMs) : backoff(attempt), req.signal)
    }
  }
}
