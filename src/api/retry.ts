import type { ApiRequest, ApiResponse, Layer } from './transport.js'

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number
  /** First backoff step (default 500 ms); each retry doubles it, with full jitter. */
  baseDelayMs: number
  /** Cap of a computed backoff (default 30 s). */
  maxDelayMs: number
  /** Cap of a server-requested wait (`Retry-After`, `RateLimit-Reset`; default 5 min). */
  maxServerDelayMs: number
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  random: () => number
  now: () => number
}

export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
  })

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxServerDelayMs: 300_000,
  sleep: defaultSleep,
  random: Math.random,
  now: Date.now,
}

/** Methods that may run twice without doing the work twice. */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])
const CONNECTION_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
])

const header = (res: ApiResponse, name: string) => {
  const v = res.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** The wait a 429/503 asks for: `Retry-After` (seconds or HTTP date), else `RateLimit-Reset` (epoch seconds). */
export function serverDelayMs(res: ApiResponse, now: number): number | undefined {
  const retryAfter = header(res, 'retry-after')
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter)
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return Math.max(0, date - now)
  }
  const reset = Number(header(res, 'ratelimit-reset'))
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now)
  return undefined
}

/**
 * Retries what may succeed later, as undici's retry handler does and unlike clients that retry
 * everything: a 429 means the server did nothing, so any method is retried; 502/503/504 and
 * connection resets only for idempotent methods. A POST is therefore never sent twice unless
 * GitLab refused it with 429. Streamed bodies are never retried (they cannot be replayed).
 */
export const retry = (policy: Partial<RetryPolicy> = {}): Layer => {
  const p = { ...defaultRetryPolicy, ...policy }
  const backoff = (attempt: number) => p.random() * Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1))
  return (next) => async (req: ApiRequest) => {
    const replayable = req.body === undefined || typeof req.body === 'string' || Buffer.isBuffer(req.body)
    for (let attempt = 1; ; attempt++) {
      let res: ApiResponse
      try {
        res = await next(req)
      } catch (err) {
        const code = (err as { code?: string }).code
        if (
          !replayable ||
          attempt > p.maxRetries ||
          !IDEMPOTENT.has(req.method) ||
          !code ||
          !CONNECTION_ERRORS.has(code)
        )
          throw err
        await p.sleep(backoff(attempt), req.signal)
        continue
      }
      const again = res.status === 429 || ([502, 503, 504].includes(res.status) && IDEMPOTENT.has(req.method))
      if (!again || !replayable || attempt > p.maxRetries) return res
      const asked = serverDelayMs(res, p.now())
      await res.body.dump() // free the socket before waiting
      await p.sleep(asked !== undefined ? Math.min(asked, p.maxServerDelayMs) : backoff(attempt), req.signal)
    }
  }
}
