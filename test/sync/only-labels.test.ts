import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js'

let h: SyncHarness
beforeEach(async () => {
  h = await startSyncHarness({ labelPrefix: 'gh:', labelMap: { sync: 'mirror-me' }, onlyLabels: ['sync'] })
})
afterEach(async () => h.close())

describe('only-labels', () => {
  it('mirrors only labelled issues, from either side, by either spelling', async () => {
    h.gh.addIssue({ title: 'Labelled', labels: ['sync'] })
    h.gh.addIssue({ title: 'Not labelled', labels: ['bug'] })
    await h.gitlab.issues.create('acme/widgets', { title: 'GitLab labelled', labels: ['mirror-me'] })
    await h.gitlab.issues.create('acme/widgets', { title: 'GitLab plain' })
    const report = await h.run({ direction: 'both' })
    expect(report.failed).toEqual([])
    expect(report.created.map((o) => o.kind === 'create' && o.from.title)).toEqual([
      'Labelled',
      'GitLab labelled',
    ])
    expect((await h.glIssues()).map((i) => [i.title, i.labels])).toEqual([
      ['GitLab labelled', ['mirror-me']],
      ['GitLab plain', []],
      ['Labelled', ['mirror-me']],
    ])
    expect(h.gh.issues.map((i) => [i.title, i.labels])).toEqual([
      ['Labelled', ['sync']],
      ['Not labelled', ['bug']],
      ['GitLab labelled', ['sync']],
    ])
    h.resetCounts()
    const again = await h.run({ direction: 'both' })
    expect([again.planned, again.descoped]).toEqual([[], []])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
  })

  it('an issue that loses the label: the removal is mirrored, then it stops syncing and the report says so', async () => {
    const issue = h.gh.addIssue({ title: 'Scoped', labels: ['sync', 'bug'] })
    await h.run()
    expect((await h.glIssues())[0]).toMatchObject({ title: 'Scoped', labels: ['gh:bug', 'mirror-me'] })
    issue.labels = ['bug']
    const removal = await h.run()
    expect(removal.descoped).toEqual([])
    expect((await h.glIssues())[0]).toMatchObject({ labels: ['gh:bug'] })

    issue.title = 'Renamed after leaving the scope'
    h.gh.comment(issue.number, 'not mirrored')
    h.resetCounts()
    const after = await h.run()
    expect(after.planned).toEqual([])
    expect(after.descoped).toEqual([
      {
        key: 'github#1',
        reason: 'carries none of only-labels (sync) on either side: no longer synced',
      },
    ])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
    const [mirror] = await h.glIssues()
    expect(mirror).toMatchObject({ title: 'Scoped', user_notes_count: 0 })

    issue.labels = ['sync']
    const back = await h.run()
    expect(back.descoped).toEqual([])
    expect((await h.glIssues())[0]).toMatchObject({
      title: 'Renamed after leaving the scope',
      user_notes_count: 1,
    })
  })
})
