import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'

const W = 'acme/widgets'
const { as } = clientsOnSeed(detailSeed)

describe('issue links through the client (EE, answers validated against the schemas)', () => {
  it('links, lists from both sides, gets and removes', async () => {
    const rita = as(T.reporter)
    const made = await rita.issueLinks.create(W, 3, { project: W, iid: 1, linkType: 'is_blocked_by' })
    expect(made).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 3 }, link_type: 'blocks' })
    const [related] = await rita.issueLinks.list(W, 3)
    expect(related).toMatchObject({ iid: 1, link_type: 'is_blocked_by' })
    const id = related!.issue_link_id
    expect((await rita.issueLinks.list(W, 1)).map((r) => [r.iid, r.link_type])).toEqual([[3, 'blocks']])
    expect((await rita.issueLinks.get(W, 1, id)).link_type).toBe('blocks')
    expect((await rita.issues.get(W, 1)).blocking_issues_count).toBe(1)
    expect((await rita.issueLinks.remove(W, 3, id)).target_issue.iid).toBe(3)
    expect(await rita.issueLinks.list(W, 1)).toEqual([])
  })

  it("throws GitLab's errors", async () => {
    const rita = as(T.reporter)
    await rita.issueLinks.create(W, 1, { project: W, iid: 2 })
    const taken = await apiFailure(rita.issueLinks.create(W, 2, { project: W, iid: 1 }))
    expect([taken.status, taken.body]).toEqual([409, { message: 'Issue(s) already assigned' }])
    const missing = await apiFailure(rita.issueLinks.get(W, 1, 999))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    const hidden = await apiFailure(as(T.outsider).issueLinks.list(W, 1))
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})
