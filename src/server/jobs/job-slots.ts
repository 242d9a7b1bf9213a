/**
 * At most `limit` jobs at once, and at most `perOwner` of them (by default all but one slot) for
 * one owner, so one user's slow jobs never hold every slot: the others wait their turn in
 * arrival order, and a waiting job whose owner is at the cap lets later jobs of other owners go
 * first. Imports take one for their whole run (download, extraction, restore), so the disk they
 * use stays bounded.
 */
export function jobSlots(limit: number, perOwner = Math.max(1, limit - 1)) {
  let busy = 0
  const held = new Map<string, number>()
  const waiting: { owner: string; start: () => void }[] = []
  const mayStart = (owner: string) => busy < limit && (held.get(owner) ?? 0) < perOwner
  const take = (owner: string) => {
    busy++
    held.set(owner, (held.get(owner) ?? 0) + 1)
  }
  const release = (owner: string) => {
    busy--
    const left = (held.get(owner) ?? 1) - 1
    if (left > 0) held.set(owner, left)
    else held.delete(owner)
    const next = waiting.findIndex((w) => mayStart(w.owner))
    if (next < 0) return
    const [job] = waiting.splice(next, 1)
    take(job!.owner)
    job!.start()
  }
  return {
    /** Runs `job` once a slot is free for `owner`, and frees it after. */
    async run<T>(owner: string, job: () => Promise<T>): Promise<T> {
      if (mayStart(owner)) take(owner)
      else await new Promise<void>((start) => waiting.push({ owner, start }))
      try {
        return await job()
      } finally {
        release(owner)
      }
    },
  }
}
export type JobSlots = ReturnType<typeof jobSlots>
