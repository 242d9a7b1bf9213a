/*
 * What a rolled-back transaction leaves in the store's caches: nothing. The kept list counts
 * (services/issues/counts.ts) follow issue writes one by one, and the row caches (store/row-cache.ts)
 * remember users, tokens and projects; a write undone by a rollback leaves SQLite's
 * `total_changes()` where it took it, so neither may keep what they heard inside the transaction.
 */
import { keptIssueCounts } from '../../../src/server/services/issues/counts.js'
import { watchedIssueLists } from '../../../src/server/services/watched-issue-lists.js'
import { applySeed } from '../../../src/server/services/seed.js'
import type { IssueQuery } from '../../../src/server/store/issue-query.js'
import { where } from '../../../src/server/store/issue-query.js'
import { openStore, type Store } from '../../../src/server/store/index.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const clock = { now: () => new Date('2026-01-01T00:00:00Z') }
let store: Store

beforeEach(() => {
  store = openStore(':memory:')
  applySeed(
    store,
    {
      users: [
        { username: 'root', name: 'Root', email: 'root@example.com', admin: true, token: 'glpat-root' },
      ],
      groups: [{ path: 'acme', name: 'ACME', visibility: 'private' }],
      projects: [
        {
          path: 'acme/widgets',
          name: 'Widgets',
          visibility: 'private',
          issues: [
            { title: 'one', author: 'root' },
            { title: 'two', author: 'root' },
          ],
        },
      ],
    },
    clock,
  )
})
afterEach(() => store.close())

const later = new Error('a later step of the transaction fails')
const project = () => store.projects.byPath('acme/widgets')!
const openedIn = (projectId: number): IssueQuery => ({
  projectIds: [projectId],
  confidential: { all: true },
  where: [where.state('opened')],
  order: { by: 'id', dir: 'desc' },
})

describe('kept issue counts', () => {
  it('forget an issue write whose outer transaction rolls back', () => {
    const counts = keptIssueCounts(store)
    const { id: projectId } = project()
    const issue = store.issues.byIid(projectId, 1)!
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)

    expect(() =>
      store.transaction(() => {
        store.changes.issueWrite({ projectId, issues: [issue.id] }, () =>
          store.transaction(() => store.issues.update(issue.id, { state: 'closed' })),
        )
        expect(counts.count(openedIn(projectId), 10_000)).toBe(1) // inside: the write is there
        throw later
      }),
    ).toThrow(later)

    expect(store.issues.get(issue.id)?.state).toBe('opened')
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)
  })

  it('follow an issue write that commits', () => {
    const counts = keptIssueCounts(store)
    const { id: projectId } = project()
    const issue = store.issues.byIid(projectId, 2)!
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)
    store.changes.issueWrite({ projectId, issues: [issue.id] }, () =>
      store.transaction(() => store.issues.update(issue.id, { state: 'closed' })),
    )
    expect(counts.count(openedIn(projectId), 10_000)).toBe(1)
  })
})

describe('issue places read around writes (store/issue-query.ts)', () => {
  it('are not remembered past a rollback, which moves no write counter', () => {
    const counts = keptIssueCounts(store)
    const { id: projectId } = project()
    const issue = store.issues.byIid(projectId, 1)!
    const write = (changes: Parameters<Store['issues']['update']>[1]) =>
      store.changes.issueWrite({ projectId, issues: [issue.id] }, () =>
        store.transaction(() => store.issues.update(issue.id, changes)),
      )
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)
    expect(() =>
      store.transaction(() => {
        write({ state: 'closed' }) // read after it: out of the list
        throw later
      }),
    ).toThrow(later)
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)
    // Open all along: a rename moves no issue in or out of the list.
    write({ title: 'renamed' })
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)
  })
})

describe('kept issue counts past their cap', () => {
  it('stay uncounted as issues enter the list, and count again once one leaves', () => {
    const counts = keptIssueCounts(store)
    const { id: projectId } = project()
    const [one, two] = [1, 2].map((iid) => store.issues.byIid(projectId, iid)!)
    const recount = jest.spyOn(store.issueQueries, 'count')
    const setState = (issue: typeof one, state: 'opened' | 'closed') =>
      store.changes.issueWrite({ projectId, issues: [issue!.id] }, () =>
        store.transaction(() => store.issues.update(issue!.id, { state })),
      )
    // A cap of 0: any open issue is past it, and the count says 1 (cap + 1).
    expect(counts.count(openedIn(projectId), 0)).toBe(1)
    setState(two, 'closed') // one leaves: only a fresh count tells whether any is left
    expect(counts.count(openedIn(projectId), 0)).toBe(1)
    expect(recount).toHaveBeenCalledTimes(2)
    setState(two, 'opened') // one enters: still past the cap, nothing to count
    expect(counts.count(openedIn(projectId), 0)).toBe(1)
    expect(recount).toHaveBeenCalledTimes(2)
    setState(one, 'closed')
    setState(two, 'closed')
    expect(counts.count(openedIn(projectId), 0)).toBe(0)
    expect(recount).toHaveBeenCalledTimes(3)
  })
})

describe('watched issue list pages', () => {
  it('turn stale when a write to another issue of their list rolls back with its outer transaction', () => {
    const lists = watchedIssueLists(store)
    const { id: projectId } = project()
    const [one, two] = [1, 2].map((iid) => store.issues.byIid(projectId, iid)!)
    // A page showing issue two only; issue one's title is not on it and moves nothing.
    const page = lists.watch(openedIn(projectId), [two!.id])
    store.changes.issueWrite({ projectId, issues: [one!.id] }, () =>
      store.transaction(() => store.issues.update(one!.id, { title: 'renamed' })),
    )
    expect(page.stale).toBe(false)
    // Undone later, the write may have been told already: nothing a list holds can be trusted.
    expect(() =>
      store.transaction(() => {
        store.changes.issueWrite({ projectId, issues: [one!.id] }, () =>
          store.transaction(() => store.issues.update(one!.id, { title: 'undone' })),
        )
        throw later
      }),
    ).toThrow(later)
    store.changes.version()
    expect(page.stale).toBe(true)
  })

  it('turn stale when a written issue is on them, or leaves their list', () => {
    const lists = watchedIssueLists(store)
    const { id: projectId } = project()
    const [one, two] = [1, 2].map((iid) => store.issues.byIid(projectId, iid)!)
    const showsTwo = lists.watch(openedIn(projectId), [two!.id])
    const showsOne = lists.watch(openedIn(projectId), [one!.id])
    store.changes.issueWrite({ projectId, issues: [two!.id] }, () =>
      store.transaction(() => store.issues.update(two!.id, { title: 'renamed' })),
    )
    expect([showsTwo.stale, showsOne.stale]).toEqual([true, false])
    const again = lists.watch(openedIn(projectId), [two!.id])
    store.changes.issueWrite({ projectId, issues: [one!.id] }, () =>
      store.transaction(() => store.issues.update(one!.id, { state: 'closed' })),
    )
    expect([again.stale, showsOne.stale]).toEqual([true, true])
  })
})

describe('row caches', () => {
  it('do not remember a token read inside a transaction that rolls back', () => {
    const root = store.users.byUsername('root')!
    expect(() =>
      store.transaction(() => {
        store.users.addToken(root.id, 'glpat-undone', 'undone', clock.now().toISOString())
        expect(store.users.tokenOwner('glpat-undone')?.user.id).toBe(root.id)
        throw later
      }),
    ).toThrow(later)
    expect(store.users.tokenOwner('glpat-undone')).toBeUndefined()
    expect(store.users.tokenOwner('glpat-root')?.user.id).toBe(root.id)
  })
})

describe('a held transaction rolled back (an in-memory store reset, store/sqlite.ts `hold`)', () => {
  it('leaves nothing in the kept counts, the watched pages or the row caches', () => {
    const db = inspectDb(store)
    db.hold()
    const counts = keptIssueCounts(store)
    const lists = watchedIssueLists(store)
    const { id: projectId } = project()
    const issue = store.issues.byIid(projectId, 1)!
    const root = store.users.byUsername('root')!
    // Each write committed inside the held transaction, and read back into the caches.
    store.changes.issueWrite({ projectId, issues: [issue.id] }, () =>
      store.transaction(() => store.issues.update(issue.id, { state: 'closed' })),
    )
    store.transaction(() =>
      store.users.addToken(root.id, 'glpat-undone', 'undone', clock.now().toISOString()),
    )
    expect(counts.count(openedIn(projectId), 10_000)).toBe(1)
    expect(store.users.tokenOwner('glpat-undone')?.user.id).toBe(root.id)
    const page = lists.watch(openedIn(projectId), [store.issues.byIid(projectId, 2)!.id])

    db.rollBackHeld()
    expect(store.issues.get(issue.id)?.state).toBe('opened')
    expect(counts.count(openedIn(projectId), 10_000)).toBe(2)
    expect(store.users.tokenOwner('glpat-undone')).toBeUndefined()
    store.changes.version()
    expect(page.stale).toBe(true)
  })
})
