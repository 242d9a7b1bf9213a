import { serverResetEach, startServer } from '../../support/server.js'
import { namespaceId } from '../../support/store-rows.js'
import { inspectDb } from '../../../src/server/store/inspect.js'
import { manualClock } from '../../support/pipeline-seed.js'

/*
 * Sharing a group with another (`lib/api/groups.rb` share/unshare,
 * app/services/groups/group_links/create_service.rb): the invited group's members reach the shared
 * group, its subgroups and projects up to `group_access`.
 */

const OWEN = 'glpat-owen-token'
const IDA = 'glpat-ida-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: owen, name: Owen, token: ${OWEN} }
  - { username: ida, name: Ida, token: ${IDA} }
groups:
  - { path: acme, name: ACME, members: { owen: owner } }
  - { path: acme/platform, name: Platform }
  - { path: partners, name: Partners, members: { owen: owner, ida: maintainer } }
  - { path: lone, name: Lone, members: { ida: owner } }
  - { path: partners/team, name: Team }
projects:
  - path: acme/platform/api
    issues:
      - { title: Shared issue, author: owen }
`
type Json = Record<string, unknown>
const t = serverResetEach(seed)

const db = () => inspectDb(t.server.store)
const idOf = (fullPath: string) => namespaceId(t.server.store, fullPath)
const links = () => db().prepare('SELECT * FROM group_group_links').all()
const share = (json: Json, token = OWEN, group = 'acme') =>
  t.http('POST', `/api/v4/groups/${group}/share`, { token, json })

describe('POST /groups/:id/share', () => {
  it('shares a group: shared_with_groups lists it and the invited members reach it up to group_access', async () => {
    expect((await t.http('GET', '/api/v4/groups/acme%2Fplatform', { token: IDA })).status).toBe(404)
    const res = await share({ group_id: idOf('partners'), group_access: 20, expires_at: '2030-01-31' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      full_path: 'acme',
      shared_with_groups: [
        {
          group_id: idOf('partners'),
          group_name: 'Partners',
          group_full_path: 'partners',
          group_access_level: 20,
          expires_at: '2030-01-31',
        },
      ],
    })
    expect((await t.http('GET', '/api/v4/groups/acme', { token: OWEN })).body).toEqual(res.body)
    // Ida (Maintainer of partners) is a Reporter in acme and below: she reads, but may not write.
    expect((await t.http('GET', '/api/v4/groups/acme%2Fplatform', { token: IDA })).status).toBe(200)
    const issues = await t.http('GET', '/api/v4/projects/acme%2Fplatform%2Fapi/issues', { token: IDA })
    expect((issues.body as Json[]).map((i) => i.title)).toEqual(['Shared issue'])
    const edit = await t.http('PUT', '/api/v4/groups/acme', { token: IDA, json: { name: 'X' } })
    expect(edit.status).toBe(403)
    const sub = await t.http('POST', '/api/v4/groups', {
      token: IDA,
      json: { name: 'Sub', path: 'sub', parent_id: idOf('acme') },
    })
    expect(sub.status).toBe(403)
  })

  it('refuses bad values (400), callers who are not Owners (404 Not Found), hidden groups and shares made already (409)', async () => {
    const invalid = await share({ group_id: idOf('partners'), group_access: 35 })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({ error: 'group_access does not have a valid value' })
    expect((await share({ group_access: 30 })).body).toEqual({ error: 'group_id is missing' })
    const date = await share({ group_id: idOf('partners'), group_access: 30, expires_at: '2030-02-30' })
    expect(date.body).toEqual({ error: 'expires_at is invalid' })
    const notOwner = await share({ group_id: idOf('lone'), group_access: 30 }, IDA, 'partners')
    expect(notOwner.status).toBe(404)
    expect(notOwner.body).toEqual({ message: 'Not Found' })
    const hidden = await share({ group_id: idOf('lone'), group_access: 30 })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
    expect(links()).toEqual([])
    expect((await share({ group_id: idOf('partners'), group_access: 30 })).status).toBe(201)
    const again = await share({ group_id: idOf('partners'), group_access: 40 })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ message: 'Shared group The group has already been shared with this group' })
    expect(links()).toMatchObject([{ group_access: 30 }])
  })
})

describe('DELETE /groups/:id/share/:group_id', () => {
  it('stops sharing: 204, the invited members lose access; 404 Group Link Not Found after; 403 for non-Owners', async () => {
    await share({ group_id: idOf('partners'), group_access: 30 })
    const notOwner = await t.http('DELETE', `/api/v4/groups/acme/share/${idOf('partners')}`, { token: IDA })
    expect(notOwner.status).toBe(403)
    expect(notOwner.body).toEqual({ message: '403 Forbidden' })
    const res = await t.http('DELETE', `/api/v4/groups/acme/share/${idOf('partners')}`, { token: OWEN })
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(links()).toEqual([])
    expect((await t.http('GET', '/api/v4/groups/acme', { token: IDA })).status).toBe(404)
    const again = await t.http('DELETE', `/api/v4/groups/acme/share/${idOf('partners')}`, { token: OWEN })
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ message: '404 Group Link Not Found' })
  })

  it('a share goes when the invited group is removed, and with a reset', async () => {
    const team = idOf('partners/team')
    await share({ group_id: team, group_access: 30 })
    await share({ group_id: idOf('partners'), group_access: 30 })
    expect((await t.http('DELETE', `/api/v4/groups/${team}`, { token: OWEN })).status).toBe(202)
    expect(links()).toHaveLength(2)
    const gone = await t.http('DELETE', `/api/v4/groups/${team}`, {
      token: OWEN,
      query: `permanently_remove=true&full_path=partners/team-deletion_scheduled-${team}`,
    })
    expect(gone.status).toBe(202)
    expect(links()).toMatchObject([{ shared_with_group_id: idOf('partners') }])
    t.server.reset()
    expect(links()).toEqual([])
  })
})

it('shared_with_groups lists only the invited groups the caller can read', async () => {
  const lone = await t.http('POST', '/api/v4/groups/partners/share', {
    token: 'glpat-root-token',
    json: { group_id: idOf('lone'), group_access: 10 },
  })
  expect(lone.status).toBe(201)
  expect((lone.body as Json).shared_with_groups).toHaveLength(1)
  const seenByOwen = await t.http('GET', '/api/v4/groups/partners', { token: OWEN })
  expect((seenByOwen.body as Json).shared_with_groups).toEqual([])
  const seenByIda = await t.http('GET', '/api/v4/groups/partners', { token: IDA })
  expect((seenByIda.body as Json).shared_with_groups).toMatchObject([{ group_full_path: 'lone' }])
})

it('a share stops granting access at the start of its expires_at day', async () => {
  const clock = manualClock('2026-03-01T10:00:00.000Z')
  const timed = await startServer(seed, { clock })
  try {
    const partners = namespaceId(timed.server.store, 'partners')
    const res = await timed.http('POST', '/api/v4/groups/acme/share', {
      token: OWEN,
      json: { group_id: partners, group_access: 20, expires_at: '2026-03-02' },
    })
    expect(res.status).toBe(201)
    expect((await timed.http('GET', '/api/v4/groups/acme', { token: IDA })).status).toBe(200)
    clock.advance(14 * 3600_000)
    expect((await timed.http('GET', '/api/v4/groups/acme', { token: IDA })).status).toBe(404)
  } finally {
    await timed.close()
  }
})
