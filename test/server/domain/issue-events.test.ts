import { issueEventChanges } from '../../../src/server/domain/issue-events.js'

const issue = (state: string, milestone_id: number | null, weight: number | null = null) => ({
  state,
  milestone_id,
  weight,
})
const none = { before: [], after: [] }

describe('issueEventChanges', () => {
  it('records labels added and removed, nothing when they stay', () => {
    expect(
      issueEventChanges(
        issue('opened', null),
        issue('opened', null),
        { before: [1, 2], after: [2, 3] },
        true,
      ),
    ).toEqual({
      labels: { added: [3], removed: [1] },
    })
    expect(
      issueEventChanges(issue('opened', null), issue('opened', null), { before: [1], after: [1] }, true),
    ).toEqual({})
  })

  it('a milestone set is an add of the new one, cleared a remove of the old, with the state then', () => {
    expect(issueEventChanges(issue('opened', 1), issue('opened', 2), none, false).milestone).toEqual({
      action: 'add',
      milestoneId: 2,
      state: 'opened',
    })
    expect(issueEventChanges(issue('closed', 1), issue('closed', null), none, false).milestone).toEqual({
      action: 'remove',
      milestoneId: 1,
      state: 'closed',
    })
  })

  it('closed and reopened; a weight only with weights; a new issue records no state', () => {
    expect(issueEventChanges(issue('opened', null), issue('closed', null), none, false).state).toBe('closed')
    expect(issueEventChanges(issue('closed', null), issue('opened', null), none, false).state).toBe(
      'reopened',
    )
    expect(issueEventChanges(issue('opened', null, 1), issue('opened', null, 2), none, true).weight).toEqual({
      weight: 2,
    })
    expect(
      issueEventChanges(issue('opened', null, 1), issue('opened', null, 2), none, false).weight,
    ).toBeUndefined()
    expect(issueEventChanges(undefined, issue('opened', 4), { before: [], after: [7] }, true)).toEqual({
      labels: { added: [7], removed: [] },
      milestone: { action: 'add', milestoneId: 4, state: 'opened' },
    })
  })
})
