/*
 * The kept first rows of issue lists (src/server/services/issues/orders.ts) hold at most `depth`
 * rows: past it the last goes, and the rows no longer reach the list's end, so that a page past
 * them is read again once an issue leaves them.
 */
import { keptIssueOrders } from '../../../../src/server/services/issues/orders.js'
import { where, type IssueQuery } from '../../../../src/server/store/issue-query.js'
import type { Store } from '../../../../src/server/store/index.js'
import { storeWithIssues } from '../../../support/seeded-store.js'

let store: Store

beforeEach(() => {
  store = storeWithIssues([])
})
afterEach(() => store.close())

describe('kept issue list orders', () => {
  it('hold at most `depth` rows, and read a page past them again once one leaves', () => {
    const projectId = store.projects.byPath('root/app')!.id
    const author = store.users.byUsername('root')!.id
    const opened: IssueQuery = {
      projectIds: [projectId],
      confidential: { all: true },
      where: [where.state('opened')],
      order: { by: 'created_at', dir: 'desc' },
    }
    let n = 0
    const create = () => {
      const write = { projectId, issues: [] as number[] }
      store.changes.issueWrite(write, () =>
        store.transaction(() => {
          n++
          const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString()
          const id = store.issues.insert({
            iid: n,
            project_id: projectId,
            title: `${n}`,
            description: null,
            state: 'opened',
            author_id: author,
            created_at: at,
            updated_at: at,
            milestone_id: null,
            epic_id: null,
            confidential: 0,
            discussion_locked: null,
            issue_type: 'issue',
            due_date: null,
            time_estimate: 0,
            total_time_spent: 0,
            weight: null,
            tasks_total: 0,
            tasks_done: 0,
            relative_position: null,
            closed_at: null,
            closed_by_id: null,
            user_agent: null,
            ip_address: null,
          })
          write.issues.push(id)
          return id
        }),
      )
      return write.issues[0]!
    }
    const orders = keptIssueOrders(store, 32, 3)
    const [one, two] = [create(), create()]
    expect(orders.pageIds(opened, 3, 0)).toEqual([two, one]) // the whole list, kept
    const three = create()
    const four = create() // past the depth: `one` goes
    expect(orders.pageIds(opened, 3, 0)).toEqual([four, three, two])
    store.changes.issueWrite({ projectId, issues: [three] }, () =>
      store.transaction(() => store.issues.update(three, { state: 'closed' })),
    )
    expect(orders.pageIds(opened, 1, 2)).toEqual([one])
    expect(orders.pageIds(opened, 3, 0)).toEqual(store.issueQueries.pageIds(opened, 3, 0))
  })

  it('keep at most `maxLists` lists, the least recently used out first', () => {
    const projectId = store.projects.byPath('root/app')!.id
    const list = (by: 'created_at' | 'updated_at', dir: 'asc' | 'desc'): IssueQuery => ({
      projectIds: [projectId],
      confidential: { all: true },
      where: [where.state('opened')],
      order: { by, dir },
    })
    const [a, b, c] = [list('created_at', 'desc'), list('created_at', 'asc'), list('updated_at', 'desc')]
    const read: IssueQuery[] = []
    const keysetPage = store.issueQueries.keysetPage.bind(store.issueQueries)
    store.issueQueries.keysetPage = (q, ...rest) => (read.push(q), keysetPage(q, ...rest))
    const orders = keptIssueOrders(store, 2, 500)
    for (const q of [a, b, a, c, a, b]) orders.pageIds(q, 20, 0)
    // a and b read; a kept; c read and b out (a was used after it); a kept; b read again.
    expect(read).toEqual([a, b, c, b])
  })
})
