import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ActionIO } from '../../src/actions/io.js'
import { run } from '../../src/actions/sync-issues/run.js'
import { runBundle } from '../support/action-run.js'
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js'
import { startServer, type TestServer } from '../support/server.js'

const GL_TOKEN = 'glpat-syncbot-secret-0001'
const GH_TOKEN = 'ghp_github-secret-0002'
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
`
let t: TestServer
let gh: FakeGitHub
const glWrites = { n: 0 }
beforeEach(async () => {
  t = await startServer(seed)
  glWrites.n = 0
  t.server.app.server.on('request', (req: { method?: string }) => void (req.method !== 'GET' && glWrites.n++))
  gh = await startFakeGitHub('acme', 'widgets', 'sync-bot')
  gh.addIssue({ title: 'Crash', body: 'Steps\n/close', labels: ['bug'], assignees: ['octocat'] })
  gh.addIssue({ title: 'A pull request', pull_request: true })
  gh.addIssue({ title: 'Docs', state: 'closed' })
  gh.comment(1, 'Me too')
})
afterEach(async () => {
  await gh.close()
  await t.close()
})
const ghWrites = () => Object.entries(gh.counts).reduce((n, [m, c]) => n + (m === 'GET' ? 0 : c), 0)

/** A recording ActionIO over INPUT_-style values (no module mocks). */
function recordingIO(values: Record<string, string>, env: Record<string, string> = {}) {
  const log: string[] = []
  const outputs: Record<string, string> = {}
  const state: { summary: string; failed?: string; secrets: string[] } = { summary: '', secrets: [] }
  const io: ActionIO = {
    getInput: (name) => values[name] ?? '',
    getEnv: (name) => env[name] || undefined,
    setSecret: (v) => void state.secrets.push(v),
    setOutput: (name, value) => void (outputs[name] = value),
    info: (m) => void log.push(m),
    warning: (m) => void log.push(`warning: ${m}`),
    debug: (m) => void log.push(`debug: ${m}`),
    summary: async (html) => void (state.summary += html),
    fail: (err) => void (state.failed = err instanceof Error ? err.message : String(err)),
  }
  return { io, log, outputs, state }
}
const inputs = (more: Record<string, string> = {}) => ({
  'gitlab-url': t.baseUrl,
  token: GL_TOKEN,
  project: 'acme/widgets',
  'github-token': GH_TOKEN,
  repository: 'acme/widgets',
  comments: 'true',
  'user-map': 'octocat: alice',
  'label-prefix': 'gh:',
  'github-write-gap': '0',
  ...more,
})
const runIO = async (values: Record<string, string>, env: Record<string, string> = {}) => {
  const r = recordingIO(values, { GITHUB_API_URL: gh.url, ...env })
  await run(r.io, undefined, { github: { msPerSecond: 1 } })
  return r
}

describe('sync-issues action', () => {
  it('full sync sets every output and a summary; the second run writes nothing; tokens stay out of logs', async () => {
    const first = await runIO(inputs())
    expect(first.state.failed).toBeUndefined()
    expect(first.outputs).toEqual({
      created: '2',
      updated: '0',
      closed: '0',
      reopened: '0',
      commented: '1',
      unchanged: '0',
      failed: '0',
      'skipped-confidential': '0',
      planned: '3',
    })
    expect(first.state.secrets).toEqual(expect.arrayContaining([GL_TOKEN, GH_TOKEN]))
    expect(first.state.summary).toContain('GitHub #1')
    glWrites.n = 0
    gh.resetCounts()
    const second = await runIO(inputs())
    expect(second.outputs).toMatchObject({
      created: '0',
      updated: '0',
      commented: '0',
      unchanged: '2',
      failed: '0',
    })
    expect([glWrites.n, ghWrites()]).toEqual([0, 0])
    const text = [...first.log, ...second.log, first.state.summary, second.state.summary].join('\n')
    for (const secret of [GL_TOKEN, GH_TOKEN]) expect(text).not.toContain(secret)
  })

  it('event mode syncs only the issue of the event; a pull request event does nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-sync-event-'))
    const event = join(dir, 'event.json')
    writeFileSync(event, JSON.stringify({ action: 'edited', issue: { number: 3 } }))
    const r = await runIO(inputs(), { GITHUB_EVENT_NAME: 'issues', GITHUB_EVENT_PATH: event })
    expect(r.outputs).toMatchObject({ created: '1', failed: '0' })
    const listed = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', { token: GL_TOKEN })
    expect((listed.body as { title: string }[]).map((i) => i.title)).toEqual(['Docs'])
    writeFileSync(event, JSON.stringify({ action: 'created', issue: { number: 2, pull_request: {} } }))
    await expect(
      runIO(inputs(), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_EVENT_PATH: event }),
    ).rejects.toThrow('mode is event, but #2 is a pull request; nothing to sync')
  })

  it('dry run reports the plan and writes nothing', async () => {
    const r = await runIO(inputs({ 'dry-run': 'true' }))
    expect(r.log.filter((l) => l.startsWith('plan: '))).toHaveLength(3)
    expect(r.state.summary).toContain('dry run: nothing written')
    // The counts of writes made stay 0; 'planned' and a log line say what would have been applied.
    expect(r.outputs).toMatchObject({ created: '0', planned: '3' })
    expect(r.log).toContain('Dry run: 3 write(s) planned, nothing applied (created, updated, ... stay 0)')
    expect([glWrites.n, ghWrites()]).toEqual([0, 0])
  })

  it('a failing issue is reported, fails the step, and does not stop the others', async () => {
    await runIO(inputs({ direction: 'both' }))
    await t.http('PUT', '/api/v4/projects/acme%2Fwidgets/issues/1', {
      token: GL_TOKEN,
      json: { title: 'Renamed 1' },
    })
    await t.http('PUT', '/api/v4/projects/acme%2Fwidgets/issues/2', {
      token: GL_TOKEN,
      json: { title: 'Renamed 3' },
    })
    gh.failIssue(1, 502)
    const r = await runIO(inputs({ direction: 'both' }))
    // Issue #1: the GitHub write failed, so its marker write on GitLab was not tried (both count).
    expect(r.outputs).toMatchObject({ failed: '2', updated: '2' })
    expect(r.state.failed).toBe('2 of 4 writes failed; the others were applied')
    expect(r.log.filter((l) => l.startsWith('warning: failed: '))).toEqual([
      expect.stringContaining('502'),
      expect.stringContaining('not tried: an earlier write for this issue failed'),
    ])
    expect(gh.issues.find((i) => i.number === 3)!.title).toBe('Renamed 3')
  })

  it("GitHub's secondary rate limit is waited out, logged, and the writes go through", async () => {
    await runIO(inputs())
    await t.http('PUT', '/api/v4/projects/acme%2Fwidgets/issues/1', {
      token: GL_TOKEN,
      json: { title: 'Renamed on GitLab' },
    })
    gh.limitNextWrites(2, 7)
    const r = await runIO(inputs({ direction: 'both' }))
    expect(r.outputs).toMatchObject({ failed: '0' })
    expect(gh.issues[0]!.title).toBe('Renamed on GitLab')
    expect(r.log.filter((l) => l.startsWith('GitHub '))).toEqual([
      'GitHub secondary rate limit on PATCH /repos/{owner}/{repo}/issues/{issue_number}: waiting 7 s (retry 1 of 3)',
      'GitHub secondary rate limit on PATCH /repos/{owner}/{repo}/issues/{issue_number}: waiting 7 s (retry 2 of 3)',
    ])
  })

  describe('confidential GitLab issues and internal notes', () => {
    const P = '/api/v4/projects/acme%2Fwidgets'
    const glIssue = async (json: Record<string, unknown>) =>
      (await t.http('POST', `${P}/issues`, { token: GL_TOKEN, json })).body as { iid: number }
    const glNote = async (iid: number, json: Record<string, unknown>) =>
      expect((await t.http('POST', `${P}/issues/${iid}/notes`, { token: GL_TOKEN, json })).status).toBe(201)
    const published = () =>
      JSON.stringify(gh.issues.map((i) => [i.title, i.body, i.comments.map((c) => c.body)]))

    it('stay on GitLab unless include-confidential says otherwise, and are counted', async () => {
      const open = await glIssue({ title: 'Public bug', description: 'Anyone may read this' })
      await glNote(open.iid, { body: 'A public note' })
      await glNote(open.iid, { body: 'Internal: the customer is ACME', internal: true })
      const secret = await glIssue({
        title: 'Security: RCE in the importer',
        description: 'Exploit steps',
        confidential: true,
      })
      await glNote(secret.iid, { body: 'Patch under embargo' })
      const r = await runIO(inputs({ direction: 'gitlab-to-github' }))
      expect(r.state.failed).toBeUndefined()
      expect(r.outputs).toMatchObject({ created: '1', commented: '1', 'skipped-confidential': '2' })
      const text = published()
      expect(text).toContain('Public bug')
      expect(text).toContain('A public note')
      for (const hidden of ['RCE', 'Exploit steps', 'embargo', 'ACME']) expect(text).not.toContain(hidden)
      expect(r.log).toContain(
        "1 confidential GitLab issue(s) and 1 internal note(s) not mirrored to GitHub ('include-confidential' is off)",
      )
      expect(r.state.summary).toContain('1 confidential issue(s) and 1 internal note(s)')

      const all = await runIO(inputs({ direction: 'gitlab-to-github', 'include-confidential': 'true' }))
      expect(all.outputs).toMatchObject({ created: '1', 'skipped-confidential': '0' })
      expect(published()).toContain('Exploit steps')
    })

    it('an issue made confidential after it was mirrored keeps its old mirror, and says so', async () => {
      const issue = await glIssue({ title: 'Slow start', description: 'Takes 10 s' })
      await runIO(inputs({ direction: 'both' }))
      const mirror = gh.issues.find((i) => i.title === 'Slow start')!
      await t.http('PUT', `${P}/issues/${issue.iid}`, {
        token: GL_TOKEN,
        json: {
          confidential: true,
          title: 'Security: token leak at start',
          description: 'The token is logged',
        },
      })
      await glNote(issue.iid, { body: 'Reproduced with the admin token' })
      gh.resetCounts()
      const r = await runIO(inputs({ direction: 'both' }))
      expect(r.outputs).toMatchObject({ 'skipped-confidential': '1', failed: '0' })
      expect(ghWrites()).toBe(0)
      expect([mirror.title, mirror.body]).not.toContain('Security: token leak at start')
      expect(published()).not.toMatch(/token leak|is logged|admin token/)
      expect(r.log).toContain(
        `warning: gitlab#${issue.iid}: confidential on GitLab: its GitHub mirror #${mirror.number} is no longer updated ('include-confidential' is off)`,
      )
    })

    it('a GitHub issue mirrored into GitLab stays mirrored when it is made confidential there', async () => {
      await runIO(inputs())
      await t.http('PUT', `${P}/issues/1`, { token: GL_TOKEN, json: { confidential: true } })
      gh.issues[0]!.title = 'Crash on start'
      const r = await runIO(inputs())
      expect(r.outputs).toMatchObject({ updated: '1', 'skipped-confidential': '0', failed: '0' })
      const got = await t.http('GET', `${P}/issues/1`, { token: GL_TOKEN })
      expect(got.body).toMatchObject({ title: 'Crash on start', confidential: true })
    })
  })

  it('a GitHub issue whose marker names a GitLab issue it does not own leaves that issue alone, and the summary says so', async () => {
    const P = '/api/v4/projects/acme%2Fwidgets'
    const target = (
      await t.http('POST', `${P}/issues`, {
        token: GL_TOKEN,
        json: { title: 'Release checklist', description: 'Sign the build', labels: 'ops' },
      })
    ).body as { iid: number; project_id: number }
    const marker = `<!-- gitlab-actions:sync v=1 from=gitlab project=acme%2Fwidgets project_id=${target.project_id} number=${target.iid} -->`
    const forged = gh.addIssue({
      title: 'Pwned',
      body: `All done\n${marker}`,
      state: 'closed',
      user: 'mallory',
    })
    gh.comment(forged.number, '/unlabel ~ops', 'mallory')
    // With a PAT (the token's login is known) and with GITHUB_TOKEN (it is not: a GitHub App bot is expected).
    for (const token of [GH_TOKEN, 'ghs_workflow-token-0003']) {
      const r = await runIO(inputs({ 'github-token': token }))
      expect(r.state.failed).toBeUndefined()
      const got = await t.http('GET', `${P}/issues/${target.iid}`, { token: GL_TOKEN })
      expect(got.body).toMatchObject({
        title: 'Release checklist',
        description: 'Sign the build',
        state: 'opened',
        labels: ['ops'],
        user_notes_count: 0,
      })
      const why = `claims to mirror gitlab#${target.iid}, a pairing it does not own: written by mallory`
      expect(r.log).toContainEqual(expect.stringContaining(`warning: github#${forged.number}: ${why}`))
      expect(r.state.summary).toContain(`<td>github#${forged.number}</td><td>${why}`)
    }
  })

  it('bad inputs name the input', async () => {
    await expect(runIO(inputs({ direction: 'sideways' }))).rejects.toThrow(
      "Input 'direction' must be one of github-to-gitlab, gitlab-to-github, both, got 'sideways'",
    )
    await expect(runIO(inputs({ 'github-token': '' }))).rejects.toThrow('github-token')
  })

  it('the bundle runs with the real Octokit against the fake GitHub, twice, idempotently', async () => {
    const env = { GITHUB_API_URL: gh.url, GITHUB_EVENT_NAME: 'schedule' }
    const first = await runBundle('sync-issues', inputs(), { env })
    expect(first.code).toBe(0)
    expect(first.outputs).toMatchObject({ created: '2', commented: '1', failed: '0' })
    glWrites.n = 0
    gh.resetCounts()
    const second = await runBundle('sync-issues', inputs(), { env })
    expect(second.outputs).toMatchObject({ created: '0', unchanged: '2', failed: '0' })
    expect([glWrites.n, ghWrites()]).toEqual([0, 0])
    expect(gh.tokens).toEqual(new Set([`token ${GH_TOKEN}`]))
    const shown = `${first.log}${second.log}`
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n')
    for (const secret of [GL_TOKEN, GH_TOKEN]) expect(shown).not.toContain(secret)
  })

  it('the bundle sends GitHub calls through HTTP_PROXY, as @actions/github does', async () => {
    // `github.test` resolves nowhere: only a proxy that tunnels it to the fake GitHub reaches it.
    const ghPort = new URL(gh.url).port
    const tunnels: string[] = []
    const proxy = createServer()
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '')
      const upstream = connect(Number(ghPort), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(client).pipe(upstream)
      })
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    })
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
    try {
      const env = {
        GITHUB_API_URL: `http://github.test:${ghPort}`,
        GITHUB_EVENT_NAME: 'schedule',
        HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      }
      const r = await runBundle('sync-issues', inputs(), { env })
      expect(r.code).toBe(0)
      expect(r.outputs).toMatchObject({ created: '2', commented: '1', failed: '0' })
      expect(new Set(tunnels)).toEqual(new Set([`github.test:${ghPort}`]))
    } finally {
      proxy.closeAllConnections()
      await new Promise((r) => proxy.close(r))
    }
  })
})

describe('sync-issues action: only-labels and comment changes', () => {
  it('only-labels is read from its input; the summary lists what left the scope and the comment edits it mirrored', async () => {
    const first = await runIO(inputs({ 'only-labels': 'bug\nfeature' }))
    expect(first.outputs).toMatchObject({ created: '1', commented: '1', failed: '0' })
    const issue = gh.issues[0]!
    issue.comments[0]!.body = 'Me too, edited'
    const edited = await runIO(inputs({ 'only-labels': 'bug\nfeature' }), {
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: eventFile({ action: 'edited', issue: { number: 1 } }),
    })
    expect(edited.state.failed).toBeUndefined()
    expect(edited.state.summary).toContain('Mirrored comments: 1 rewritten after an edit, 0 deleted.')
    const notes = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues/1/notes', { token: GL_TOKEN })
    expect((notes.body as { body: string; system: boolean }[]).filter((n) => !n.system)[0]!.body).toContain(
      'Me too, edited',
    )
    issue.labels = []
    await runIO(inputs({ 'only-labels': 'bug\nfeature' }))
    const after = await runIO(inputs({ 'only-labels': 'bug\nfeature' }))
    expect(after.state.summary).toContain('No longer synced')
    expect(after.log).toContain('1 mirrored issue(s) no longer carry any of only-labels: not synced')
  })
})

function eventFile(event: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gla-sync-event-')), 'event.json')
  writeFileSync(file, JSON.stringify(event))
  return file
}
