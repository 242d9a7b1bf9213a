import { serverResetEach, startServer } from '../../support/server.js'
import { namespaceId } from '../../support/store-rows.js'
import { inspectDb } from '../../../src/server/store/inspect.js'
import { manualClock } from '../../support/pipeline-seed.js'

/*
 * `GET .../members/all` with group shares (`lib/api/helpers/members_helpers.rb` `find_all_members`):
 * a group lists the direct members of the groups shared into it and its ancestors
 * (`GroupMembersFinder` `:shared_from_groups`), a project those and the members of the groups it is
 * shared with and their ancestors (`MembersFinder` `:invited_groups`, `:shared_into_ancestors`), each at
 * the lower of their level and the share's `group_access`; an expired share adds nobody. Access
 * (`Group#members_from_self_and_ancestor_group_shares`) reads the same memberships.
 */

const OWEN = 'glpat-owen-token'
const CORA = 'glpat-cora-token'
const TESS = 'glpat-tess-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: owen, name: Owen, token: ${OWEN} }
  - { username: ida, name: Ida }
  - { username: sam, name: Sam }
  - { username: cora, name: Cora, token: ${CORA} }
  - { username: tess, name: Tess, token: ${TESS} }
groups:
  - { path: acme, name: ACME, members: { owen: owner } }
  - { path: acme/platform, name: Platform }
  - { path: partners, name: Partners, visibility: internal, members: { ida: maintainer, sam: reporter } }
  - { path: corp, name: Corp, visibility: internal, members: { cora: developer } }
  - { path: corp/team, name: Team, visibility: internal, members: { tess: maintainer } }
projects:
  - path: acme/platform/api
`
type Json = Record<string, unknown>
const t = serverResetEach(seed)

const idOf = (fullPath: string) => namespaceId(t.server.store, fullPath)
const userId = (username: string) =>
  (
    inspectDb(t.server.store).prepare('SELECT id FROM users WHERE username = ?').get(username) as {
      id: number
    }
  ).id
const levels = (body: unknown) =>
  (body as Json[]).map((m) => `${String(m.username)}:${String(m.access_level)}`)
const all = (path: string, token = OWEN) => t.http('GET', `/api/v4/${path}/members/all`, { token })
const shareGroup = async (group: string, withGroup: string, groupAccess: number, expiresAt?: string) => {
  const res = await t.http('POST', `/api/v4/groups/${encodeURIComponent(group)}/share`, {
    token: OWEN,
    json: {
      group_id: idOf(withGroup),
      group_access: groupAccess,
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    },
  })
  expect(res.status).toBe(201)
}

describe('GET /groups/:id/members/all with shares', () => {
  it("lists the shared-in group's direct members at the lower of their level and group_access", async () => {
    await shareGroup('acme', 'partners', 30)
    for (const path of ['groups/acme', 'groups/acme%2Fplatform']) {
      const res = await all(path)
      expect(res.status).toBe(200)
      expect(levels(res.body)).toEqual(['owen:50', 'ida:30', 'sam:20'])
      expect(res.headers['x-total']).toBe('3')
    }
    const one = await t.http('GET', `/api/v4/groups/acme%2Fplatform/members/all/${userId('ida')}`, {
      token: OWEN,
    })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ username: 'ida', access_level: 30 })
    // The direct list stays direct.
    expect(levels((await t.http('GET', '/api/v4/groups/acme/members', { token: OWEN })).body)).toEqual([
      'owen:50',
    ])
  })

  it("leaves out the invited group's inherited members, in the list and in access alike", async () => {
    await shareGroup('acme', 'corp/team', 40)
    expect(levels((await all('groups/acme')).body)).toEqual(['owen:50', 'tess:40'])
    expect((await t.http('GET', '/api/v4/groups/acme', { token: TESS })).status).toBe(200)
    expect((await t.http('GET', '/api/v4/groups/acme', { token: CORA })).status).toBe(404)
    const cora = await t.http('GET', `/api/v4/groups/acme/members/all/${userId('cora')}`, { token: OWEN })
    expect(cora.status).toBe(404)
    expect(cora.body).toEqual({ message: '404 Not found' })
  })
})

describe('GET /projects/:id/members/all with shares', () => {
  it("lists members of groups shared into the project's groups and of the groups it is shared with", async () => {
    await shareGroup('acme', 'partners', 20)
    // Sharing a project takes a member of the invited group: an administrator here.
    const share = await t.http('POST', '/api/v4/projects/acme%2Fplatform%2Fapi/share', {
      token: 'glpat-root-token',
      json: { group_id: idOf('corp/team'), group_access: 30 },
    })
    expect(share.status).toBe(201)
    const res = await all('projects/acme%2Fplatform%2Fapi')
    expect(res.status).toBe(200)
    // Project shares reach the invited group's ancestors' members too (cora, through corp).
    expect(levels(res.body).sort()).toEqual(['cora:30', 'ida:20', 'owen:50', 'sam:20', 'tess:30'])
    expect(res.headers['x-total']).toBe('5')
    expect((await t.http('GET', '/api/v4/projects/acme%2Fplatform%2Fapi', { token: CORA })).status).toBe(200)
    const filtered = await t.http('GET', '/api/v4/projects/acme%2Fplatform%2Fapi/members/all', {
      token: OWEN,
      query: 'query=tess',
    })
    expect(levels(filtered.body)).toEqual(['tess:30'])
  })
})

it('an expired share adds nobody, from the start of its expires_at day', async () => {
  const clock = manualClock('2026-03-01T10:00:00.000Z')
  const timed = await startServer(seed, { clock })
  try {
    const partners = (
      inspectDb(timed.server.store)
        .prepare("SELECT id FROM namespaces WHERE full_path = 'partners'")
        .get() as {
        id: number
      }
    ).id
    const res = await timed.http('POST', '/api/v4/groups/acme/share', {
      token: OWEN,
      json: { group_id: partners, group_access: 30, expires_at: '2026-03-02' },
    })
    expect(res.status).toBe(201)
    const list = async () =>
      levels((await timed.http('GET', '/api/v4/groups/acme%2Fplatform/members/all', { token: OWEN })).body)
    expect(await list()).toEqual(['owen:50', 'ida:30', 'sam:20'])
    clock.advance(14 * 3600_000)
    expect(await list()).toEqual(['owen:50'])
  } finally {
    await timed.close()
  }
})
