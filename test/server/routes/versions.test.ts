import { startServer, type TestServer } from '../../support/server.js'
import {
  PROJECT,
  RESET,
  runnerCount,
  storedToken,
  versionsSeed,
  vt,
  type ResetScope,
} from '../../support/versions-seed.js'

/** The same calls against three releases: before 17.0, between 17.0 and 18.0, and after 18.0. */
const VERSIONS = ['15.11.0', '17.11.0', '18.6.0'] as const
type V = (typeof VERSIONS)[number]
const servers = {} as Record<V, TestServer>
beforeAll(async () => {
  for (const v of VERSIONS) servers[v] = await startServer(versionsSeed, { gitlabVersion: v })
})
afterAll(async () => {
  for (const v of VERSIONS) await servers[v].close()
})

type Json = Record<string, unknown>
const SCOPES: ResetScope[] = ['instance', 'project', 'group']
const REGISTRATION_TOKEN = /^GR1348941[A-Za-z0-9_-]{20}$/
const GONE_RESET = { message: '410 Gone' }
const GONE_REGISTRATION = { message: '410 Gone - runner registration disallowed' }
const reset = (t: TestServer, scope: ResetScope, token: string = vt.root) =>
  t.http('POST', RESET[scope], { token })
const register = (t: TestServer, json: Json) => t.http('POST', '/api/v4/runners', { json })

describe.each(VERSIONS)('GitLab %s', (v) => {
  const t = () => servers[v]
  const resetGone = v.startsWith('18.')
  const registrationGone = !v.startsWith('15.')

  it('GET /version reports the release', async () => {
    const res = await t().http('GET', '/api/v4/version', { token: vt.developer })
    expect(res.body).toMatchObject({ version: `${v}-ee`, enterprise: true })
  })

  it(`task_status says ${v.startsWith('15.') ? 'tasks' : 'checklist items'}`, async () => {
    const list = (
      await t().http('GET', `${PROJECT}/issues`, { token: vt.developer, query: 'iids[]=1&iids[]=2&iids[]=3' })
    ).body as Json[]
    list.sort((a, b) => Number(a.iid) - Number(b.iid))
    const text = v.startsWith('15.') ? '0 of 0 tasks completed' : '0 of 0 checklist items completed'
    expect(list.map((i) => [i.title, i.has_tasks, i.task_status])).toEqual([
      ['Plain', true, text],
      ['Checklist', false, undefined],
      ['Empty', true, ''],
    ])
    const one = await t().http('GET', `${PROJECT}/issues/1`, { token: vt.developer })
    expect((one.body as Json).task_status).toBe(text)
  })

  it('issue records keep the deprecated assignee and epic_iid beside assignees and epic', async () => {
    const { store } = t().server
    const group = store.namespaces.byPath('acme')!
    const epicId = store.epics.insert(group.id, 'Roadmap', null, store.users.byUsername('root')!.id, 'now')
    const epicIid = store.epics.get(epicId)!.iid
    const created = await t().http('POST', `${PROJECT}/issues`, {
      token: vt.maintainer,
      json: { title: 'Epic child', epic_iid: epicIid, assignee_ids: [store.users.byUsername('dana')!.id] },
    })
    expect(created.status).toBe(201)
    const body = created.body as Json & { assignees: Json[]; epic: Json }
    expect(body.epic_iid).toBe(epicIid)
    expect(body.epic).toMatchObject({ id: epicId, iid: epicIid })
    expect(body.assignee).toEqual(body.assignees[0])
    expect(body.assignee).toMatchObject({ username: 'dana' })

    const plain = (await t().http('GET', `${PROJECT}/issues/1`, { token: vt.developer })).body as Json
    expect(plain).toHaveProperty('epic_iid', null)
    expect(plain).toHaveProperty('epic', null)
    expect(plain.assignee).toMatchObject({ username: 'mark' })

    const iid = Number(body.iid)
    const cleared = await t().http('PUT', `${PROJECT}/issues/${iid}`, {
      token: vt.maintainer,
      json: { epic_iid: 0, assignee_ids: [] },
    })
    expect(cleared.body).toMatchObject({ epic_iid: null, epic: null, assignee: null, assignees: [] })
    const again = await t().http('PUT', `${PROJECT}/issues/${iid}`, {
      token: vt.maintainer,
      json: { epic_iid: epicIid },
    })
    expect(again.body).toMatchObject({ epic_iid: epicIid, epic: { id: epicId } })
  })

  it.each(SCOPES)(
    `POST reset_registration_token (%s) ${resetGone ? 'answers 410' : 'resets the token'}`,
    async (scope) => {
      const before = storedToken(t(), scope)
      const res = await reset(t(), scope)
      if (resetGone) {
        expect(res.status).toBe(410)
        expect(res.body).toEqual(GONE_RESET)
        expect(storedToken(t(), scope)).toBe(before)
        return
      }
      expect(res.status).toBe(201)
      expect(res.body).toEqual({ token: expect.stringMatching(REGISTRATION_TOKEN) })
      expect(storedToken(t(), scope)).not.toBe(before)
      const next = await reset(t(), scope)
      expect((next.body as Json).token).not.toBe((res.body as Json).token)
    },
  )

  it('the reset endpoints authenticate first, before and after their removal', async () => {
    for (const scope of SCOPES) {
      const res = await t().http('POST', RESET[scope])
      expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }])
    }
  })

  it(`POST /runners with a registration token ${registrationGone ? 'answers 410' : 'registers a runner'}`, async () => {
    const count = runnerCount(t())
    if (resetGone) {
      const res = await register(t(), { token: 'GR1348941abcdefghijklmnopqrst' })
      expect([res.status, res.body]).toEqual([410, GONE_REGISTRATION])
      expect(runnerCount(t())).toBe(count)
      return
    }
    const token = ((await reset(t(), 'project')).body as { token: string }).token
    const res = await register(t(), { token, description: 'ci-1', tag_list: 'docker, linux' })
    if (registrationGone) {
      expect([res.status, res.body]).toEqual([410, GONE_REGISTRATION])
      expect(runnerCount(t())).toBe(count)
      return
    }
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/),
      token_expires_at: null,
    })
    expect(runnerCount(t())).toBe(count + 1)
  })

  it('POST /runners validates parameters and refuses a blank token the same way in every release', async () => {
    expect((await register(t(), {})).body).toEqual({ error: 'token is missing' })
    const blank = await register(t(), { token: '  ' })
    expect([blank.status, blank.body]).toEqual([403, { message: '403 Forbidden - invalid token supplied' }])
  })
})
