import type { Db } from './db.js'

/** A write to one project's issues: `issues` lists the ids it changed (a created issue's id once it exists). */
export interface IssueWrite {
  projectId: number
  /**
   * Further projects whose issues `issues` names too (a link across projects changes both sides):
   * their lists are dropped as `projectId`'s are.
   */
  otherProjectIds?: readonly number[]
  issues: number[]
  /**
   * The only columns of the issues' rows it changes, when it says (besides their notes and
   * timelogs, which no issue list filters or orders by): a list whose filter and order read none
   * of them cannot see its issues move (`issueQueries.affects`).
   */
  onlyColumns?: readonly string[]
}

/** Whether the write names an issue of one of these projects (`projectIds` of a list's query). */
export const writesToAny = (write: IssueWrite, projectIds: readonly number[]): boolean =>
  projectIds.includes(write.projectId) ||
  (write.otherProjectIds !== undefined && write.otherProjectIds.some((id) => projectIds.includes(id)))

/** What a cache that can follow single writes hears from the tracker. */
export interface ChangeListener {
  /** Before `write` runs: the rows it names are still as they were. */
  before(write: IssueWrite): void
  /** After it ran (committed or rolled back). */
  after(write: IssueWrite): void
  /** Something changed that no write described: everything may be stale. */
  reset(): void
}

/**
 * Tells caches what changed in the store, so that a write to one project leaves the others'
 * entries alone. Writes wrapped in `issueWrite` name their project; any other change is seen
 * through SQLite's `total_changes()` on our one connection (API, jobs, seed, reset) and counts as
 * a change to everything, so an unwrapped write can never leave a cache stale.
 *
 * Versions are one counter: `version()` is the store's state now, and a scope (`project:<id>`,
 * `group:<full path>`, `*` for every project) is unchanged since `v` when its last write is older.
 */
export function storeChanges(db: Db, changeCount: () => number) {
  const pathOf = db.prepare('SELECT full_path FROM projects WHERE id = ?').pluck()
  let seen = changeCount()
  let version = 0
  let everythingAt = 0
  const scopeAt = new Map<string, number>()
  const listeners: ChangeListener[] = []
  /** Each written project's scopes, until a change to everything (a move or rename is one). */
  const scopesOf = new Map<number, string[]>()
  const projectScopes = (projectId: number) => {
    let scopes = scopesOf.get(projectId)
    if (scopes === undefined) {
      const path = pathOf.get(projectId) as string | undefined
      if (path !== undefined) scopesOf.set(projectId, (scopes = issueScopes(projectId, path)))
    }
    return scopes
  }
  /** The scopes of every project the write names; undefined when one of them is gone. */
  const writtenScopes = (write: IssueWrite) => {
    const first = projectScopes(write.projectId)
    if (write.otherProjectIds === undefined || first === undefined) return first
    const all = [...first]
    for (const id of write.otherProjectIds) {
      const scopes = projectScopes(id)
      if (scopes === undefined) return undefined
      all.push(...scopes)
    }
    return all
  }
  // A rollback may undo what a finished issue write told the listeners (a write inside an outer
  // transaction that fails later), or what a cache read inside the transaction: everything is stale.
  db.onRollback(() => {
    seen = -1
  })
  let depth = 0
  let nested = false
  /** The issue write under way began with no transaction open (its reads see only committed rows). */
  let writeOutsideTransaction = false
  /** Notes changes made since we last looked as changes to everything. */
  const catchUp = () => {
    const n = changeCount()
    if (n === seen) return
    seen = n
    everythingAt = ++version
    scopeAt.clear()
    scopesOf.clear()
    for (const l of listeners) l.reset()
  }
  return {
    /** The store's version now; an answer made from it stays valid while its scopes are unchanged. */
    version(): number {
      catchUp()
      return version
    },
    /**
     * Moves with every change but the issue writes `issueWrite` ran: what those leave alone (users,
     * tokens, groups, memberships, projects but for their `touch`) is valid while it stays. NaN
     * inside any other open transaction: what it reads there may yet be rolled back, which
     * `total_changes()` never shows, so it must not be remembered.
     */
    structureVersion(): number {
      // Inside an issue write the rows it has written so far are its own, not a change to everything.
      if (depth > 0) return writeOutsideTransaction ? everythingAt : NaN
      if (db.inTransaction) return NaN
      catchUp()
      return everythingAt
    },
    /** True when nothing under these scopes changed after version `since`. */
    unchangedSince(since: number, scopes: readonly string[]): boolean {
      catchUp()
      if (everythingAt > since) return false
      return scopes.every((s) => (scopeAt.get(s) ?? 0) <= since)
    },
    listen(listener: ChangeListener): void {
      listeners.push(listener)
    },
    /**
     * Runs `fn`, a write that changes only these issues of one project (their rows, labels,
     * assignees, notes, timelogs): caches of other projects keep their entries. A write that may
     * reach further (quick actions, moves) must not use it.
     */
    issueWrite<T>(write: IssueWrite, fn: () => T): T {
      // One inside another: the outer one's account would miss the inner's rows, so the pair is
      // left to `total_changes()` and counts as a change to everything.
      if (depth > 0) {
        nested = true
        return fn()
      }
      catchUp()
      for (const l of listeners) l.before(write)
      writeOutsideTransaction = !db.inTransaction
      depth++
      try {
        return fn()
      } finally {
        depth--
        const scopes = writtenScopes(write)
        if (nested || scopes === undefined) {
          nested = false
          seen = -1
          catchUp()
        } else {
          seen = changeCount()
          const at = ++version
          for (const scope of scopes) scopeAt.set(scope, at)
          for (const l of listeners) l.after(write)
        }
      }
    },
    /**
     * Runs `fn`, a write to rows that no cache keeps and no cached answer shows (label
     * subscriptions: only label records, which are never cached, read them): the caches hear
     * nothing of it. A rollback still counts as a change to everything.
     */
    uncachedWrite<T>(fn: () => T): T {
      // Inside an issue write its own account takes these rows along.
      if (depth > 0) return fn()
      catchUp() // what came before is a change of its own
      try {
        return fn()
      } finally {
        if (seen !== -1) seen = changeCount()
      }
    },
  }
}
export type StoreChanges = ReturnType<typeof storeChanges>

/**
 * SQLite's `total_changes()` on the store's one connection: rows written so far by anything (API,
 * jobs, seed, reset), plus one for each rollback (a reset of an in-memory store is one: it
 * changes what the store holds but leaves `total_changes()` where it was). Caches compare it to
 * tell whether the store may have changed since they looked.
 */
export function changeCounter(db: Db): () => number {
  const totalChanges = db.prepare('SELECT total_changes()').pluck()
  // Asked once per call that may have written: a cached read asks on every request, 2-6 times.
  let askedAt = -1
  let count = 0
  let rollbacks = 0
  db.onRollback(() => void rollbacks++)
  return () => {
    if (db.writes !== askedAt) {
      askedAt = db.writes
      count = totalChanges.get() as number
    }
    return count + rollbacks
  }
}

/**
 * The lists that hold a project's issues: its own, each ancestor group's (a group's list takes
 * the projects under its path, as `readableProjects` does) and the global one.
 */
export function issueScopes(projectId: number, fullPath: string): string[] {
  const parts = fullPath.toLowerCase().split('/').slice(0, -1)
  return ['*', `project:${projectId}`, ...parts.map((_, i) => `group:${parts.slice(0, i + 1).join('/')}`)]
}
