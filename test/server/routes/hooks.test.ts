import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { eventually, hookReceiver } from '../../support/hook-receiver.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const OTTO = 'glpat-otto-token' // not a member
const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
let receiver: Awaited<ReturnType<typeof hookReceiver>>
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(pipelineSeed, { clock, allowLocalRequests: true })
  receiver = await hookReceiver()
})
afterEach(async () => {
  await t.close()
  await receiver.close()
})

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex')
const hookCount = () =>
  inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM web_hooks').pluck().get() as number
const addHook = async (json: Json) => {
  const res = await t.http('POST', `${P}/hooks`, { token: MARK, json: { url: receiver.url, ...json } })
  expect(res.status).toBe(201)
  return res.body as Json
}

describe('project hooks API', () => {
  it('adds, reads, lists, edits and deletes a hook in GitLab shape, never showing the token', async () => {
    const made = await addHook({ token: 's3cret', issues_events: true, name: 'ci', description: 'the CI' })
    expect(Object.keys(made).slice(0, 6)).toEqual([
      'id',
      'url',
      'name',
      'description',
      'created_at',
      'push_events',
    ])
    expect(made).toMatchObject({
      url: receiver.url,
      name: 'ci',
      description: 'the CI',
      push_events: true,
      issues_events: true,
      note_events: false,
      enable_ssl_verification: true,
      alert_status: 'executable',
      disabled_until: null,
      url_variables: [],
      custom_headers: [],
      project_id: expect.any(Number),
    })
    expect(JSON.stringify(made)).not.toContain('s3cret')
    expect(Object.keys(made)).not.toContain('token')

    const list = await t.http('GET', `${P}/hooks`, { token: MARK })
    expect(list.status).toBe(200)
    expect(list.headers['x-total']).toBe('1')
    const [listed] = list.body as Json[]
    expect(listed).not.toHaveProperty('url_variables')
    expect(listed).not.toHaveProperty('custom_headers')

    const edited = await t.http('PUT', `${P}/hooks/${made.id}`, { token: MARK, json: { note_events: true } })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ note_events: true, issues_events: true })

    expect((await t.http('GET', `${P}/hooks/${made.id}`, { token: MARK })).body).toMatchObject({
      note_events: true,
    })
    const gone = await t.http('DELETE', `${P}/hooks/${made.id}`, { token: MARK })
    expect(gone.status).toBe(204)
    expect(hookCount()).toBe(0)
    expect((await t.http('GET', `${P}/hooks/${made.id}`, { token: MARK })).body).toEqual({
      message: '404 Not found',
    })
  })

  it("answers GitLab's 4xx and changes nothing", async () => {
    const made = await addHook({})
    expect((await t.http('GET', `${P}/hooks`)).status).toBe(401)
    const dana = await t.http('POST', `${P}/hooks`, { token: DANA, json: { url: receiver.url } })
    expect([dana.status, dana.body]).toEqual([403, { message: '403 Forbidden' }])
    const otto = await t.http('GET', `${P}/hooks`, { token: OTTO })
    expect([otto.status, otto.body]).toEqual([404, { message: '404 Project Not Found' }])
    const missing = await t.http('POST', `${P}/hooks`, { token: MARK, json: {} })
    expect([missing.status, missing.body]).toEqual([400, { error: 'url is missing' }])
    for (const url of ['ftp://example.com/x', 'not a url', ''])
      expect((await t.http('POST', `${P}/hooks`, { token: MARK, json: { url } })).body).toEqual({
        message: 'Invalid url given',
      })
    const empty = await t.http('PUT', `${P}/hooks/${made.id}`, { token: MARK, json: {} })
    expect([empty.status, empty.body]).toEqual([400, { message: 'No parameters provided' }])
    const other = await t.http('GET', `/api/v4/projects/acme%2Fother/hooks/${made.id}`, { token: MARK })
    expect([other.status, other.body]).toEqual([404, { message: '404 Not found' }])
    const badTrigger = await t.http('POST', `${P}/hooks/${made.id}/test/nonsense`, { token: MARK })
    expect([badTrigger.status, badTrigger.body]).toEqual([
      400,
      { error: 'trigger does not have a valid value' },
    ])
    const noIssues = await t.http('POST', `${P}/hooks/${made.id}/test/issues_events`, { token: MARK })
    expect([noIssues.status, noIssues.body]).toEqual([422, { message: 'Ensure the project has issues.' }])
    expect(hookCount()).toBe(1)
    expect(receiver.got).toHaveLength(0)
  })

  it('refuses local addresses unless the server allows local requests', async () => {
    const strict = await startServer(pipelineSeed, { clock })
    try {
      for (const url of [receiver.url, 'http://localhost/x', 'http://10.0.0.1/x', 'http://169.254.169.254/'])
        expect((await strict.http('POST', `${P}/hooks`, { token: MARK, json: { url } })).body).toEqual({
          message: 'Invalid url given',
        })
      expect(
        (await strict.http('POST', `${P}/hooks`, { token: MARK, json: { url: 'https://example.com/h' } }))
          .status,
      ).toBe(201)
    } finally {
      await strict.close()
    }
  })
})

describe('releases and tokens', () => {
  it('has no name, description or events before the releases that brought them', async () => {
    const old = await startServer(pipelineSeed, { clock, allowLocalRequests: true, gitlabVersion: '17.0.0' })
    try {
      const made = await old.http('POST', `${P}/hooks`, {
        token: MARK,
        json: { url: receiver.url, name: 'n' },
      })
      expect(made.status).toBe(201)
      expect(Object.keys(made.body as Json)).not.toContain('name')
      expect(Object.keys(made.body as Json)).not.toContain('description')
      const events = await old.http('GET', `${P}/hooks/${(made.body as Json).id}/events`, { token: MARK })
      expect(events.status).toBe(404)
    } finally {
      await old.close()
    }
  })

  it('drops the token when the url changes without a new one (WebHook#reset_token)', async () => {
    const hook = await addHook({ token: 'keep', issues_events: true })
    await t.http('PUT', `${P}/hooks/${hook.id}`, { token: MARK, json: { issues_events: true } })
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'with token' } })
    await receiver.next(1)
    expect(receiver.got[0]!.headers['x-gitlab-token']).toBe('keep')
    await t.http('PUT', `${P}/hooks/${hook.id}`, { token: MARK, json: { url: `${receiver.url}/moved` } })
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'without' } })
    await receiver.next(2)
    expect(receiver.got[1]!.url).toBe('/hook/moved')
    expect(receiver.got[1]!.headers).not.toHaveProperty('x-gitlab-token')
  })
})

describe('--data', () => {
  it('keeps hooks, their sealed tokens and their deliveries across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-hooks-'))
    try {
      const first = await startServer(pipelineSeed, { data: dir, allowLocalRequests: true })
      const made = await first.http('POST', `${P}/hooks`, {
        token: MARK,
        json: { url: receiver.url, token: 'kept', issues_events: true },
      })
      await first.http('POST', `${P}/issues`, { token: MARK, json: { title: 'one' } })
      await receiver.next(1)
      await eventually(
        () => first.http('GET', `${P}/hooks/${(made.body as Json).id}/events`, { token: MARK }),
        (r) => (r.body as Json[]).length === 1,
      )
      await first.close()
      const second = await startServer(pipelineSeed, { data: dir, allowLocalRequests: true })
      try {
        const read = await second.http('GET', `${P}/hooks/${(made.body as Json).id}`, { token: MARK })
        expect(read.body).toEqual(made.body)
        await second.http('POST', `${P}/issues`, { token: MARK, json: { title: 'two' } })
        await receiver.next(2)
        expect(receiver.got[1]!.headers['x-gitlab-token']).toBe('kept')
        const events = await eventually(
          () => second.http('GET', `${P}/hooks/${(made.body as Json).id}/events`, { token: MARK }),
          (r) => (r.body as Json[]).length === 2,
        )
        expect((events.body as Json[]).length).toBe(2)
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('deliveries', () => {
  it('sends issue events (open, update with changes, close, reopen with labels) with GitLab headers and keys', async () => {
    const hook = await addHook({ token: 's3cret', issues_events: true })
    const made = await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'First' } })
    expect(made.status).toBe(201)
    const iid = (made.body as Json).iid
    await receiver.next(1)
    const [open] = receiver.got
    expect(open!.method).toBe('POST')
    expect(open!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': 's3cret',
      'x-gitlab-instance': t.baseUrl,
      'user-agent': 'GitLab/18.6.0',
    })
    expect(open!.headers['x-gitlab-event-uuid']).toMatch(/^[0-9a-f-]{36}$/)
    expect(open!.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/)
    expect(open!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(Object.keys(open!.body)).toEqual([
      'object_kind',
      'event_type',
      'user',
      'project',
      'object_attributes',
      'labels',
      'changes',
      'repository',
    ])
    expect(open!.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { username: 'mark', email: '[REDACTED]' },
      project: { path_with_namespace: 'acme/app', web_url: `${t.baseUrl}/acme/app` },
      object_attributes: {
        iid,
        title: 'First',
        state: 'opened',
        action: 'open',
        url: `${t.baseUrl}/acme/app/-/issues/${iid}`,
      },
      changes: {},
      repository: { name: 'app' },
    })

    await t.http('PUT', `${P}/issues/${iid}`, { token: MARK, json: { title: 'Renamed' } })
    await receiver.next(2)
    expect(receiver.got[1]!.body).toMatchObject({
      object_attributes: { action: 'update', title: 'Renamed' },
      changes: { title: { previous: 'First', current: 'Renamed' } },
    })

    await t.http('PUT', `${P}/issues/${iid}`, { token: MARK, json: { state_event: 'close' } })
    await receiver.next(3)
    expect(receiver.got[2]!.body).toMatchObject({
      object_attributes: { action: 'close', state: 'closed' },
      changes: { state_id: { previous: 1, current: 2 } },
    })

    // The delivery log, newest first, with the token redacted.
    const events = await eventually(
      () => t.http('GET', `${P}/hooks/${hook.id}/events`, { token: MARK }),
      (r) => (r.body as Json[]).length === 3,
    )
    await t.http('POST', `${P}/labels`, { token: MARK, json: { name: 'bug', color: '#ff0000' } })
    await t.http('PUT', `${P}/issues/${iid}`, { token: MARK, json: { state_event: 'reopen', labels: 'bug' } })
    await receiver.next(4)
    expect(receiver.got[3]!.body).toMatchObject({
      object_attributes: { action: 'reopen', state: 'opened', labels: [{ title: 'bug' }] },
      labels: [{ title: 'bug', color: '#ff0000', type: 'ProjectLabel' }],
      changes: {
        state_id: { previous: 2, current: 1 },
        labels: { previous: [], current: [{ title: 'bug' }] },
      },
    })
    const [last] = events.body as Json[]
    expect(Object.keys(last!)).toEqual([
      'id',
      'url',
      'trigger',
      'request_headers',
      'request_data',
      'response_headers',
      'response_body',
      'execution_duration',
      'response_status',
    ])
    expect(last).toMatchObject({
      trigger: 'issue_hooks',
      response_status: '200',
      response_body: 'ok',
      request_headers: { 'X-Gitlab-Token': '[REDACTED]', 'X-Gitlab-Event': 'Issue Hook' },
      response_headers: { 'X-Receiver': 'yes', 'Content-Type': 'text/plain' },
      request_data: { object_attributes: { action: 'close' } },
    })
  })

  it('sends the events of writes after a hook is added to a store that had none, and none once it is gone', async () => {
    const write = async (title: string) => {
      const made = await t.http('POST', `${P}/issues`, { token: MARK, json: { title } })
      expect(made.status).toBe(201)
      const iid = (made.body as Json).iid
      const edited = await t.http('PUT', `${P}/issues/${iid}`, { token: MARK, json: { title: `${title}!` } })
      expect(edited.status).toBe(200)
    }
    await write('Unheard')
    const hook = await addHook({ issues_events: true })
    await write('Heard')
    await receiver.next(2)
    expect(
      receiver.got.map((r) => [(r.body.object_attributes as Json).action, (r.body.changes as Json).title]),
    ).toEqual([
      ['open', undefined],
      ['update', { previous: 'Heard', current: 'Heard!' }],
    ])
    expect((await t.http('DELETE', `${P}/hooks/${hook.id}`, { token: MARK })).status).toBe(204)
    await write('Unheard again')
    await addHook({ issues_events: true })
    await write('Heard again')
    await receiver.next(4)
    expect(receiver.got.map((r) => (r.body.object_attributes as Json).title)).toEqual([
      'Heard',
      'Heard!',
      'Heard again',
      'Heard again!',
    ])
  })

  it('sends confidential issues only to hooks that take confidential issue events', async () => {
    await addHook({ issues_events: true })
    const confidential = await hookReceiver()
    try {
      await t.http('POST', `${P}/hooks`, {
        token: MARK,
        json: { url: confidential.url, confidential_issues_events: true },
      })
      await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'Secret', confidential: true } })
      await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'Open' } })
      await confidential.next(1)
      await receiver.next(1)
      expect(confidential.got[0]!.headers['x-gitlab-event']).toBe('Confidential Issue Hook')
      expect(confidential.got[0]!.body).toMatchObject({
        event_type: 'confidential_issue',
        object_attributes: { title: 'Secret' },
      })
      expect(receiver.got.map((r) => (r.body.object_attributes as Json).title)).toEqual(['Open'])
    } finally {
      await confidential.close()
    }
  })

  it('sends note events for comments, not for system notes', async () => {
    await addHook({ note_events: true })
    const issue = (await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'Talk' } })).body as Json
    const note = await t.http('POST', `${P}/issues/${issue.iid}/notes`, {
      token: MARK,
      json: { body: 'Hello' },
    })
    expect(note.status).toBe(201)
    await receiver.next(1)
    const [got] = receiver.got
    expect(got!.headers['x-gitlab-event']).toBe('Note Hook')
    expect(Object.keys(got!.body)).toEqual([
      'object_kind',
      'event_type',
      'user',
      'project_id',
      'project',
      'object_attributes',
      'repository',
      'issue',
    ])
    expect(got!.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      object_attributes: {
        note: 'Hello',
        noteable_type: 'Issue',
        action: 'create',
        id: (note.body as Json).id,
      },
      issue: { iid: issue.iid, title: 'Talk' },
    })
    // Closing makes a system note and an issue event, which this hook does not take.
    await t.http('PUT', `${P}/issues/${issue.iid}`, { token: MARK, json: { state_event: 'close' } })
    await t.http('POST', `${P}/issues/${issue.iid}/notes`, { token: MARK, json: { body: 'Bye' } })
    await receiver.next(2)
    expect(receiver.got.map((r) => (r.body.object_attributes as Json).note)).toEqual(['Hello', 'Bye'])
  })

  it('sends a note event for a comment on a commit, with the commit, a line`s as a LegacyDiffNote', async () => {
    const made = await t.http('POST', `${P}/repository/commits`, {
      token: MARK,
      json: {
        branch: 'main',
        commit_message: 'Add f\n\nwith a body',
        actions: [{ action: 'create', file_path: 'f.txt', content: 'a\nb\n' }],
      },
    })
    expect(made.status).toBe(201)
    const sha = (made.body as Json).id as string
    await addHook({ note_events: true })
    const comment = (json: Json) =>
      t.http('POST', `${P}/repository/commits/${sha}/comments`, { token: MARK, json })
    expect((await comment({ note: 'Nice' })).status).toBe(201)
    expect((await comment({ note: 'On b', path: 'f.txt', line: 2 })).status).toBe(201)
    await receiver.next(2)
    const [plain, onLine] = receiver.got
    expect(plain!.headers['x-gitlab-event']).toBe('Note Hook')
    expect(Object.keys(plain!.body)).toEqual([
      'object_kind',
      'event_type',
      'user',
      'project_id',
      'project',
      'object_attributes',
      'repository',
      'commit',
    ])
    expect(plain!.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { username: 'mark' },
      object_attributes: {
        note: 'Nice',
        noteable_type: 'Commit',
        noteable_id: null,
        commit_id: sha,
        line_code: null,
        type: null,
        system: false,
        action: 'create',
        url: expect.stringMatching(new RegExp(`/acme/app/-/commit/${sha}#note_\\d+$`)),
      },
      commit: {
        id: sha,
        message: 'Add f\n\nwith a body',
        title: 'Add f',
        url: expect.stringMatching(new RegExp(`/acme/app/-/commit/${sha}$`)),
        author: { name: expect.any(String), email: expect.any(String) },
      },
    })
    expect(Object.keys(plain!.body.commit as Json)).toEqual([
      'id',
      'message',
      'title',
      'timestamp',
      'url',
      'author',
    ])
    expect((plain!.body.object_attributes as Json).discussion_id).toMatch(/^[0-9a-f]{40}$/)
    // `Gitlab::Git.diff_line_code`: the path's SHA1, the old line (0: a new file) and the new one.
    expect(onLine!.body.object_attributes).toMatchObject({
      type: 'LegacyDiffNote',
      line_code: `${sha1('f.txt')}_0_2`,
    })
  })

  it('sends pipeline and job events as the pipeline runs', async () => {
    await addHook({ pipeline_events: true, job_events: true })
    const made = await t.http('POST', `${P}/trigger/pipeline`, { form: `token=${MARK_TRIGGER}&ref=main` })
    expect(made.status).toBe(201)
    clock.advance(60_000)
    await t.http('GET', `${P}/pipelines/${(made.body as Json).id}`, { token: MARK })
    await eventually(
      async () =>
        receiver.got
          .filter((r) => r.headers['x-gitlab-event'] === 'Pipeline Hook')
          .map((r) => (r.body.object_attributes as Json).status),
      (statuses) => statuses.includes('success'),
    )
    const pipeline = receiver.got.find((r) => r.headers['x-gitlab-event'] === 'Pipeline Hook')!
    expect(pipeline.body).toMatchObject({
      object_kind: 'pipeline',
      object_attributes: { id: (made.body as Json).id, ref: 'main', stages: expect.any(Array) },
      project: { path_with_namespace: 'acme/app' },
      builds: expect.arrayContaining([expect.objectContaining({ name: 'build' })]),
    })
    const job = receiver.got.find((r) => r.headers['x-gitlab-event'] === 'Job Hook')!
    expect(job.body).toMatchObject({
      object_kind: 'build',
      build_name: 'build',
      pipeline_id: (made.body as Json).id,
    })
  })

  it('tests a hook with a sample, 201 on 2xx and 422 with the body otherwise', async () => {
    const hook = await addHook({})
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'Sample' } })
    const ok = await t.http('POST', `${P}/hooks/${hook.id}/test/issues_events`, { token: MARK })
    expect([ok.status, ok.body]).toEqual([201, { message: '201 Created' }])
    expect(receiver.got[0]!.body).toMatchObject({
      object_kind: 'issue',
      object_attributes: { title: 'Sample' },
    })
    receiver.state.status = 500
    const failed = await t.http('POST', `${P}/hooks/${hook.id}/test/issues_events`, { token: MARK })
    expect([failed.status, failed.body]).toEqual([422, { message: 'nope' }])
  })
})

describe('failures', () => {
  it('backs a failing hook off after four failures and disables it after forty, as WebHooks::AutoDisabling does', async () => {
    receiver.state.status = 500
    const hook = await addHook({ issues_events: true })
    const issue = (await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'x' } })).body as Json
    const read = () => t.http('GET', `${P}/hooks/${hook.id}`, { token: MARK }).then((r) => r.body as Json)
    await receiver.next(1)
    for (let i = 2; i <= 4; i++) {
      await t.http('PUT', `${P}/issues/${issue.iid}`, { token: MARK, json: { title: `x${i}` } })
      await receiver.next(i)
      await eventually(
        () => t.http('GET', `${P}/hooks/${hook.id}/events`, { token: MARK }),
        (r) => (r.body as Json[]).length === i,
      )
    }
    const resting = await read()
    expect(resting).toMatchObject({
      alert_status: 'temporarily_disabled',
      disabled_until: '2026-03-01T10:01:00.000Z',
    })
    // While it rests, events are not sent (GitLab's `executable` scope); nothing is retried.
    await t.http('PUT', `${P}/issues/${issue.iid}`, { token: MARK, json: { title: 'quiet' } })
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'quiet too' } })
    expect(receiver.got).toHaveLength(4)
    // After the backoff it is tried again; the next failure doubles the rest.
    clock.advance(61_000)
    expect((await read()).alert_status).toBe('executable')
    await t.http('PUT', `${P}/issues/${issue.iid}`, { token: MARK, json: { title: 'again' } })
    await receiver.next(5)
    const doubled = await eventually(read, (h) => h.alert_status === 'temporarily_disabled')
    expect(doubled.disabled_until).toBe('2026-03-01T10:03:01.000Z')
    // A success puts it back to executable.
    clock.advance(200_000)
    receiver.state.status = 200
    await t.http('PUT', `${P}/issues/${issue.iid}`, { token: MARK, json: { title: 'fixed' } })
    await receiver.next(6)
    await eventually(read, (h) => h.alert_status === 'executable' && h.disabled_until === null)
  })

  it('counts a redirection as a success (response_category :ok) and follows none', async () => {
    receiver.state.status = 302
    const hook = await addHook({ issues_events: true })
    inspectDb(t.server.store).prepare('UPDATE web_hooks SET recent_failures = 2 WHERE id = ?').run(hook.id)
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'moved' } })
    await receiver.next(1)
    const failures = () =>
      inspectDb(t.server.store)
        .prepare('SELECT recent_failures FROM web_hooks WHERE id = ?')
        .pluck()
        .get(hook.id)
    await eventually(
      async () => failures(),
      (n) => n === 0,
    )
    expect(receiver.got).toHaveLength(1)
  })

  it('disables a hook for good past forty failures', async () => {
    const hook = await addHook({ issues_events: true })
    inspectDb(t.server.store).prepare('UPDATE web_hooks SET recent_failures = 40 WHERE id = ?').run(hook.id)
    const read = await t.http('GET', `${P}/hooks/${hook.id}`, { token: MARK })
    expect(read.body).toMatchObject({ alert_status: 'disabled' })
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'never sent' } })
    // A test is sent even to a disabled hook (`force: true`).
    const test = await t.http('POST', `${P}/hooks/${hook.id}/test/issues_events`, { token: MARK })
    expect(test.status).toBe(201)
    expect(receiver.got.map((r) => (r.body.object_attributes as Json).title)).toEqual(['never sent'])
  })

  it('logs a refused connection as an internal error', async () => {
    const hook = await addHook({ issues_events: true })
    await receiver.close()
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'lost' } })
    const events = await eventually(
      () => t.http('GET', `${P}/hooks/${hook.id}/events`, { token: MARK }),
      (r) => (r.body as Json[]).length === 1,
    )
    expect((events.body as Json[])[0]).toMatchObject({ response_status: 'internal error', response_body: '' })
    receiver = await hookReceiver()
  })
})

describe('delivery log', () => {
  it("filters by status as WebHooks::WebHookLogsFinder does, 20 a page at most, the last seven days' only", async () => {
    const hook = await addHook({ issues_events: true })
    const E = `${P}/hooks/${hook.id}/events`
    for (const [n, status] of [404, 200, 503].entries()) {
      receiver.state.status = status
      await t.http('POST', `${P}/issues`, { token: MARK, json: { title: `t${status}` } })
      await receiver.next(n + 1)
      await eventually(
        () => t.http('GET', E, { token: MARK }),
        (r) => (r.body as Json[]).length === n + 1,
      )
    }
    const statuses = async (query: string) =>
      ((await t.http('GET', E, { token: MARK, query })).body as Json[]).map((e) => e.response_status)
    expect(await statuses('')).toEqual(['503', '200', '404'])
    expect(await statuses('status=successful')).toEqual(['200'])
    expect(await statuses('status=client_failure')).toEqual(['404'])
    expect(await statuses('status=server_failure,404')).toEqual(['503', '404'])
    expect(await statuses('status=200')).toEqual(['200'])
    const bad = await t.http('GET', E, { token: MARK, query: 'status=bogus' })
    expect([bad.status, bad.body]).toEqual([400, { error: 'status does not have a valid value' }])
    const big = await t.http('GET', E, { token: MARK, query: 'per_page=21' })
    expect([big.status, big.body]).toEqual([400, { error: 'per_page does not have a valid value' }])
    const paged = await t.http('GET', E, { token: MARK, query: 'per_page=2' })
    expect([paged.headers['x-total'], paged.headers['x-next-page']]).toEqual(['3', '2'])
    clock.advance(7 * 86_400_000 + 1000)
    expect(await statuses('')).toEqual([])
  })
})

describe('reset', () => {
  it('removes hooks and their deliveries', async () => {
    const hook = await addHook({ issues_events: true })
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'before reset' } })
    await receiver.next(1)
    await eventually(
      () => t.http('GET', `${P}/hooks/${hook.id}/events`, { token: MARK }),
      (r) => (r.body as Json[]).length === 1,
    )
    const reset = await t.http('POST', '/-/emulator/reset', { token: 'glpat-root-token' })
    expect(reset.status).toBeLessThan(300)
    expect(hookCount()).toBe(0)
    expect(inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM web_hook_logs').pluck().get()).toBe(0)
  })

  it('closing the server cuts a delivery in flight instead of waiting out its timeout', async () => {
    const other = await startServer(pipelineSeed, { clock, allowLocalRequests: true })
    const made = await other.http('POST', `${P}/hooks`, {
      token: MARK,
      json: { url: receiver.url, issues_events: true },
    })
    expect(made.status).toBe(201)
    receiver.state.hold = true
    await other.http('POST', `${P}/issues`, { token: MARK, json: { title: 'cut' } })
    await receiver.next(1)
    const started = Date.now()
    await other.close()
    expect(Date.now() - started).toBeLessThan(3000)
    receiver.release()
  })

  it('a delivery still in flight at a reset logs nothing, not even on the new hook that took its id', async () => {
    const old = await addHook({ issues_events: true })
    receiver.state.hold = true
    await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'in flight' } })
    await receiver.next(1)
    expect((await t.http('POST', '/-/emulator/reset', { token: 'glpat-root-token' })).status).toBeLessThan(
      300,
    )
    const fresh = await addHook({ note_events: true })
    expect(fresh.id).toBe(old.id)
    receiver.state.hold = false
    receiver.release()
    const issue = (await t.http('POST', `${P}/issues`, { token: MARK, json: { title: 'after' } }))
      .body as Json
    await t.http('POST', `${P}/issues/${issue.iid}/notes`, { token: MARK, json: { body: 'logged' } })
    const events = await eventually(
      () => t.http('GET', `${P}/hooks/${fresh.id}/events`, { token: MARK }),
      (r) => (r.body as Json[]).length >= 1,
    )
    expect((events.body as Json[]).map((e) => e.trigger)).toEqual(['note_hooks'])
  })
})
