import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { TOKENS, membersSeed, userId } from './members-seed.js'

/*
 * The access rules the server applies follow memberships made through the members API: a role
 * given reads and writes as a seeded one does, a removed or expired one (`expires_at` reached on the
 * server's clock) gives nothing, and a group's members reach its subgroups and projects.
 */

const DAY = 86_400_000
let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(membersSeed, { clock })
})
afterEach(() => t.close())

const APP = '/api/v4/projects/acme%2Fapp'
const read = async (path = APP) => (await t.http('GET', path, { token: TOKENS.otto })).status
const add = async (path: string, json: Record<string, unknown>) => {
  const res = await t.http('POST', `${path}/members`, { token: TOKENS.olivia, json })
  expect(res.status).toBe(201)
}

describe('access follows memberships made through the API', () => {
  it('a Reporter reads the private project and creates issues, may not export, and loses it all when removed', async () => {
    const otto = userId(t, 'otto')
    expect(await read()).toBe(404)
    await add(APP, { user_id: otto, access_level: 20 })
    expect(await read()).toBe(200)
    const issue = await t.http('POST', `${APP}/issues`, {
      token: TOKENS.otto,
      json: { title: 'From a reporter' },
    })
    expect(issue.status).toBe(201)
    const exported = await t.http('POST', `${APP}/export`, { token: TOKENS.otto })
    expect(exported.status).toBe(403)
    expect(exported.body).toEqual({ message: '403 Forbidden' })

    const removed = await t.http('DELETE', `${APP}/members/${otto}`, { token: TOKENS.pat })
    expect(removed.status).toBe(204)
    expect(await read()).toBe(404)
    const after = await t.http('POST', `${APP}/issues`, { token: TOKENS.otto, json: { title: 'Too late' } })
    expect(after.status).toBe(404)
    expect(after.body).toEqual({ message: '404 Project Not Found' })
  })

  it('a Maintainer made through the API may export, and a level changed counts at once', async () => {
    const otto = userId(t, 'otto')
    await add(APP, { user_id: otto, access_level: 40 })
    expect((await t.http('POST', `${APP}/export`, { token: TOKENS.otto })).status).toBe(202)
    await t.http('PUT', `${APP}/members/${otto}`, { token: TOKENS.pat, json: { access_level: 30 } })
    expect((await t.http('POST', `${APP}/export`, { token: TOKENS.otto })).status).toBe(403)
  })

  it('a group membership reaches the subgroups and projects below it', async () => {
    expect(await read('/api/v4/projects/acme%2Fsub%2Flib')).toBe(404)
    expect(await read('/api/v4/groups/acme%2Fsub')).toBe(404)
    await add('/api/v4/groups/acme', { user_id: userId(t, 'otto'), access_level: 10 })
    expect(await read('/api/v4/projects/acme%2Fsub%2Flib')).toBe(200)
    expect(await read('/api/v4/groups/acme%2Fsub')).toBe(200)
    const all = await t.http('GET', '/api/v4/projects/acme%2Fsub%2Flib/members/all', { token: TOKENS.otto })
    expect(all.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'otto', access_level: 10 })]),
    )
  })

  it('an expired membership gives no access from its expiry date on the server clock', async () => {
    await add(APP, { user_id: userId(t, 'otto'), access_level: 30, expires_at: '2026-03-03' })
    expect(await read()).toBe(200)
    clock.advance(DAY)
    expect(await read()).toBe(200)
    clock.advance(DAY)
    expect(await read()).toBe(404)
  })
})
