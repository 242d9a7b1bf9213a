/**
 * Rows of the tables that issue writes leave alone (users and their tokens, groups, projects,
 * memberships), remembered while `version` stays: changes.ts moves it on every change but the
 * issue writes it is told about, so a renamed group, a new member or a revoked token counts from
 * the next read. Each access check reads the project, its namespace chain and the caller's
 * memberships; under a load of issue writes they were read again on every request. Rows come back
 * frozen: callers share them. Misses are not remembered; past `max` rows the cache starts over.
 * A NaN version (an open transaction) reads the store and remembers nothing.
 */
export function rowCache<K, V extends object>(
  version: () => number,
  load: (key: K) => V | undefined,
  max = 1000,
) {
  const rows = new Map<K, V>()
  let seen = -1
  const get = (key: K): V | undefined => {
    const current = version()
    if (Number.isNaN(current)) return load(key)
    if (current !== seen) {
      rows.clear()
      seen = current
    }
    let row = rows.get(key)
    if (row === undefined) {
      row = load(key)
      if (row === undefined) return undefined
      if (rows.size >= max) rows.clear()
      rows.set(key, Object.freeze(row))
    }
    return row
  }
  /** Drops the rows `test` picks (a write the version does not see changed them). */
  const forget = (test: (row: V) => boolean) => {
    for (const [key, row] of rows) if (test(row)) rows.delete(key)
  }
  return Object.assign(get, { forget })
}
