/**
 * At most `limit` jobs at once; the others wait their turn in arrival order. Imports take one
 * for their whole run (download, extraction, restore), so the disk they use stays bounded.
 */
export function jobSlots(limit: number) {
  let busy = 0
  const waiting: (() => void)[] = []
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else busy--
  }
  return {
    /** Runs `job` once a slot is free, and frees it after. */
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (busy < limit) busy++
      else await new Promise<void>((resolve) => waiting.push(resolve))
      try {
        return await job()
      } finally {
        release()
      }
    },
  }
}
export type JobSlots = ReturnType<typeof jobSlots>
