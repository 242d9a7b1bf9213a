/**
 * The background runner of exports and imports: each job starts on a later turn of the event loop
 * (never inside the request that scheduled it) and runs to its end; `close()` tells running jobs
 * to stop (`aborted()`, and `signal` for transfers under way) and waits for them, so nothing
 * touches the store after it closes.
 */
export function jobQueue() {
  const running = new Set<Promise<void>>()
  const stop = new AbortController()
  let closing = false
  let finished = 0
  return {
    aborted: () => closing,
    signal: stop.signal as AbortSignal, // named, so that the emitted .d.ts can refer to it
    /** Runs `job` soon, in the background; `job` must not throw (jobs record their own failures). */
    run(job: () => Promise<void>): void {
      if (closing) return
      const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(job)
        .catch(() => undefined)
        .finally(() => {
          running.delete(p)
          finished++
        })
      running.add(p)
    },
    /** Jobs under way or waiting for their turn. */
    pending: () => running.size,
    /** Jobs ended since the server started (the emulator's settle reports the difference). */
    finished: () => finished,
    /** Resolves when every job started so far has ended. */
    idle: async () => {
      while (running.size > 0) await Promise.allSettled([...running])
    },
    async close(): Promise<void> {
      closing = true
      stop.abort()
      await Promise.allSettled([...running])
    },
  }
}
export type JobQueue = ReturnType<typeof jobQueue>
