import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js'

let h: SyncHarness
beforeEach(async () => {
  h = await startSyncHarness()
})
afterEach(async () => h.close())

const firstLine = (text: unknown) => String(text).split('\n')[0]

describe('close reasons', () => {
  it("GitHub's not_planned and duplicate reach the GitLab mirror's link-back line; completed adds nothing", async () => {
    h.gh.addIssue({ title: 'Won’t do', state: 'closed', state_reason: 'not_planned' })
    h.gh.addIssue({ title: 'Same as another', state: 'closed', state_reason: 'duplicate' })
    const done = h.gh.addIssue({ title: 'Done' })
    await h.run()
    Object.assign(done, { state: 'closed', state_reason: 'completed', updated_at: new Date().toISOString() })
    await h.run()
    const gl = await h.glIssues()
    expect(gl.map((i) => [i.title, i.state, firstLine(i.description)])).toEqual([
      [
        'Won’t do',
        'closed',
        '> 🔁 Mirrored from GitHub: [acme/widgets#1](https://github.com/acme/widgets/issues/1) (opened by **octocat**) · closed as not planned',
      ],
      [
        'Same as another',
        'closed',
        '> 🔁 Mirrored from GitHub: [acme/widgets#2](https://github.com/acme/widgets/issues/2) (opened by **octocat**) · closed as a duplicate',
      ],
      [
        'Done',
        'closed',
        '> 🔁 Mirrored from GitHub: [acme/widgets#3](https://github.com/acme/widgets/issues/3) (opened by **octocat**)',
      ],
    ])
    // reopened, then closed as not planned: the line follows
    Object.assign(done, { state: 'open', state_reason: 'reopened' })
    await h.run()
    expect((await h.glIssues())[2]).toMatchObject({ state: 'opened' })
    Object.assign(done, { state: 'closed', state_reason: 'not_planned' })
    await h.run()
    expect(firstLine((await h.glIssues())[2]!.description)).toMatch(/ · closed as not planned$/)
    h.resetCounts()
    expect((await h.run()).planned).toEqual([])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
  })

  it('a GitLab duplicate closes its GitHub mirror with state_reason duplicate and names the canonical issue', async () => {
    await h.gitlab.issues.create('acme/widgets', { title: 'Canonical' })
    await h.gitlab.issues.create('acme/widgets', { title: 'Duplicate' })
    await h.gitlab.issues.create('acme/widgets', { title: 'Plainly closed' })
    await h.run({ direction: 'gitlab-to-github' })
    const marked = await h.t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues/2/notes', {
      token: 'glpat-alice-token',
      json: { body: '/duplicate #1' },
    })
    expect(marked.status).toBeLessThan(300)
    await h.gitlab.issues.update('acme/widgets', 3, { state_event: 'close' })
    expect((await h.glIssues()).map((i) => i.state)).toEqual(['opened', 'closed', 'closed'])
    const report = await h.run({ direction: 'gitlab-to-github' })
    expect(report.failed).toEqual([])
    const web = `${h.t.baseUrl}/acme/widgets`
    expect(h.gh.issues.map((i) => [i.title, i.state, i.state_reason, firstLine(i.body)])).toEqual([
      [
        'Canonical',
        'open',
        null,
        `> 🔁 Mirrored from GitLab: [acme/widgets#1](${web}/-/issues/1) (opened by **syncbot**)`,
      ],
      [
        'Duplicate',
        'closed',
        'duplicate',
        `> 🔁 Mirrored from GitLab: [acme/widgets#2](${web}/-/issues/2) (opened by **syncbot**) · closed as a duplicate of ${web}/-/issues/1`,
      ],
      [
        'Plainly closed',
        'closed',
        'completed',
        `> 🔁 Mirrored from GitLab: [acme/widgets#3](${web}/-/issues/3) (opened by **syncbot**)`,
      ],
    ])
    h.resetCounts()
    expect((await h.run({ direction: 'gitlab-to-github' })).planned).toEqual([])
    expect(h.writes()).toEqual({ github: 0, gitlab: 0 })
  })
})
