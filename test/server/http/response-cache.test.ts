/*
 * A cached page of an issue list keeps its watch (src/server/http/response-cache.ts,
 * src/server/services/watched-issue-lists.ts) through writes that land after the watch began, even
 * those that land before the page reaches the cache: requestTurns runs a busy turn's requests one
 * after another, so a list answered in that turn is cached after the writes queued behind it ran.
 */
import { responseCache } from '../../../src/server/http/response-cache.js'
import { watchedIssueLists } from '../../../src/server/services/watched-issue-lists.js'
import { where, type IssueQuery } from '../../../src/server/store/issue-query.js'
import type { Store } from '../../../src/server/store/index.js'
import { storeWithIssues } from '../../support/seeded-store.js'

let store: Store
let projectId: number
let ids: number[]

beforeEach(() => {
  store = storeWithIssues(['one', 'two', 'three'])
  projectId = store.projects.byPath('root/app')!.id
  ids = [1, 2, 3].map((iid) => store.issues.byIid(projectId, iid)!.id)
})
afterEach(() => store.close())

const opened = (): IssueQuery => ({
  projectIds: [projectId],
  confidential: { all: true },
  where: [where.state('opened')],
  order: { by: 'created_at', dir: 'desc' },
})
/** A title edit, as the issues service writes it: told to the caches as a write to this issue only. */
const retitle = (id: number, title: string) =>
  store.changes.issueWrite({ projectId, issues: [id] }, () =>
    store.transaction(() => store.issues.update(id, { title })),
  )
const response = { body: Buffer.from('[]'), headers: { 'x-total': '2' } }

describe('a cached issue list page', () => {
  it('stays cached when a write to an issue off the page lands between its answer and the cache', () => {
    const cache = responseCache(store.changes)
    const lists = watchedIssueLists(store)
    const [first, second, third] = ids as [number, number, number]
    const current = cache.generation()
    const watch = lists.watch(opened(), [first, second])
    retitle(third, 'elsewhere')
    cache.set('page', current, response, [`project:${projectId}`], watch)
    expect(cache.get('page')).toBe(response)
    // A later write to an issue it shows drops it.
    retitle(first, 'changed')
    expect(cache.get('page')).toBeUndefined()
  })

  it('is not cached when a write in that window changed an issue it shows', () => {
    const cache = responseCache(store.changes)
    const lists = watchedIssueLists(store)
    const [first, second] = ids as [number, number]
    const current = cache.generation()
    const watch = lists.watch(opened(), [first, second])
    retitle(second, 'changed')
    cache.set('page', current, response, [`project:${projectId}`], watch)
    expect(cache.get('page')).toBeUndefined()
  })

  it('falls back to its scopes when a write landed before its watch began', () => {
    const cache = responseCache(store.changes)
    const lists = watchedIssueLists(store)
    const [first, second, third] = ids as [number, number, number]
    const current = cache.generation()
    // The write was not checked against the page: the project's write since `current` makes it stale.
    retitle(third, 'elsewhere')
    const watch = lists.watch(opened(), [first, second])
    cache.set('page', current, response, [`project:${projectId}`], watch)
    expect(cache.get('page')).toBeUndefined()
    // With no write in between, the same page stays.
    const now = cache.generation()
    cache.set('page', now, response, [`project:${projectId}`], lists.watch(opened(), [first, second]))
    expect(cache.get('page')).toBe(response)
  })
})
