import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'
import { TOKENS, membersSeed, memberRows, userId } from './members-seed.js'

/*
 * Adding, editing and removing members (`lib/api/members.rb`, `app/services/members/*`): GitLab's
 * statuses and bodies, who may do what, and nothing stored when a request is refused.
 */

const NOW = '2026-03-01T10:00:00.000Z'
let t: TestServer
beforeEach(async () => {
  t = await startServer(membersSeed, { clock: manualClock(NOW) })
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const APP = '/api/v4/projects/acme%2Fapp/members'
const ACME = '/api/v4/groups/acme/members'

/** Sends a request that must be refused, and checks its answer and that no membership changed. */
async function refused(
  method: string,
  path: string,
  token: string,
  json: Json | undefined,
  status: number,
  body: unknown,
) {
  const before = memberRows(t)
  const res = await t.http(method, path, { token, ...(json ? { json } : {}) })
  expect({ status: res.status, body: res.body }).toEqual({ status, body })
  expect(memberRows(t)).toEqual(before)
}

describe('POST .../members', () => {
  it("adds a user by id, 201 with the member, its creator and expiry, in GitLab's key order", async () => {
    const otto = userId(t, 'otto')
    const res = await t.http('POST', APP, {
      token: TOKENS.pat,
      json: { user_id: otto, access_level: 30, expires_at: '2026-12-31' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: otto,
      username: 'otto',
      public_email: null,
      name: 'Otto Outsider',
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${t.baseUrl}/otto`,
      access_level: 30,
      created_at: NOW,
      created_by: expect.objectContaining({ id: userId(t, 'pat'), username: 'pat' }),
      expires_at: '2026-12-31',
      membership_state: 'active',
    })
    expect(Object.keys(res.body as Json).slice(-5)).toEqual([
      'access_level',
      'created_at',
      'created_by',
      'expires_at',
      'membership_state',
    ])
    expect(memberRows(t).at(-1)).toEqual({
      source_type: 'project',
      source_id: 1,
      username: 'otto',
      access_level: 30,
      expires_at: '2026-12-31',
      created_by_id: userId(t, 'pat'),
    })
    const read = await t.http('GET', `${APP}/${otto}`, { token: TOKENS.otto })
    expect(read.body).toEqual(res.body)
  })

  it('adds a user by username, as a form too, and to a group (owners)', async () => {
    const res = await t.http('POST', ACME, { token: TOKENS.olivia, form: 'username=otto&access_level=10' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ username: 'otto', access_level: 10, expires_at: null })
  })

  it('adds several users at once (comma-separated): the service result', async () => {
    const ids = `${userId(t, 'otto')},${userId(t, 'rita')},99999`
    const res = await t.http('POST', APP, { token: TOKENS.pat, json: { user_id: ids, access_level: 20 } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ status: 'success' })
    const list = await t.http('GET', APP, { token: TOKENS.pat })
    expect((list.body as Json[]).map((m) => `${m.username}:${m.access_level}`)).toEqual([
      'pat:40',
      'otto:20',
      'rita:20',
    ])
  })

  it('several users: one the model refuses is named in the result, the others are still made', async () => {
    const ids = `${userId(t, 'mark')},${userId(t, 'otto')}`
    const res = await t.http('POST', APP, { token: TOKENS.pat, json: { user_id: ids, access_level: 30 } })
    expect(res.status).toBe(201)
    // BaseService#error: the message first.
    expect(res.text).toBe(
      JSON.stringify({
        message:
          'mark: Access level should be greater than or equal to Maintainer inherited membership from group Acme',
        status: 'error',
      }),
    )
    expect(memberRows(t).map((m) => (m as Json).username)).toEqual([
      'olivia',
      'mark',
      'dana',
      'mark',
      'pat',
      'rita',
      'otto',
    ])
  })

  it('refuses a taken membership, an unknown user, a bad level and missing parameters', async () => {
    await refused('POST', APP, TOKENS.pat, { user_id: userId(t, 'pat'), access_level: 30 }, 409, {
      message: 'Member already exists',
    })
    await refused('POST', APP, TOKENS.pat, { user_id: 99999, access_level: 30 }, 404, {
      message: '404 User Not Found',
    })
    await refused('POST', APP, TOKENS.pat, { username: 'ghosty', access_level: 30 }, 404, {
      message: '404 User Not Found',
    })
    await refused('POST', APP, TOKENS.pat, { user_id: userId(t, 'otto'), access_level: 35 }, 400, {
      error: 'access_level does not have a valid value',
    })
    await refused('POST', APP, TOKENS.pat, { user_id: [userId(t, 'otto')], access_level: 30 }, 400, {
      error: 'user_id is invalid',
    })
    await refused('POST', APP, TOKENS.pat, { user_id: userId(t, 'otto') }, 400, {
      error: 'access_level is missing',
    })
    await refused('POST', APP, TOKENS.pat, { access_level: 30 }, 400, {
      error: 'user_id, username are missing, at least one parameter must be provided',
    })
    await refused(
      'POST',
      APP,
      TOKENS.pat,
      { user_id: userId(t, 'otto'), username: 'otto', access_level: 30 },
      400,
      {
        error: 'user_id, username are mutually exclusive',
      },
    )
  })

  it('refuses what the model refuses: an expiry in the past, a level below an inherited one', async () => {
    await refused(
      'POST',
      APP,
      TOKENS.pat,
      { user_id: userId(t, 'otto'), access_level: 30, expires_at: '2026-02-28' },
      400,
      {
        message: { expires_at: ['cannot be a date in the past'] },
      },
    )
    await refused('POST', APP, TOKENS.pat, { user_id: userId(t, 'mark'), access_level: 30 }, 400, {
      message: {
        access_level: ['should be greater than or equal to Maintainer inherited membership from group Acme'],
      },
    })
    // Today is not in the past.
    const today = await t.http('POST', APP, {
      token: TOKENS.pat,
      json: { user_id: userId(t, 'otto'), access_level: 30, expires_at: '2026-03-01' },
    })
    expect(today.status).toBe(201)
  })

  it('403 below admin_*_member, and for a project Owner added by a Maintainer; 404 when hidden', async () => {
    const otto = userId(t, 'otto')
    await refused(
      'POST',
      '/api/v4/projects/acme%2Fsub%2Flib/members',
      TOKENS.rita,
      { user_id: otto, access_level: 10 },
      403,
      {
        message: '403 Forbidden',
      },
    )
    // Group members are managed by owners only: a group Maintainer may not.
    await refused('POST', ACME, TOKENS.mark, { user_id: otto, access_level: 10 }, 403, {
      message: '403 Forbidden',
    })
    await refused('POST', APP, TOKENS.pat, { user_id: otto, access_level: 50 }, 403, {
      message: '403 Forbidden',
    })
    await refused(
      'POST',
      APP,
      TOKENS.pat,
      { user_id: `${otto},${userId(t, 'rita')}`, access_level: 50 },
      403,
      {
        message: '403 Forbidden',
      },
    )
    await refused('POST', APP, TOKENS.otto, { user_id: otto, access_level: 10 }, 404, {
      message: '404 Project Not Found',
    })
    await refused('POST', APP, '', { user_id: otto, access_level: 10 }, 401, { message: '401 Unauthorized' })
    // The group's owner may add a project Owner.
    const owner = await t.http('POST', APP, {
      token: TOKENS.olivia,
      json: { user_id: otto, access_level: 50 },
    })
    expect(owner.status).toBe(201)
  })
})

describe('PUT .../members/:user_id', () => {
  it('changes the level; expires_at is kept unless given', async () => {
    const otto = userId(t, 'otto')
    await t.http('POST', APP, {
      token: TOKENS.pat,
      json: { user_id: otto, access_level: 30, expires_at: '2026-06-30' },
    })
    const res = await t.http('PUT', `${APP}/${otto}`, { token: TOKENS.pat, json: { access_level: 20 } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      username: 'otto',
      access_level: 20,
      expires_at: '2026-06-30',
      created_at: NOW,
    })
    const again = await t.http('PUT', `${APP}/${otto}`, {
      token: TOKENS.pat,
      form: 'access_level=40&expires_at=2026-07-01',
    })
    expect(again.body).toMatchObject({ access_level: 40, expires_at: '2026-07-01' })
    expect(memberRows(t).at(-1)).toMatchObject({
      username: 'otto',
      access_level: 40,
      expires_at: '2026-07-01',
    })
    const cleared = await t.http('PUT', `${APP}/${otto}`, {
      token: TOKENS.pat,
      form: 'access_level=40&expires_at=',
    })
    expect(cleared.body).toMatchObject({ access_level: 40, expires_at: null })
  })

  it('reads a JSON null expires_at as Grape does (nil): added without an expiry, and an edit clears it', async () => {
    // go-gitlab's AddGroupMemberOptions and EditGroupMemberOptions send `"expires_at": null` when unset.
    const otto = userId(t, 'otto')
    const added = await t.http('POST', APP, {
      token: TOKENS.pat,
      json: { user_id: otto, access_level: 30, expires_at: null },
    })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ username: 'otto', access_level: 30, expires_at: null })
    await t.http('PUT', `${APP}/${otto}`, {
      token: TOKENS.pat,
      json: { access_level: 30, expires_at: '2026-06-30' },
    })
    const edited = await t.http('PUT', `${APP}/${otto}`, {
      token: TOKENS.pat,
      json: { access_level: 40, expires_at: null },
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ access_level: 40, expires_at: null })
    expect(memberRows(t).at(-1)).toMatchObject({ username: 'otto', access_level: 40, expires_at: null })
  })

  it('refuses a missing member, a bad level, a past expiry, the last owner and owners without manage_owners', async () => {
    const olivia = userId(t, 'olivia')
    await refused('PUT', `${APP}/${userId(t, 'otto')}`, TOKENS.pat, { access_level: 20 }, 404, {
      message: '404 Not found',
    })
    await refused('PUT', `${APP}/${userId(t, 'pat')}`, TOKENS.pat, { access_level: 7 }, 400, {
      error: 'access_level does not have a valid value',
    })
    await refused('PUT', `${APP}/${userId(t, 'pat')}`, TOKENS.pat, {}, 400, {
      error: 'access_level is missing',
    })
    await refused(
      'PUT',
      `${APP}/${userId(t, 'pat')}`,
      TOKENS.pat,
      { access_level: 40, expires_at: '2025-01-01' },
      400,
      {
        message: { expires_at: ['cannot be a date in the past'] },
      },
    )
    await refused('PUT', `${ACME}/${olivia}`, TOKENS.olivia, { access_level: 40 }, 403, {
      message: '403 Forbidden',
    })
    await refused('PUT', `${APP}/${userId(t, 'pat')}`, TOKENS.pat, { access_level: 50 }, 403, {
      message: '403 Forbidden',
    })
    await refused('PUT', `${APP}/${userId(t, 'pat')}`, TOKENS.rita, { access_level: 30 }, 404, {
      message: '404 Project Not Found',
    })
    await refused(
      'PUT',
      `/api/v4/groups/acme%2Fsub/members/${userId(t, 'dana')}`,
      TOKENS.dana,
      { access_level: 40 },
      403,
      {
        message: '403 Forbidden',
      },
    )
  })
})

describe('DELETE .../members/:user_id', () => {
  it('removes a member (204); the member may leave; unassign_issuables unassigns them', async () => {
    const pat = userId(t, 'pat')
    const rita = userId(t, 'rita')
    const left = await t.http('DELETE', `/api/v4/projects/acme%2Fsub%2Flib/members/${rita}`, {
      token: TOKENS.rita,
    })
    expect(left.status).toBe(204)
    expect(left.text).toBe('')
    const assignees = () => inspectDb(t.server.store).prepare('SELECT user_id FROM issue_assignees').all()
    expect(assignees()).toEqual([{ user_id: pat }])
    const res = await t.http('DELETE', `${APP}/${pat}`, {
      token: TOKENS.olivia,
      query: 'unassign_issuables=true',
    })
    expect(res.status).toBe(204)
    expect(assignees()).toEqual([])
    expect(memberRows(t).map((m) => (m as Json).username)).toEqual(['olivia', 'mark', 'dana', 'mark'])
  })

  it('a group member leaves the subgroups and projects below too, unless skip_subresources', async () => {
    const mark = userId(t, 'mark')
    const kept = await t.http('DELETE', `${ACME}/${mark}`, {
      token: TOKENS.olivia,
      query: 'skip_subresources=true',
    })
    expect(kept.status).toBe(204)
    expect(memberRows(t).filter((m) => (m as Json).username === 'mark')).toHaveLength(1)
    await t.http('POST', ACME, { token: TOKENS.olivia, json: { user_id: mark, access_level: 40 } })
    const all = await t.http('DELETE', `${ACME}/${mark}`, { token: TOKENS.olivia })
    expect(all.status).toBe(204)
    expect(memberRows(t).filter((m) => (m as Json).username === 'mark')).toEqual([])
  })

  it('refuses a missing member, others without admin rights and the last owner of a group', async () => {
    await refused('DELETE', `${APP}/${userId(t, 'otto')}`, TOKENS.pat, undefined, 404, {
      message: '404 Not found',
    })
    await refused('DELETE', `${ACME}/${userId(t, 'olivia')}`, TOKENS.mark, undefined, 403, {
      message: '403 Forbidden',
    })
    await refused('DELETE', `${ACME}/${userId(t, 'olivia')}`, TOKENS.olivia, undefined, 403, {
      message: '403 Forbidden',
    })
    await refused('DELETE', `${ACME}/${userId(t, 'olivia')}`, TOKENS.root, undefined, 403, {
      message: '403 Forbidden',
    })
    await refused('DELETE', `${APP}/${userId(t, 'pat')}`, TOKENS.otto, undefined, 404, {
      message: '404 Project Not Found',
    })
    // With a second owner, the first may go.
    await t.http('PUT', `${ACME}/${userId(t, 'mark')}`, { token: TOKENS.olivia, json: { access_level: 50 } })
    const res = await t.http('DELETE', `${ACME}/${userId(t, 'olivia')}`, { token: TOKENS.olivia })
    expect(res.status).toBe(204)
  })
})

describe("a personal project's owner", () => {
  const TOOLS = '/api/v4/projects/pat%2Ftools/members'
  it('is its first member, Owner, whom nobody changes or removes', async () => {
    const pat = userId(t, 'pat')
    const listed = await t.http('GET', TOOLS, { token: TOKENS.pat })
    expect(listed.body).toEqual([
      expect.objectContaining({ id: pat, access_level: 50, created_at: NOW, expires_at: null }),
    ])
    expect(listed.headers['x-total']).toBe('1')
    expect((await t.http('GET', `${TOOLS}/${pat}`, { token: TOKENS.pat })).status).toBe(200)
    expect((await t.http('GET', `${TOOLS}/all/${pat}`, { token: TOKENS.pat })).status).toBe(200)
    await refused('POST', TOOLS, TOKENS.pat, { user_id: pat, access_level: 30 }, 409, {
      message: 'Member already exists',
    })
    await refused('PUT', `${TOOLS}/${pat}`, TOKENS.root, { access_level: 40 }, 403, {
      message: '403 Forbidden',
    })
    await refused('DELETE', `${TOOLS}/${pat}`, TOKENS.pat, undefined, 403, { message: '403 Forbidden' })
    const otto = await t.http('POST', TOOLS, {
      token: TOKENS.pat,
      json: { username: 'otto', access_level: 30 },
    })
    expect(otto.status).toBe(201)
    const all = await t.http('GET', `${TOOLS}/all`, { token: TOKENS.otto, query: 'per_page=1' })
    expect([(all.body as Json[])[0]?.username, all.headers['x-total']]).toEqual(['pat', '2'])
  })
})

describe("a personal project's owner before 14.9", () => {
  it('is its Maintainer', async () => {
    await t.close()
    t = await startServer(membersSeed, { clock: manualClock(NOW), gitlabVersion: '14.8.0' })
    const res = await t.http('GET', '/api/v4/projects/pat%2Ftools/members', { token: TOKENS.pat })
    expect((res.body as Json[]).map((m) => [m.username, m.access_level])).toEqual([['pat', 40]])
  })
})

describe('reset', () => {
  it('returns the memberships to the seed', async () => {
    const seeded = memberRows(t)
    await t.http('POST', APP, {
      token: TOKENS.pat,
      json: { user_id: userId(t, 'otto'), access_level: 30, expires_at: '2026-05-01' },
    })
    await t.http('DELETE', `${ACME}/${userId(t, 'mark')}`, { token: TOKENS.olivia })
    expect(memberRows(t)).not.toEqual(seeded)
    expect((await t.http('POST', '/-/emulator/reset', { token: TOKENS.root })).status).toBe(200)
    expect(memberRows(t)).toEqual(seeded)
    expect(inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM member_terms').get()).toEqual({
      n: 0,
    })
  })

  it('keeps memberships made through the API, with their terms, across a restart of a data directory', async () => {
    await t.close()
    const data = mkdtempSync(join(tmpdir(), 'members-data-'))
    try {
      t = await startServer(membersSeed, { data, clock: manualClock(NOW) })
      const otto = userId(t, 'otto')
      await t.http('POST', APP, {
        token: TOKENS.pat,
        json: { user_id: otto, access_level: 30, expires_at: '2026-05-01' },
      })
      const before = memberRows(t)
      await t.close()
      t = await startServer(membersSeed, { data, clock: manualClock(NOW) })
      expect(memberRows(t)).toEqual(before)
      const read = await t.http('GET', `${APP}/${otto}`, { token: TOKENS.otto })
      expect(read.body).toMatchObject({
        username: 'otto',
        expires_at: '2026-05-01',
        created_by: { username: 'pat' },
      })
    } finally {
      await t.close()
      rmSync(data, { recursive: true, force: true })
      t = await startServer(membersSeed, { clock: manualClock(NOW) })
    }
  })
})
