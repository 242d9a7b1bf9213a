import { defaultSleep } from '../api/retry.js'

/**
 * Client-side pacing for GitLab's per-user rate limits (export 6/min, export download 1/min by
 * default, `lib/gitlab/application_rate_limiter.rb`): `take()` resolves when a call may start so that no more
 * than `perMinute` start in any 60-second window. 0 turns pacing off. A 429 that gets through anyway (an
 * earlier run's calls count too) is waited out by the action (`waitOutRateLimits`, src/api/poll.ts).
 * Time is injected for tests.
 */
export function pacer(
  perMinute: number,
  now: () => number = Date.now,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = defaultSleep,
) {
  const starts: number[] = []
  let queue: Promise<void> = Promise.resolve()
  const take = async (signal?: AbortSignal): Promise<void> => {
    if (perMinute <= 0) return
    for (;;) {
      const t = now()
      while (starts.length && (starts[0] as number) <= t - 60_000) starts.shift()
      if (starts.length < perMinute) {
        starts.push(t)
        return
      }
      await sleep((starts[0] as number) + 60_000 - t, signal)
    }
  }
  /** Waits for a slot; callers are served in order. Returns the ms waited. */
  return async (signal?: AbortSignal): Promise<number> => {
    const start = now()
    const mine = queue.then(() => take(signal))
    queue = mine.catch(() => undefined)
    await mine
    return now() - start
  }
}

/** Runs `work` over `items` with at most `limit` at once; results in input order, never rejects. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      try {
        results[i] = { status: 'fulfilled', value: await work(items[i] as T, i) }
      } catch (reason) {
        results[i] = { status: 'rejected', reason }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}
