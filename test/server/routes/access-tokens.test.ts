import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { snapshotStore } from '../../support/fuzz-store.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Project and group access tokens (`lib/api/resource_access_tokens.rb`,
 * `app/services/resource_access_tokens/create_service.rb`): a bot user per token, a member of the
 * project or group at the token's level; the token signs in as the bot with its scopes at once.
 */

const ROOT = 'glpat-root-token'
const OWNER = 'glpat-olivia-token'
const MAINTAINER = 'glpat-mark-token'
const DEVELOPER = 'glpat-dana-token'
const OUTSIDER = 'glpat-otto-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: olivia, name: Olivia Owner, token: ${OWNER} }
  - { username: mark, name: Mark Maintainer, token: ${MAINTAINER} }
  - { username: dana, name: Dana Developer, token: ${DEVELOPER} }
  - { username: otto, name: Otto Outsider, token: ${OUTSIDER} }
groups:
  - path: acme
    visibility: private
    members: { olivia: owner, mark: maintainer, dana: developer }
projects:
  - path: acme/widgets
    visibility: private
    issues:
      - { title: One, author: dana }
  - path: acme/gadgets
    visibility: private
`
type Json = Record<string, unknown>
type Made = Json & { id: number; token: string; user_id: number }
let t: TestServer
const clock = { t: Date.parse('2026-03-01T10:00:00.000Z'), now: () => new Date(clock.t) }
beforeEach(async () => {
  clock.t = Date.parse('2026-03-01T10:00:00.000Z')
  t = await startServer(seed, { clock })
})
afterEach(() => t.close())

const db = () => inspectDb(t.server.store)
const snapshot = () => snapshotStore(db(), ['token_last_used'])
const projectId = () =>
  (db().prepare("SELECT id FROM projects WHERE full_path = 'acme/widgets'").get() as { id: number }).id
const groupId = () =>
  (db().prepare("SELECT id FROM namespaces WHERE full_path = 'acme'").get() as { id: number }).id
const P = '/api/v4/projects/acme%2Fwidgets/access_tokens'
const G = '/api/v4/groups/acme/access_tokens'
const make = async (base: string, json: Json, token = MAINTAINER): Promise<Made> => {
  const res = await t.http('POST', base, { token, json })
  expect(res.status).toBe(201)
  return res.body as Made
}

describe('POST /projects/:id/access_tokens', () => {
  it('makes a bot member at the level asked, answers the token once, and the token signs in as the bot', async () => {
    const made = await make(P, {
      name: 'ci',
      scopes: ['api'],
      access_level: 30,
      expires_at: '2026-06-01',
      description: 'deploys',
    })
    expect(Object.keys(made)).toEqual([
      'id',
      'name',
      'revoked',
      'created_at',
      'description',
      'scopes',
      'user_id',
      'last_used_at',
      'active',
      'expires_at',
      'last_used_ips',
      'access_level',
      'resource_type',
      'resource_id',
      'token',
    ])
    expect(made).toMatchObject({
      name: 'ci',
      revoked: false,
      created_at: '2026-03-01T10:00:00.000Z',
      description: 'deploys',
      scopes: ['api'],
      last_used_at: null,
      active: true,
      expires_at: '2026-06-01',
      last_used_ips: [],
      access_level: 30,
      resource_type: 'project',
      resource_id: projectId(),
      token: expect.stringMatching(/^glpat-[\w-]{20}$/),
    })
    const bot = (await t.http('GET', `/api/v4/users/${made.user_id}`, { token: ROOT })).body as Json
    expect(bot).toMatchObject({
      username: expect.stringMatching(new RegExp(`^project_${projectId()}_bot_[0-9a-f]{32}$`)),
      name: 'ci',
      bot: true,
      email: expect.stringMatching(/@noreply\.127\.0\.0\.1$/),
    })
    expect(
      db().prepare('SELECT source_type, access_level FROM members WHERE user_id = ?').all(made.user_id),
    ).toEqual([{ source_type: 'project', access_level: 30 }])
    const stored = db().prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(made.id)
    expect(JSON.stringify(stored)).not.toContain(made.token)

    expect(await t.http('GET', '/api/v4/user', { token: made.token })).toMatchObject({
      status: 200,
      body: { id: made.user_id, bot: true },
    })
    expect(
      (await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', { token: made.token })).status,
    ).toBe(200)
    const issue = await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', {
      token: made.token,
      json: { title: 'By the bot' },
    })
    expect(issue).toMatchObject({ status: 201, body: { author: { id: made.user_id } } })
    // Only this project: its sibling is hidden from the bot.
    expect(
      await t.http('GET', '/api/v4/projects/acme%2Fgadgets/issues', { token: made.token }),
    ).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
  })

  it('defaults to Maintainer and a year; read_api reads but cannot write', async () => {
    const made = await make(P, { name: 'reader', scopes: 'read_api' })
    expect(made).toMatchObject({ access_level: 40, expires_at: '2027-03-01', scopes: ['read_api'] })
    expect(
      (await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', { token: made.token })).status,
    ).toBe(200)
    expect(
      await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', {
        token: made.token,
        json: { title: 'x' },
      }),
    ).toMatchObject({ status: 403, body: { error: 'insufficient_scope', scope: 'api' } })
  })

  it('a Maintainer bot makes and rotates no access tokens (`project_bot_access` prevents it)', async () => {
    const bot = await make(P, { name: 'maintainer bot', scopes: ['api'] })
    expect(bot.access_level).toBe(40)
    expect(
      await t.http('POST', P, {
        token: bot.token,
        json: { name: 'child', scopes: ['api'], access_level: 10 },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - User does not have permission to create project access token' },
    })
    expect(await t.http('POST', `${P}/${bot.id}/rotate`, { token: bot.token })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    // It reads them, as a Maintainer.
    expect((await t.http('GET', P, { token: bot.token })).status).toBe(200)
  })

  it('refuses as GitLab does and changes nothing', async () => {
    const before = snapshot()
    const post = (json: Json, token?: string, base = P) =>
      t.http('POST', base, { ...(token ? { token } : {}), json })
    const ok = { name: 'x', scopes: ['api'] }
    expect(await post(ok)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } })
    expect(await post(ok, DEVELOPER)).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - User does not have permission to create project access token' },
    })
    expect(await post(ok, OUTSIDER)).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    })
    expect(await post({ ...ok, access_level: 50 }, MAINTAINER)).toMatchObject({
      status: 400,
      body: {
        message:
          '400 Bad request - Access level of the token contains permissions not held by the creating user',
      },
    })
    expect(await post({ ...ok, access_level: 45 }, MAINTAINER)).toMatchObject({
      status: 400,
      body: { error: 'access_level does not have a valid value' },
    })
    expect(await post({ name: 'x', scopes: ['sudo'] }, MAINTAINER)).toMatchObject({
      status: 400,
      body: { error: 'scopes does not have a valid value' },
    })
    expect(await post({ scopes: ['api'] }, MAINTAINER)).toMatchObject({
      status: 400,
      body: { error: 'name is missing' },
    })
    expect(await post({ ...ok, expires_at: 'soon' }, MAINTAINER)).toMatchObject({
      status: 400,
      body: { error: 'expires_at is invalid' },
    })
    expect(await post({ ...ok, expires_at: '2027-03-02' }, MAINTAINER)).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Expires at must be before 2027-03-01' },
    })
    expect(await post(ok, MAINTAINER, '/api/v4/projects/9999/access_tokens')).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    })
    expect(snapshot()).toEqual(before)
  })
})

describe('project access tokens: list, read, revoke, rotate', () => {
  it('lists by id with the state filter, in pages; reads one; 401 below Maintainer, 404 for none', async () => {
    const a = await make(P, { name: 'a', scopes: ['api'] })
    const b = await make(P, { name: 'b', scopes: ['api'], expires_at: '2026-03-05' })
    await make(G, { name: 'group one', scopes: ['api'] }, OWNER)
    clock.t = Date.parse('2026-03-06T00:00:00.000Z')
    const all = await t.http('GET', P, { token: MAINTAINER })
    expect(all.status).toBe(200)
    expect((all.body as Json[]).map((x) => [x.name, x.active])).toEqual([
      ['a', true],
      ['b', false],
    ])
    expect(all.body as Json[]).not.toContainEqual(expect.objectContaining({ token: expect.anything() }))
    expect(all.headers['x-total']).toBe('2')
    const active = await t.http('GET', P, { token: MAINTAINER, query: 'state=active' })
    expect((active.body as Json[]).map((x) => x.id)).toEqual([a.id])
    const inactive = await t.http('GET', P, { token: ROOT, query: 'state=inactive' })
    expect((inactive.body as Json[]).map((x) => x.id)).toEqual([b.id])
    const paged = await t.http('GET', P, { token: MAINTAINER, query: 'per_page=1&page=2' })
    expect((paged.body as Json[]).map((x) => x.id)).toEqual([b.id])
    expect(paged.headers['x-total-pages']).toBe('2')

    expect(await t.http('GET', `${P}/${a.id}`, { token: MAINTAINER })).toMatchObject({
      status: 200,
      body: { id: a.id, name: 'a', access_level: 40, resource_type: 'project' },
    })
    expect(await t.http('GET', P, { token: DEVELOPER })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    expect(await t.http('GET', `${P}/${a.id}`, { token: DEVELOPER })).toMatchObject({ status: 401 })
    for (const id of ['9999', 'abc'])
      expect(await t.http('GET', `${P}/${id}`, { token: MAINTAINER })).toMatchObject({
        status: 404,
        body: { message: '404 project Access Token Not Found' },
      })
  })

  it('revokes: the token stops signing in, the bot and its membership go; refusals change nothing', async () => {
    const made = await make(P, { name: 'gone', scopes: ['api'] })
    await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', {
      token: made.token,
      json: { title: 'Bot' },
    })
    const botName = (db().prepare('SELECT name FROM users WHERE id = ?').get(made.user_id) as Json).name
    const before = snapshot()
    expect(await t.http('DELETE', `${P}/${made.id}`, { token: DEVELOPER })).toMatchObject({
      status: 400,
      body: { message: `400 Bad request - Dana Developer cannot delete ${String(botName)}` },
    })
    expect(await t.http('DELETE', `${P}/9999`, { token: MAINTAINER })).toMatchObject({
      status: 404,
      body: { message: '404 project Access Token Not Found' },
    })
    expect(snapshot()).toEqual(before)

    expect((await t.http('DELETE', `${P}/${made.id}`, { token: MAINTAINER })).status).toBe(204)
    expect(await t.http('GET', '/api/v4/user', { token: made.token })).toMatchObject({ status: 401 })
    expect(db().prepare('SELECT COUNT(*) AS n FROM users WHERE id = ?').get(made.user_id)).toEqual({ n: 0 })
    expect(db().prepare('SELECT COUNT(*) AS n FROM members WHERE user_id = ?').get(made.user_id)).toEqual({
      n: 0,
    })
    // The bot's issue stays, the Ghost User's.
    expect(
      db()
        .prepare("SELECT u.username FROM issues i JOIN users u ON u.id = i.author_id WHERE i.title = 'Bot'")
        .get(),
    ).toEqual({ username: 'ghost' })
    expect((await t.http('GET', `${P}/${made.id}`, { token: MAINTAINER })).status).toBe(404)
  })

  it('rotates: the old token revoked, a new one for the same bot expiring in a week', async () => {
    const made = await make(P, { name: 'turn', scopes: ['read_api'], access_level: 20 })
    const res = await t.http('POST', `${P}/${made.id}/rotate`, { token: MAINTAINER })
    expect(res.status).toBe(200)
    const next = res.body as Made
    expect(next).toMatchObject({
      name: 'turn',
      scopes: ['read_api'],
      user_id: made.user_id,
      access_level: 20,
      expires_at: '2026-03-08',
      token: expect.stringMatching(/^glpat-/),
    })
    expect(next.id).not.toBe(made.id)
    expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(401)
    expect((await t.http('GET', '/api/v4/user', { token: next.token })).status).toBe(200)
    expect(await t.http('POST', `${P}/${made.id}/rotate`, { token: MAINTAINER })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - token already revoked' },
    })
    expect(await t.http('POST', `${P}/${next.id}/rotate`, { token: DEVELOPER })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    expect(await t.http('POST', `${P}/9999/rotate`, { token: ROOT })).toMatchObject({
      status: 404,
      body: { message: '404 Not Found' },
    })
  })
})

describe('group access tokens', () => {
  it('owners make them; the bot reaches the group and its projects at its level', async () => {
    const made = await make(G, { name: 'group ci', scopes: ['api'], access_level: 30 }, OWNER)
    expect(made).toMatchObject({ resource_type: 'group', resource_id: groupId(), access_level: 30 })
    const bot = (await t.http('GET', `/api/v4/users/${made.user_id}`, { token: ROOT })).body as Json
    expect(bot.username).toMatch(new RegExp(`^group_${groupId()}_bot_[0-9a-f]{32}$`))
    expect(
      (await t.http('GET', '/api/v4/projects/acme%2Fgadgets/issues', { token: made.token })).status,
    ).toBe(200)
    expect(await t.http('GET', G, { token: OWNER })).toMatchObject({
      status: 200,
      body: [expect.objectContaining({ id: made.id, resource_type: 'group' })],
    })
    // The project's list holds only the project's tokens.
    expect((await t.http('GET', P, { token: ROOT })).body).toEqual([])
  })

  it('refuses maintainers of the group, and outsiders see no group', async () => {
    const before = snapshot()
    expect(
      await t.http('POST', G, { token: MAINTAINER, json: { name: 'x', scopes: ['api'] } }),
    ).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - User does not have permission to create group access token' },
    })
    expect(await t.http('GET', G, { token: MAINTAINER })).toMatchObject({ status: 401 })
    expect(await t.http('GET', G, { token: OUTSIDER })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    })
    expect(await t.http('GET', `${G}/1`, { token: OWNER })).toMatchObject({
      status: 404,
      body: { message: '404 group Access Token Not Found' },
    })
    expect(snapshot()).toEqual(before)
  })
})

describe('tokens and the emulator', () => {
  it('a reset takes the tokens and bots made through the API away', async () => {
    const made = await make(P, { name: 'temp', scopes: ['api'] })
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(401)
    expect(db().prepare('SELECT COUNT(*) AS n FROM bot_users').get()).toEqual({ n: 0 })
    expect(db().prepare("SELECT COUNT(*) AS n FROM users WHERE username LIKE 'project_%'").get()).toEqual({
      n: 0,
    })
    expect((await t.http('GET', '/api/v4/user', { token: MAINTAINER })).status).toBe(200)
  })

  it('with --data, tokens made through the API sign in after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-tokens-'))
    try {
      const first = await startServer(seed, { data: dir, clock })
      const made = await first.http('POST', P, { token: MAINTAINER, json: { name: 'kept', scopes: ['api'] } })
      const user = (first.server.store.users.byUsername('dana') as { id: number }).id
      const imp = await first.http('POST', `/api/v4/users/${user}/impersonation_tokens`, {
        token: ROOT,
        json: { name: 'kept', scopes: ['api'], expires_at: '2026-12-01' },
      })
      await first.close()
      const second = await startServer(seed, { data: dir, clock })
      try {
        expect(await second.http('GET', '/api/v4/user', { token: (made.body as Made).token })).toMatchObject({
          status: 200,
          body: { bot: true },
        })
        expect(await second.http('GET', '/api/v4/user', { token: (imp.body as Made).token })).toMatchObject({
          status: 200,
          body: { username: 'dana' },
        })
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('writes last_used_at on use, at most once in ten minutes', async () => {
    const made = await make(P, { name: 'used', scopes: ['api'] })
    const lastUsed = async () =>
      ((await t.http('GET', `${P}/${made.id}`, { token: ROOT })).body as Json).last_used_at
    expect(await lastUsed()).toBeNull()
    await t.http('GET', '/api/v4/user', { token: made.token })
    expect(await lastUsed()).toBe('2026-03-01T10:00:00.000Z')
    clock.t += 9 * 60_000
    const changes = t.server.store.changeCount()
    await t.http('GET', '/api/v4/user', { token: made.token })
    expect(t.server.store.changeCount()).toBe(changes)
    expect(await lastUsed()).toBe('2026-03-01T10:00:00.000Z')
    clock.t += 2 * 60_000
    await t.http('GET', '/api/v4/user', { token: made.token })
    expect(await lastUsed()).toBe('2026-03-01T10:11:00.000Z')
  })
})

describe('the releases that have them', () => {
  it.each([
    ['13.8.0', 404, 404, 404, 404],
    ['14.6.0', 201, 404, 404, 404],
    ['15.11.0', 201, 201, 404, 404],
    ['16.5.0', 201, 201, 200, 201],
  ])('%s: project tokens %i, group tokens %i, rotate %i, own token %i', async (version, ...expected) => {
    const v = await startServer(seed, { gitlabVersion: version, clock })
    try {
      const project = await v.http('POST', P, { token: MAINTAINER, json: { name: 'p', scopes: ['api'] } })
      const group = await v.http('POST', G, { token: OWNER, json: { name: 'g', scopes: ['api'] } })
      const id = (project.body as { id?: number }).id ?? 1
      const rotate = await v.http('POST', `${P}/${id}/rotate`, { token: MAINTAINER })
      const own = await v.http('POST', '/api/v4/user/personal_access_tokens', {
        token: MAINTAINER,
        json: { name: 'k', scopes: ['k8s_proxy'] },
      })
      expect([project.status, group.status, rotate.status, own.status]).toEqual(expected)
    } finally {
      await v.close()
    }
  })

  it('tokens need not expire before 16.0: no default expiry, no longest lifetime', async () => {
    const v = await startServer(seed, { gitlabVersion: '15.11.0', clock })
    try {
      expect(
        await v.http('POST', P, { token: MAINTAINER, json: { name: 'forever', scopes: ['api'] } }),
      ).toMatchObject({ status: 201, body: { expires_at: null, active: true } })
      expect(
        await v.http('POST', P, {
          token: MAINTAINER,
          json: { name: 'far', scopes: ['api'], expires_at: '2030-01-01' },
        }),
      ).toMatchObject({ status: 201, body: { expires_at: '2030-01-01' } })
      const dana = (v.server.store.users.byUsername('dana') as { id: number }).id
      expect(
        await v.http('POST', `/api/v4/users/${dana}/impersonation_tokens`, {
          token: ROOT,
          json: { name: 'i', scopes: ['api'] },
        }),
      ).toMatchObject({ status: 201, body: { expires_at: null, impersonation: true } })
    } finally {
      await v.close()
    }
  })

  it('the state filter of the token lists is ignored before 17.2', async () => {
    const v = await startServer(seed, { gitlabVersion: '17.1.0', clock })
    try {
      await v.http('POST', P, {
        token: MAINTAINER,
        json: { name: 'old', scopes: ['api'], expires_at: '2026-03-02' },
      })
      await v.http('POST', P, { token: MAINTAINER, json: { name: 'new', scopes: ['api'] } })
      clock.t = Date.parse('2026-03-03T00:00:00.000Z')
      const listed = await v.http('GET', P, { token: MAINTAINER, query: 'state=active' })
      expect((listed.body as Json[]).map((x) => x.name)).toEqual(['old', 'new'])
    } finally {
      await v.close()
    }
  })
})
