import { createClient, type GitLabClient } from '../../src/api/client.js'
import { githubSide } from '../../src/sync/github.js'
import { gitlabSide } from '../../src/sync/gitlab.js'
import { syncIssues, type SyncSettings } from '../../src/sync/sync.js'
import { octokitFor, startFakeGitHub, type FakeGitHub } from '../support/fake-github.js'
import { startServer, type TestServer } from '../support/server.js'
import { gitlabIssuesByIid } from '../support/sync-harness.js'

const GL_TOKEN = 'glpat-syncbot-token'
const GH_TOKEN = 'ghp_fake-github-token'
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: syncbot, token: ${GL_TOKEN} }
  - { username: alice }
groups:
  - { path: acme }
projects:
  - path: acme/widgets
    members: { syncbot: maintainer, alice: developer }
    milestones: [ { title: v1.0 } ]
    labels: [ { name: backend, color: "#000000" } ]
`
let t: TestServer
let gh: FakeGitHub
let gitlab: GitLabClient
const glCounts: Record<string, number> = {}
const waits: number[] = []

beforeEach(async () => {
  t = await startServer(seed)
  t.server.app.server.on('request', (req: { method?: string }) => {
    glCounts[req.method ?? 'GET'] = (glCounts[req.method ?? 'GET'] ?? 0) + 1
  })
  gh = await startFakeGitHub('acme', 'widgets', 'sync-bot')
  gh.milestones.push({ number: 1, title: 'v1.0', state: 'open' })
  gitlab = createClient({ baseUrl: t.baseUrl, token: GL_TOKEN, retry: { maxRetries: 0 } })
  waits.length = 0
})
afterEach(async () => {
  await gitlab.close()
  await gh.close()
  await t.close()
})
const resetCounts = () => {
  for (const k of Object.keys(glCounts)) delete glCounts[k]
  gh.resetCounts()
}
const writes = (counts: Record<string, number>) =>
  Object.entries(counts).reduce((n, [m, c]) => n + (m === 'GET' ? 0 : c), 0)

const settings = (more: Partial<SyncSettings> = {}): SyncSettings => ({
  direction: 'github-to-gitlab',
  comments: true,
  labelMap: {},
  labelPrefix: 'gh:',
  userMap: { octocat: 'alice' },
  dryRun: false,
  includeConfidential: false,
  ...more,
})
const run = async (more: Partial<SyncSettings> = {}) =>
  syncIssues(
    githubSide(
      await octokitFor(gh.url, GH_TOKEN, { onWait: (w) => void waits.push(w.seconds * 1000) }),
      'acme/widgets',
    ),
    gitlabSide(gitlab, 'acme/widgets'),
    settings(more),
  )
const glIssues = () => gitlabIssuesByIid(t)
const glNotes = async (iid: number) =>
  (
    (await t.http('GET', `/api/v4/projects/acme%2Fwidgets/issues/${iid}/notes?sort=asc`, { token: GL_TOKEN }))
      .body as { body: string; system: boolean }[]
  ).filter((n) => !n.system)

function seedGitHub() {
  gh.addIssue({
    title: 'Crash',
    body: 'It crashes.\n/close\n```\n/close\n```',
    labels: ['bug'],
    assignees: ['octocat'],
    milestone: 1,
  })
  gh.addIssue({ title: 'A pull request', pull_request: true })
  gh.addIssue({ title: 'Done already', state: 'closed', state_reason: 'completed' })
  gh.comment(1, 'Me too\n/label ~backend')
  gh.comment(1, 'Fixed?')
}

describe('sync against the reference server and the fake GitHub', () => {
  it('a full sync mirrors issues, fields and comments; a second run makes zero writes on either side', async () => {
    seedGitHub()
    const first = await run()
    expect(first.failed).toEqual([])
    expect([first.created.length, first.commented.length]).toEqual([2, 2])
    const issues = await glIssues()
    expect(issues.map((i) => [i.title, i.state, i.labels])).toEqual([
      ['Crash', 'opened', ['gh:bug']],
      ['Done already', 'closed', []],
    ])
    expect(issues[0]).toMatchObject({
      assignees: [expect.objectContaining({ username: 'alice' })],
      milestone: expect.objectContaining({ title: 'v1.0' }),
    })
    expect(issues[0]!.description).toContain('\\/close\n```\n/close\n```')
    const notes = await glNotes(issues[0]!.iid as number)
    expect(notes.map((n) => n.body.split('\n')[2])).toEqual(['Me too', 'Fixed?'])
    expect(notes[0]!.body).toContain('\\/label ~backend')
    expect(((await glIssues())[0]!.labels as string[]).includes('backend')).toBe(false) // the quick action stayed inert

    resetCounts()
    const second = await run()
    expect(second.planned).toEqual([])
    expect(writes(glCounts)).toBe(0)
    expect(writes(gh.counts)).toBe(0)
    expect(second.unchanged).toBe(2)
  })

  it('edits, renames, closing and new comments flow once; nothing is duplicated', async () => {
    seedGitHub()
    await run()
    const issue = gh.issues[0]!
    Object.assign(issue, { title: 'Crash on start (renamed)', state: 'closed', labels: ['bug', 'ui'] })
    gh.comment(1, 'Third')
    const report = await run()
    expect(report.failed).toEqual([])
    expect([report.created.length, report.closed.length, report.commented.length]).toEqual([0, 1, 1])
    const [mirror] = await glIssues()
    expect(mirror).toMatchObject({
      title: 'Crash on start (renamed)',
      state: 'closed',
      labels: ['gh:bug', 'gh:ui'],
    })
    expect(await glNotes(mirror!.iid as number)).toHaveLength(3)
    expect(await glIssues()).toHaveLength(2)
    resetCounts()
    expect((await run()).planned).toEqual([])
    expect(writes(glCounts) + writes(gh.counts)).toBe(0)
  })

  it('quick actions mirrored from GitHub stay inert on a server that runs them, in edits and comments', async () => {
    seedGitHub()
    await run()
    const issue = gh.issues[0]!
    issue.body = 'It crashes.\n/close\n/label ~backend'
    gh.comment(1, '/close')
    const report = await run()
    expect(report.failed).toEqual([])
    const [mirror] = await glIssues()
    expect(mirror).toMatchObject({ state: 'opened', labels: ['gh:bug'] })
    expect(mirror!.description).toContain('\\/close\n\\/label ~backend')
    expect((await glNotes(mirror!.iid as number)).at(-1)!.body).toContain('\\/close')
    // the control: the same text unescaped is run by this server
    const raw = await t.http('PUT', `/api/v4/projects/acme%2Fwidgets/issues/${mirror!.iid}`, {
      token: GL_TOKEN,
      json: { description: 'It crashes.\n/close' },
    })
    expect(raw.body).toMatchObject({ state: 'closed', description: 'It crashes.' })
  })

  it('event mode touches only its issue', async () => {
    seedGitHub()
    const report = await run({ only: 3 })
    expect(report.created.map((o) => o.from.number)).toEqual([3])
    expect((await glIssues()).map((i) => i.title)).toEqual(['Done already'])
    resetCounts()
    expect((await run({ only: 3 })).planned).toEqual([])
    expect(writes(glCounts)).toBe(0)
    expect((await run({ only: 2 })).planned).toEqual([]) // a pull request
  })

  it('gitlab-to-github: one failing issue is reported, the others are synced', async () => {
    for (const title of ['One', 'Two', 'Three'])
      await gitlab.issues.create('acme/widgets', { title, description: `${title} text` })
    const first = await run({ direction: 'gitlab-to-github' })
    expect(first.created).toHaveLength(3)
    expect(gh.issues.map((i) => i.title)).toEqual(['One', 'Two', 'Three'])
    expect(gh.issues[0]!.body).toContain('Mirrored from GitLab')
    for (const iid of [1, 2, 3]) await gitlab.issues.update('acme/widgets', iid, { title: `Edited ${iid}` })
    gh.failIssue(gh.issues[1]!.number)
    const second = await run({ direction: 'gitlab-to-github' })
    expect(second.failed).toHaveLength(1)
    expect(second.failed[0]!.error).toContain('500')
    expect(gh.issues.map((i) => i.title)).toEqual(['Edited 1', 'Two', 'Edited 3'])
  })

  it('GitHub secondary rate limits are waited out (Retry-After) and the writes go through', async () => {
    seedGitHub()
    await run()
    gh.limitNextWrites(2, 3)
    await gitlab.issues.update('acme/widgets', 1, { title: 'Renamed on GitLab' })
    const report = await run({ direction: 'both' })
    expect(report.failed).toEqual([])
    expect(gh.issues[0]!.title).toBe('Renamed on GitLab')
    expect(waits.filter((w) => w === 3000)).toHaveLength(2)
  })

  it('both: each side changes a different field, both flow, and no echo follows', async () => {
    seedGitHub()
    await gitlab.issues.create('acme/widgets', { title: 'From GitLab', description: 'GitLab text' })
    await run({ direction: 'both' })
    expect(gh.issues.map((i) => i.title)).toContain('From GitLab')
    gh.issues[0]!.title = 'GitHub rename'
    gh.issues[0]!.updated_at = new Date().toISOString()
    await gitlab.issues.update('acme/widgets', 2, { state_event: 'close' }) // mirror of gh#1
    gh.comment(1, 'a new GitHub comment')
    await gitlab.notes.create('acme/widgets', 2, { body: 'a GitLab reply' })
    const report = await run({ direction: 'both' })
    expect(report.failed).toEqual([])
    expect(gh.issues[0]).toMatchObject({ title: 'GitHub rename', state: 'closed' })
    const mirror = (await glIssues()).find((i) => i.iid === 2)!
    expect(mirror).toMatchObject({ title: 'GitHub rename', state: 'closed' })
    expect(gh.issues[0]!.comments.at(-1)!.body).toContain('a GitLab reply')
    resetCounts()
    expect((await run({ direction: 'both' })).planned).toEqual([])
    expect(writes(glCounts) + writes(gh.counts)).toBe(0)
  })

  it('dry run plans and writes nothing', async () => {
    seedGitHub()
    resetCounts()
    const report = await run({ dryRun: true })
    expect(report.dryRun).toBe(true)
    expect(report.planned.length).toBeGreaterThan(0)
    expect(writes(glCounts) + writes(gh.counts)).toBe(0)
  })
})
