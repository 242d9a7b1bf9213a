import type { IssueRow } from '../store/issues.js'
import type { Store } from '../store/index.js'

/**
 * The JSON of issue records, kept per issue and view (a list's, or a single read's), so that a list
 * page whose cached answer went stale (a create shifts every page of its lists) is put together from
 * its issues' kept JSON, and an issue read again is sent as it was, instead of loading, presenting
 * and serialising them again.
 *
 * A record shows its own row, labels, assignees, notes and timelogs, which only a write naming
 * the issue changes (src/server/store/changes.ts: its JSON is dropped after it), and users,
 * labels, milestones, projects and epics, which change only outside such writes (everything is
 * dropped). The exception is a record linking its canonical issue (`closed_as_duplicate_of`),
 * which shows whether the caller may read another issue: never kept. `view` must name everything
 * else the JSON depends on (caller, where the list was read from, label details, day). At most
 * `max` records are kept, the first kept out first.
 */
export function issueFragments(store: Store, max = 16_384) {
  /**
   * UTF-8 JSON by view, then by issue id: bytes, which a page copies as they are, where the
   * serialiser's strings are ropes that every join and socket write walks again. One map per view
   * (a few) and none per issue, so that a kept record costs the collector one object.
   */
  const kept = new Map<string, Map<number, Buffer>>()
  let size = 0
  const forget = (id: number) => {
    for (const byId of kept.values()) if (byId.delete(id)) size--
  }
  const keep = (id: number, view: string, json: Buffer) => {
    let byId = kept.get(view)
    if (!byId) kept.set(view, (byId = new Map()))
    if (!byId.has(id)) size++
    byId.set(id, json)
    // The first kept out first, the views kept first (an earlier day's) before the others.
    while (size > max) {
      const [firstView, first] = kept.entries().next().value as [string, Map<number, Buffer>]
      const oldest = first.keys().next()
      if (oldest.done) kept.delete(firstView)
      else {
        first.delete(oldest.value)
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
     * The JSON of the issues `ids` in `view` as UTF-8, in order: kept ones as they are, the others
     * made by `present` (one JSON text per row, in the rows' order) from their rows, which `load`
     * reads (by id, unless the caller has them). Ids of issues that no longer exist are left out.
     */
    json(
      ids: number[],
      view: string,
      present: (rows: IssueRow[]) => string[],
      load: (ids: number[]) => IssueRow[] = store.issues.getMany,
    ): Buffer[] {
      store.changes.version() // notes changes made outside any write first
      const byId = kept.get(view)
      const found = new Map<number, Buffer>()
      const missing: number[] = []
      for (const id of ids) {
        const json = byId?.get(id)
        if (json === undefined) missing.push(id)
        else found.set(id, json)
      }
      if (missing.length > 0) {
        const rows = load(missing)
        const made = present(rows)
        rows.forEach((row, i) => {
          const json = ownBytes(made[i] as string)
          found.set(row.id, json)
          if (row.duplicated_to_id === null) keep(row.id, view, json)
        })
      }
      return ids.flatMap((id) => found.get(id) ?? [])
    },
  }
}
export type IssueFragments = ReturnType<typeof issueFragments>

/**
 * UTF-8 bytes in memory of their own. `Buffer.from` cuts small Buffers from Node's shared pool
 * (64 KiB slabs), where each request's short-lived Buffers are cut too: a kept record held its
 * whole slab, and a busy server's 16,384 records held 280 MB of ArrayBuffers (and growing).
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
  bytes.write(text)
  return bytes
}
