import { serverResetEach, startServer } from '../../support/server.js'
import { namespaceId } from '../../support/store-rows.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * The groups below a group and moving them (`lib/api/groups.rb` subgroups, descendant_groups,
 * transfer; app/services/groups/transfer_service.rb), and the list filters suites use.
 */

const ROOT = 'glpat-root-token'
const OWEN = 'glpat-owen-token'
const MIA = 'glpat-mia-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: owen, name: Owen, token: ${OWEN} }
  - { username: mia, name: Mia, token: ${MIA} }
groups:
  - { path: acme, name: ACME, visibility: public, members: { owen: owner } }
  - { path: acme/web, name: Web, visibility: public }
  - { path: acme/web/ui, name: UI, visibility: public }
  - { path: acme/secret, name: Secret }
  - { path: acme/data, name: Data, visibility: public }
  - { path: other, name: Other, members: { owen: owner, mia: maintainer } }
  - { path: other/web, name: Web }
  - { path: small, name: Small, members: { mia: owner } }
projects:
  - path: acme/web/site
    visibility: public
  - path: acme/web/ui/kit
    visibility: public
`
type Json = Record<string, unknown>
const t = serverResetEach(seed)

const db = () => inspectDb(t.server.store)
const idOf = (fullPath: string) => namespaceId(t.server.store, fullPath)
const paths = (body: unknown) => (body as Json[]).map((g) => g.full_path)

describe('GET /groups/:id/subgroups and /descendant_groups', () => {
  it('lists the children, or everything below, that the caller can read, by name', async () => {
    const subgroups = await t.http('GET', '/api/v4/groups/acme/subgroups', { token: ROOT })
    expect(subgroups.status).toBe(200)
    expect(paths(subgroups.body)).toEqual(['acme/data', 'acme/secret', 'acme/web'])
    expect(subgroups.headers['x-total']).toBe('3')
    const descendants = await t.http('GET', `/api/v4/groups/${idOf('acme')}/descendant_groups`, {
      token: ROOT,
    })
    expect(paths(descendants.body)).toEqual(['acme/data', 'acme/secret', 'acme/web/ui', 'acme/web'])
    // Anonymous callers and non-members see the public ones only.
    expect(paths((await t.http('GET', '/api/v4/groups/acme/descendant_groups')).body)).toEqual([
      'acme/data',
      'acme/web/ui',
      'acme/web',
    ])
    expect(paths((await t.http('GET', '/api/v4/groups/acme/subgroups', { token: MIA })).body)).toEqual([
      'acme/data',
      'acme/web',
    ])
  })

  it('takes the list filters: search, skip_groups, order_by/sort, owned, min_access_level; pages with headers', async () => {
    const get = async (query: string, token = OWEN) =>
      paths((await t.http('GET', '/api/v4/groups/acme/descendant_groups', { token, query })).body)
    expect(await get('search=WE')).toEqual(['acme/web'])
    expect(await get(`skip_groups[]=${idOf('acme/web')}&skip_groups[]=${idOf('acme/data')}`)).toEqual([
      'acme/secret',
      'acme/web/ui',
    ])
    expect(await get('order_by=path&sort=desc')).toEqual([
      'acme/web',
      'acme/web/ui',
      'acme/secret',
      'acme/data',
    ])
    expect(await get('owned=true', MIA)).toEqual([])
    expect(await get('min_access_level=50')).toEqual(['acme/data', 'acme/secret', 'acme/web/ui', 'acme/web'])
    const page = await t.http('GET', '/api/v4/groups/acme/subgroups', {
      token: OWEN,
      query: 'per_page=2&page=2',
    })
    expect(paths(page.body)).toEqual(['acme/web'])
    expect(page.headers).toMatchObject({
      'x-total': '3',
      'x-page': '2',
      'x-per-page': '2',
      'x-prev-page': '1',
    })
    const invalid = await t.http('GET', '/api/v4/groups/acme/subgroups', {
      token: OWEN,
      query: 'min_access_level=7',
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({ error: 'min_access_level does not have a valid value' })
    const hidden = await t.http('GET', '/api/v4/groups/small/subgroups', { token: OWEN })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
  })

  it('GET /groups takes skip_groups and search', async () => {
    const res = await t.http('GET', '/api/v4/groups', {
      token: OWEN,
      query: `search=web&skip_groups[]=${idOf('other/web')}`,
    })
    expect(paths(res.body)).toEqual(['acme/web'])
  })
})

const rows = () =>
  db()
    .prepare(
      'SELECT full_path, parent_id, visibility FROM namespaces UNION ALL SELECT full_path, namespace_id, visibility FROM projects',
    )
    .all()
const projectPaths = () => db().prepare('SELECT full_path FROM projects ORDER BY id').pluck().all()

describe('POST /groups/:id/transfer', () => {
  it('moves a group under another: its path follows and visibility above the new parent is lowered to it', async () => {
    const res = await t.http('POST', '/api/v4/groups/acme%2Fdata/transfer', {
      token: OWEN,
      json: { group_id: idOf('other') },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      id: idOf('other/data'),
      full_path: 'other/data',
      full_name: 'Other / Data',
      parent_id: idOf('other'),
      visibility: 'private',
      web_url: `${t.baseUrl}/groups/other/data`,
      shared_with_groups: [],
    })
  })

  it('moves a group to the top level without group_id, with its subgroups and projects', async () => {
    const res = await t.http('POST', '/api/v4/groups/acme%2Fweb/transfer', { token: OWEN })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      full_path: 'web',
      parent_id: null,
      visibility: 'public',
      full_name: 'Web',
    })
    expect(projectPaths()).toEqual(['web/site', 'web/ui/kit'])
    const ui = await t.http('GET', '/api/v4/groups/web%2Fui', { token: OWEN })
    expect(ui.body).toMatchObject({
      full_path: 'web/ui',
      full_name: 'Web / UI',
      web_url: `${t.baseUrl}/groups/web/ui`,
    })
    const project = await t.http('GET', '/api/v4/projects/web%2Fui%2Fkit', { token: OWEN })
    expect(project.body).toMatchObject({
      path_with_namespace: 'web/ui/kit',
      web_url: `${t.baseUrl}/web/ui/kit`,
    })
  })

  it("refuses as TransferService does: 400 'Transfer failed: ...', 403, 404, and changes nothing", async () => {
    const before = rows()
    const refused = async (group: string, json: Json, message: string, token = OWEN) => {
      const res = await t.http('POST', `/api/v4/groups/${encodeURIComponent(group)}/transfer`, {
        token,
        json,
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: `Transfer failed: ${message}` })
    }
    await refused(
      'acme/web',
      { group_id: idOf('other') },
      'The parent group already has a subgroup or a project with the same path.',
    )
    await refused('acme', {}, 'Group is already a root group.')
    await refused('acme/web', { group_id: idOf('acme') }, 'Group is already associated to the parent group.')
    await refused('acme', { group_id: idOf('acme/web/ui') }, 'Cannot transfer group to one of its subgroup.')
    await refused('small', { group_id: idOf('acme') }, "You don't have enough permissions.", MIA)
    const notOwner = await t.http('POST', '/api/v4/groups/other%2Fweb/transfer', { token: MIA, json: {} })
    expect(notOwner.status).toBe(403)
    expect(notOwner.body).toEqual({ message: '403 Forbidden' })
    const hiddenTarget = await t.http('POST', '/api/v4/groups/acme%2Fdata/transfer', {
      token: OWEN,
      json: { group_id: idOf('small') },
    })
    expect(hiddenTarget.status).toBe(404)
    expect(hiddenTarget.body).toEqual({ message: '404 Group Not Found' })
    const bad = await t.http('POST', '/api/v4/groups/acme%2Fdata/transfer', {
      token: OWEN,
      json: { group_id: 'x' },
    })
    expect(bad.body).toEqual({ error: 'group_id is invalid' })
    expect(rows()).toEqual(before)
  })
})

describe('GET /groups/:id/transfer_locations', () => {
  it('lists the groups the Owner may move the group under: not itself, what is below it, nor its parent', async () => {
    const res = await t.http('GET', '/api/v4/groups/acme%2Fweb/transfer_locations', { token: OWEN })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      {
        id: idOf('acme/data'),
        web_url: `${t.baseUrl}/groups/acme/data`,
        name: 'Data',
        avatar_url: null,
        full_name: 'ACME / Data',
        full_path: 'acme/data',
      },
      {
        id: idOf('other'),
        web_url: `${t.baseUrl}/groups/other`,
        name: 'Other',
        avatar_url: null,
        full_name: 'Other',
        full_path: 'other',
      },
      {
        id: idOf('acme/secret'),
        web_url: `${t.baseUrl}/groups/acme/secret`,
        name: 'Secret',
        avatar_url: null,
        full_name: 'ACME / Secret',
        full_path: 'acme/secret',
      },
      {
        id: idOf('other/web'),
        web_url: `${t.baseUrl}/groups/other/web`,
        name: 'Web',
        avatar_url: null,
        full_name: 'Other / Web',
        full_path: 'other/web',
      },
    ])
    expect(res.headers['x-total']).toBe('4')
    const search = await t.http('GET', '/api/v4/groups/acme%2Fweb/transfer_locations', {
      token: OWEN,
      query: 'search=oth',
    })
    expect(paths(search.body)).toEqual(['other'])
    const maintainer = await t.http('GET', '/api/v4/groups/other/transfer_locations', { token: MIA })
    expect(maintainer.status).toBe(403)
    expect(maintainer.body).toEqual({ message: '403 Forbidden' })
  })
})

it('releases before the routes have no descendant_groups (13.5), transfer (14.6) or transfer_locations (15.4)', async () => {
  const old = await startServer(seed, { gitlabVersion: '13.4.0' })
  try {
    for (const [method, path] of [
      ['GET', '/api/v4/groups/acme/descendant_groups'],
      ['POST', '/api/v4/groups/acme%2Fdata/transfer'],
      ['GET', '/api/v4/groups/acme%2Fdata/transfer_locations'],
    ] as const) {
      const res = await old.http(method, path, { token: OWEN })
      expect([path, res.status, res.body]).toEqual([path, 404, { error: '404 Not Found' }])
    }
    expect((await old.http('GET', '/api/v4/groups/acme/subgroups', { token: OWEN })).status).toBe(200)
  } finally {
    await old.close()
  }
})
