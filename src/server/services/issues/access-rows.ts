import type { IssueAccessRow } from '../../store/issues.js'
import type { Store } from '../../store/index.js'
import { oldestKeys } from '../../domain/oldest-keys.js'

/**
 * The rows an issue read checks access with and time stats answer from (`IssueAccessRow`), kept
 * by project and iid, so that a read answered from kept JSON (fragments.ts) reads no row at all
 * (this lookup was the only one it made, and time_stats' only one). Its columns change only
 * through writes that name the issue (src/server/store/changes.ts: it is dropped after each) or
 * through changes no write describes (everything is dropped). At most `max` rows, the first kept
 * out first.
 */
export function keptAccessRows(store: Store, max = 16_384) {
  const rows = new Map<string, IssueAccessRow>()
  /** Each kept row's key, by issue id: writes name issues by id. */
  const keys = new Map<number, string>()
  const oldestOf = oldestKeys<string>()
  const forget = (key: string) => {
    const row = rows.get(key)
    if (!row) return
    rows.delete(key)
    keys.delete(row.id)
  }
  store.changes.listen({
    before() {},
    after(write) {
      for (const id of write.issues) {
        const key = keys.get(id)
        if (key !== undefined) forget(key)
      }
    },
    reset() {
      rows.clear()
      keys.clear()
    },
  })
  return {
    /** As `store.issues.accessByIid`. */
    byIid(projectId: number, iid: number): IssueAccessRow | undefined {
      store.changes.version() // notes changes made outside any write first
      const key = `${projectId}/${iid}`
      const kept = rows.get(key)
      if (kept) return kept
      const row = store.issues.accessByIid(projectId, iid)
      if (!row) return undefined
      if (rows.size >= max) forget(oldestOf(rows) as string)
      rows.set(key, row)
      keys.set(row.id, key)
      return row
    },
  }
}
export type KeptAccessRows = ReturnType<typeof keptAccessRows>
