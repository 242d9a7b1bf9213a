import type { IssueQuery } from '../../store/issue-query.js'
import type { Store } from '../../store/index.js'
import { oldestKeys } from '../../domain/oldest-keys.js'

type Kept = { query: IssueQuery; n: number; cap: number }

/**
 * The capped counts behind a list's `X-Total`, kept per filter and moved along by each write to
 * single issues (src/server/store/changes.ts): before and after the write, each touched issue is
 * checked against every kept filter it may affect (`issueQueries.affects`), one row each, instead of counting up
 * to `cap` + 1 rows again. A change no write describes drops them all. At most `max` filters are
 * kept, least recently used out first.
 */
export function keptIssueCounts(store: Store, max = 64) {
  const queries = store.issueQueries
  const kept = new Map<string, Kept>()
  const oldestOf = oldestKeys<string>()
  /**
   * For the write under way: which of its issues each kept filter matched before it (ids, few:
   * a write names one issue or a handful, and this runs for every kept filter on every write).
   */
  const matchedBefore = new Map<Kept, number[]>()
  store.changes.listen({
    before(write) {
      matchedBefore.clear()
      for (const k of kept.values())
        if (queries.affects(k.query, write))
          matchedBefore.set(
            k,
            write.issues.filter((id) => queries.matches(k.query, id)),
          )
    },
    after(write) {
      const ids = write.issues
      for (const [key, k] of kept) {
        const before = matchedBefore.get(k)
        if (!before) continue
        let delta = 0
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i] as number
          if (ids.indexOf(id) === i)
            delta += (queries.matches(k.query, id) ? 1 : 0) - (before.includes(id) ? 1 : 0)
        }
        // Past the cap the true count is unknown: more issues leave it past the cap, fewer may
        // bring it back under, which only a fresh count can tell.
        if (delta < 0 && k.n > k.cap) kept.delete(key)
        else k.n = Math.min(k.n + delta, k.cap + 1)
      }
      matchedBefore.clear()
    },
    reset() {
      kept.clear()
      matchedBefore.clear()
    },
  })
  return {
    /** As `store.issueQueries.count`: matching rows, up to `cap` + 1. */
    count(q: IssueQuery, cap: number): number {
      store.changes.version() // notes changes made outside any write first
      const key = `${cap}\n${queries.filterKey(q)}`
      const hit = kept.get(key)
      if (hit) {
        kept.delete(key) // re-insert: the Map's order is our LRU order
        kept.set(key, hit)
        return hit.n
      }
      const n = queries.count(q, cap)
      if (kept.size >= max) kept.delete(oldestOf(kept) as string)
      kept.set(key, { query: q, n, cap })
      return n
    },
  }
}
export type KeptIssueCounts = ReturnType<typeof keptIssueCounts>
