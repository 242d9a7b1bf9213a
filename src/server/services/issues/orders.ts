import { KEYSET_ORDERS, type IssueQuery } from '../../store/issue-query.js'
import type { Store } from '../../store/index.js'
import { oldestKeys } from '../../domain/oldest-keys.js'

type Row = { id: number; key: string }
/** `ids`: those of `rows`, to tell at once that a written issue is not among them. */
type Kept = { query: IssueQuery; rows: Row[]; ids: Set<number>; complete: boolean }

/** A UTF-16 code unit moved so that units compare in code point order (surrogates above the BMP). */
const codePointOrder = (unit: number) =>
  unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit
/** SQLite's BINARY order of two texts: their UTF-8 bytes, which is code point order. */
function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return codePointOrder(x) - codePointOrder(y)
  }
  return a.length - b.length
}

/**
 * The first rows of issue lists in their order (ids and order keys), kept per filter and order and
 * moved along by each write to single issues, so that a page of a list read again after a write
 * is a slice instead of a query reading the list's index up to the page's end. A write changes a
 * list only through the issues it names (src/server/services/watched-issue-lists.ts says why):
 * after it, each written issue's place in each kept list it may affect (`issueQueries.affects`;
 * its order key, or none) is read, one row each, and the issue is taken out of the kept rows and put back where its key
 * now sorts, when that is among them (the kept rows stay the list's first ones: an issue that sorts
 * after them may have others before it). A change no write describes drops them all.
 *
 * Kept for the orders by one text column then id descending (`KEYSET_ORDERS`), whose keys compare
 * here as SQLite compares them; pages ending past `depth` rows, and other orders, are queried.
 * At most `maxLists` lists are kept, least recently used out first.
 */
export function keptIssueOrders(store: Store, maxLists = 32, depth = 500) {
  const queries = store.issueQueries
  const kept = new Map<string, Kept>()
  const oldestOf = oldestKeys<string>()
  /** Whether row `a` comes before `b` in the list. */
  const before = (q: IssueQuery, a: Row, b: Row) => {
    const c = compareText(a.key, b.key)
    return c === 0 ? a.id > b.id : q.order.dir === 'asc' ? c < 0 : c > 0
  }
  const move = (k: Kept, id: number) => {
    const place = queries.position(k.query, id)
    const key = place === undefined ? undefined : ((JSON.parse(place) as unknown[])[0] as string)
    if (k.ids.has(id)) {
      const at = k.rows.findIndex((r) => r.id === id)
      if (k.rows[at]?.key === key) return
      if (at >= 0) k.rows.splice(at, 1)
      k.ids.delete(id)
    }
    if (key === undefined) return
    const row = { id, key }
    // The first kept row that comes after it (the rows are in order).
    let lo = 0
    let hi = k.rows.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (before(k.query, row, k.rows[mid] as Row)) hi = mid
      else lo = mid + 1
    }
    if (lo === k.rows.length && !k.complete) return
    k.rows.splice(lo, 0, row)
    k.ids.add(id)
    if (k.rows.length > depth) {
      k.ids.delete((k.rows.pop() as Row).id)
      k.complete = false
    }
  }
  store.changes.listen({
    before() {},
    after(write) {
      const ids = write.issues
      for (const k of kept.values())
        if (queries.affects(k.query, write))
          // Each issue once (no Set: this runs for every kept list on every write).
          for (let i = 0; i < ids.length; i++)
            if (ids.indexOf(ids[i] as number) === i) move(k, ids[i] as number)
    },
    reset() {
      kept.clear()
    },
  })
  return {
    /** As `store.issueQueries.pageIds`: the ids of `limit` rows from `offset`, in order. */
    pageIds(q: IssueQuery, limit: number, offset: number): number[] {
      const end = offset + limit
      if (!KEYSET_ORDERS.has(q.order.by) || end > depth) return queries.pageIds(q, limit, offset)
      store.changes.version() // notes changes made outside any write first
      const key = `${queries.filterKey(q)}\n${q.order.by} ${q.order.dir}`
      const k = kept.get(key)
      if (k && (k.complete || k.rows.length >= end)) {
        kept.delete(key) // re-insert: the Map's order is our LRU order
        kept.set(key, k)
        return k.rows.slice(offset, end).map((r) => r.id)
      }
      // Whole hundreds, so that the next pages of a list are kept along with this one.
      const n = Math.min(depth, Math.ceil(end / 100) * 100)
      const rows = queries.keysetPage(q, n, null)
      kept.delete(key)
      if (kept.size >= maxLists) kept.delete(oldestOf(kept) as string)
      kept.set(key, { query: q, rows, ids: new Set(rows.map((r) => r.id)), complete: rows.length < n })
      return rows.slice(offset, end).map((r) => r.id)
    },
  }
}
export type KeptIssueOrders = ReturnType<typeof keptIssueOrders>
