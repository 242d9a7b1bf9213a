import { setTimeout } from 'node:timers/promises'
import { request } from 'undici'

/*
 * A client polling `/-/health` while a server works through something heavy: the longest it waited
 * for an answer is how long the server's event loop stalled (give or take the poll interval). For
 * servers in a child process (test/support/serve-child.ts): an in-process one would stall the poller.
 */

export interface HealthWatch {
  /** Stops polling; resolves with the longest wait for an answer (ms) and the answers counted. */
  stop(): Promise<{ longestMs: number; answers: number }>
}

/** Polls `<baseUrl>/-/health` every `everyMs`, one request at a time; a failed answer throws from `stop`. */
export function watchHealth(baseUrl: string, everyMs = 50): HealthWatch {
  let stopped = false
  let longestMs = 0
  let answers = 0
  const polling = (async () => {
    while (!stopped) {
      const started = performance.now()
      const res = await request(`${baseUrl}/-/health`)
      const body = await res.body.text()
      if (res.statusCode !== 200 || body !== 'GitLab OK')
        throw new Error(`/-/health answered ${res.statusCode}: ${body}`)
      longestMs = Math.max(longestMs, performance.now() - started)
      answers++
      await setTimeout(everyMs)
    }
  })()
  return {
    async stop() {
      stopped = true
      await polling
      return { longestMs: Math.round(longestMs), answers }
    },
  }
}

/** Runs `work` while watching `<baseUrl>/-/health` (see watchHealth): its result, the longest wait. */
export async function whileWatchingHealth<T>(
  baseUrl: string,
  work: () => Promise<T>,
  everyMs = 50,
): Promise<{ result: T; longestMs: number; answers: number }> {
  const health = watchHealth(baseUrl, everyMs)
  try {
    const result = await work()
    return { result, ...(await health.stop()) }
  } finally {
    await health.stop()
  }
}
