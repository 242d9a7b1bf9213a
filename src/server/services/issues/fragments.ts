import type { IssueRow } from '../../store/issues.js'
import type { Store } from '../../store/index.js'
import { oldestKeys } from '../../domain/oldest-keys.js'

/**
 * The JSON of issue records, kept per issue and view (a list's, or a single read's), so that a list
 * page whose cached answer went stale (a create shifts every page of its lists) is put together from
 * its issues' kept JSON, and an issue read again is sent as it was, instead of loading, presenting
 * and serialising them again.
 *
 * A record shows its own row, labels, assignees, notes and timelogs, which only a write naming
 * the issue changes (src/server/store/changes.ts: its JSON is dropped after it), and users,
 * labels, milestones, projects and epics, which change only outside such writes (everything is
 * dropped). The exceptions show other issues: a record linking its canonical issue
 * (`closed_as_duplicate_of`, whether the caller may read it) and one of an issue that blocks
 * others (`blocking_issues_count` counts those open): never kept (`keepable`). `view` must name everything
 * else the JSON depends on (caller, where the list was read from, label details, day). At most
 * `max` records are kept, the first kept out first.
 */
export function issueFragments(store: Store, max = 16_384) {
  /**
   * JSON by view, then by issue id, each one flat string (`flat`). Not Buffers: their memory lies
   * outside the heap, where what a write drops is freed only by a full collection, and under
   * writes V8 started those twice as often (mark-compacts per 10,000 requests of the mixed load:
   * 1.4-1.5 with Buffers of their own, 0.4-0.8 with strings). One map per view (a few) and none
   * per issue, so that a kept record costs the collector one object.
   */
  const kept = new Map<string, Map<number, string>>()
  const oldestOf = oldestKeys<number>()
  let size = 0
  const forget = (id: number) => {
    for (const byId of kept.values()) if (byId.delete(id)) size--
  }
  const keep = (id: number, view: string, json: string) => {
    let byId = kept.get(view)
    if (!byId) kept.set(view, (byId = new Map()))
    if (!byId.has(id)) size++
    byId.set(id, json)
    // The first kept out first, the views kept first (an earlier day's) before the others.
    while (size > max) {
      const [firstView, first] = kept.entries().next().value as [string, Map<number, string>]
      const oldest = oldestOf(first)
      if (oldest === undefined) kept.delete(firstView)
      else {
        first.delete(oldest)
        size--
      }
    }
  }
  store.changes.listen({
    before() {},
    after(write) {
      for (const id of write.issues) forget(id)
    },
    reset() {
      kept.clear()
      size = 0
    },
  })
  return {
    /**
     * The JSON of the issues `ids` in `view`, in order: kept ones as they are, the others
     * made by `present` (one JSON text per row, in the rows' order) from their rows, which `load`
     * reads (by id, unless the caller has them). Ids of issues that no longer exist are left out.
     */
    json(
      ids: number[],
      view: string,
      present: (rows: IssueRow[]) => string[],
      load: (ids: number[]) => IssueRow[] = store.issues.getMany,
    ): string[] {
      store.changes.version() // notes changes made outside any write first
      const byId = kept.get(view)
      // All kept (a read again, a page again): their JSON at once, with no map of what was found.
      if (byId && ids.every((id) => byId.has(id))) return ids.map((id) => byId.get(id) as string)
      const found = new Map<number, string>()
      const missing: number[] = []
      for (const id of ids) {
        const json = byId?.get(id)
        if (json === undefined) missing.push(id)
        else found.set(id, json)
      }
      if (missing.length > 0) {
        const rows = load(missing)
        const made = present(rows)
        const blockers = store.issueLinks.blockers(rows.map((r) => r.id))
        rows.forEach((row, i) => {
          const json = flat(made[i] as string)
          found.set(row.id, json)
          if (row.duplicated_to_id === null && !blockers.has(row.id)) keep(row.id, view, json)
        })
      }
      return ids.flatMap((id) => found.get(id) ?? [])
    },
    /** Whether the record of `row` may be kept (it shows no other issue). */
    keepable: (row: IssueRow) =>
      row.duplicated_to_id === null && store.issueLinks.blockers([row.id]).size === 0,
    /** Keeps `json` as the issue's JSON in `view`: what a write answered, for the next read. */
    keep(id: number, view: string, json: string): void {
      store.changes.version() // as json() does: changes made outside any write drop all first
      keep(id, view, flat(json))
    },
  }
}
export type IssueFragments = ReturnType<typeof issueFragments>

/**
 * The serialiser's JSON as one sequential string. Its output is a rope (a tree of a hundred or
 * more pieces per record), which kept would be that many objects for every full collection to
 * mark; decoding its bytes makes a flat copy (the bytes are garbage at once).
 */
const flat = (json: string) => Buffer.from(json).toString()
