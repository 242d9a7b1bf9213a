import type { IssueQuery } from '../store/issue-query.js'
import { writesToAny, type IssueWrite } from '../store/changes.js'
import type { Store } from '../store/index.js'

/** A cached answer's claim on one page of an issue list: `stale` once a write may have changed it. */
export interface ListWatch {
  readonly stale: boolean
  /** The store's version when the watch began: every write after it is checked against the page. */
  readonly since: number
  /** The answer left the cache: writes need no longer be checked against it. */
  release(): void
}

type Watcher = { ids: Set<number>; stale: boolean }
type Group = { query: IssueQuery; watchers: Set<Watcher> }

/**
 * Lets a cached page of an issue list outlive writes that cannot have changed it, where dropping
 * every list of the project on each write would make nearly every list a miss under writes.
 * A write to single issues (`issueWrite`, src/server/store/changes.ts) changes a page only when
 * one of its issues is on the page, or entered or left the list's filter, or moved in its order:
 * the rest of what a page shows comes from its own issues' rows, labels, assignees, notes and
 * timelogs, which only a write naming them changes, and its totals move only with the filter's
 * members. So each written issue's place in each watched list (its order key, or none) is read
 * before and after the write, one row each, unless the write changes no column the list reads
 * (`issueQueries.affects`); a change of place drops every page of that list, a page showing the
 * issue is dropped alone. A change no write describes drops them all. At most
 * `maxLists` lists are watched, least recently watched out first (their pages turn stale).
 */
export function watchedIssueLists(store: Store, maxLists = 32) {
  const queries = store.issueQueries
  const lists = new Map<string, Group>()
  /**
   * For the write under way: each written issue's place in each watched list before it, in the
   * order of `write.issues` (an array, not a Map by id: this runs for every watched list on every write).
   */
  const placesBefore = new Map<Group, (string | undefined)[]>()
  const covers = (q: IssueQuery, write: IssueWrite) =>
    q.projectIds === null || writesToAny(write, q.projectIds)
  // Loops, not closures: these run for every watched list and page on every write.
  const moved = (g: Group, ids: number[], before: (string | undefined)[]) => {
    for (let i = 0; i < ids.length; i++)
      if (queries.position(g.query, ids[i] as number) !== before[i]) return true
    return false
  }
  const showsAny = (w: Watcher, ids: number[]) => {
    for (const id of ids) if (w.ids.has(id)) return true
    return false
  }
  const drop = (key: string, group: Group) => {
    for (const w of group.watchers) w.stale = true
    lists.delete(key)
  }
  store.changes.listen({
    before(write) {
      placesBefore.clear()
      for (const g of lists.values())
        if (queries.affects(g.query, write))
          placesBefore.set(
            g,
            write.issues.map((id) => queries.position(g.query, id)),
          )
    },
    after(write) {
      const ids = write.issues
      for (const [key, g] of lists) {
        if (!covers(g.query, write)) continue
        // Unaffected lists keep their places; a created issue was in no list before the write
        // (its id is not among those `before` saw: a create names it only once it is made).
        const before = placesBefore.get(g)
        if (before && moved(g, ids, before)) drop(key, g)
        else
          for (const w of g.watchers)
            if (showsAny(w, ids)) {
              w.stale = true
              g.watchers.delete(w)
            }
      }
      placesBefore.clear()
    },
    reset() {
      for (const [key, g] of lists) drop(key, g)
      placesBefore.clear()
    },
  })
  return {
    /** Watches the page of `query` that shows these issues (ids in any order). */
    watch(query: IssueQuery, ids: number[]): ListWatch {
      const since = store.changes.version() // notes changes made outside any write first
      const key = `${queries.filterKey(query)}\n${query.order.by} ${query.order.dir}`
      let group = lists.get(key)
      if (group) {
        lists.delete(key) // re-insert: the Map's order is our LRU order
        lists.set(key, group)
      } else {
        if (lists.size >= maxLists) {
          const oldest = lists.entries().next().value as [string, Group]
          drop(...oldest)
        }
        lists.set(key, (group = { query, watchers: new Set() }))
      }
      const watcher: Watcher = { ids: new Set(ids), stale: false }
      group.watchers.add(watcher)
      const watched = group
      return {
        since,
        get stale() {
          return watcher.stale
        },
        release() {
          watched.watchers.delete(watcher)
          if (watched.watchers.size === 0 && lists.get(key) === watched) lists.delete(key)
        },
      }
    },
  }
}
export type WatchedIssueLists = ReturnType<typeof watchedIssueLists>
