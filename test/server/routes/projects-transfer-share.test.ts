import { startServer, type TestServer } from '../../support/server.js'
import { namespaceId } from '../../support/store-rows.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * `PUT /projects/:id/transfer` (`Projects::TransferService`) and `POST`/`DELETE /projects/:id/share`
 * (`Projects::GroupLinks::{Create,Destroy}Service`): who may, GitLab's refusals, what moves, and the
 * access a share gives.
 */

const ROOT = 'glpat-root-token'
const OWEN = 'glpat-owen-token'
const MAY = 'glpat-may-token'
const GIL = 'glpat-gil-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: owen, name: Owen, token: ${OWEN} }
  - { username: may, name: May, token: ${MAY} }
  - { username: gil, name: Gil, token: ${GIL} }
groups:
  - { path: acme, name: ACME, visibility: public, members: { owen: owner, may: maintainer } }
  - { path: labs, name: Labs, visibility: private, members: { owen: maintainer, gil: developer } }
  - { path: labs/deep, name: Deep, visibility: private }
  - { path: other, name: Other, visibility: private, members: { gil: owner } }
projects:
  - path: acme/widgets
    name: Widgets
    visibility: public
    issues:
      - { title: One, author: owen }
  - path: labs/widgets
    name: Other widgets
  - path: labs/secret
    name: Secret
`
type Json = Record<string, unknown>
let t: TestServer
beforeEach(async () => {
  t = await startServer(seed)
})
afterEach(() => t.close())

const db = () => inspectDb(t.server.store)
const projectRows = () => db().prepare('SELECT * FROM projects ORDER BY id').all()
const linkRows = () => db().prepare('SELECT * FROM project_group_links ORDER BY id').all()
const nsId = (path: string) => namespaceId(t.server.store, path)
const W = '/api/v4/projects/acme%2Fwidgets'

describe('PUT /projects/:id/transfer', () => {
  it('moves a project to a group by path, lowering its visibility; paths and references follow', async () => {
    const res = await t.http('PUT', `${W}/transfer`, { token: OWEN, json: { namespace: 'labs/deep' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      path_with_namespace: 'labs/deep/widgets',
      name_with_namespace: 'Labs / Deep / Widgets',
      namespace: { full_path: 'labs/deep', kind: 'group' },
      visibility: 'private',
      web_url: `${t.baseUrl}/labs/deep/widgets`,
    })
    const issue = await t.http('GET', '/api/v4/projects/labs%2Fdeep%2Fwidgets/issues/1', { token: OWEN })
    expect(issue.body).toMatchObject({ references: { full: 'labs/deep/widgets#1' } })
    expect((await t.http('GET', W, { token: OWEN })).status).toBe(404)
  })

  it("moves by namespace id, to the caller's own namespace", async () => {
    const res = await t.http('PUT', `${W}/transfer`, {
      token: OWEN,
      json: { namespace: String(nsId('owen')) },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ path_with_namespace: 'owen/widgets', namespace: { kind: 'user' } })
  })

  it.each([
    ['a Maintainer', MAY, 'labs/deep', 403, { message: '403 Forbidden' }],
    ['a namespace the caller cannot see', OWEN, 'other', 404, { message: '404 Namespace Not Found' }],
    ['a namespace that does not exist', OWEN, 'nowhere', 404, { message: '404 Namespace Not Found' }],
    [
      'the same namespace',
      OWEN,
      'acme',
      400,
      {
        message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
      },
    ],
    [
      'a path taken in the target',
      OWEN,
      'labs',
      400,
      {
        message:
          'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}',
      },
    ],
    ['a namespace where the caller may not create', OWEN, 'may', 404, { message: '404 Namespace Not Found' }],
  ])('refuses %s and moves nothing', async (_what, token, namespace, status, body) => {
    const before = projectRows()
    const res = await t.http('PUT', `${W}/transfer`, { token, json: { namespace } })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect(projectRows()).toEqual(before)
  })

  it('refuses a missing namespace parameter', async () => {
    const res = await t.http('PUT', `${W}/transfer`, { token: OWEN, json: {} })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'namespace is missing' })
  })
})

describe('POST and DELETE /projects/:id/share', () => {
  it('shares a private project with a group whose members then read it up to the share level', async () => {
    const secret = '/api/v4/projects/labs%2Fsecret'
    expect((await t.http('GET', secret, { token: MAY })).status).toBe(404)
    // may is Maintainer of acme; owen (Maintainer of labs) shares labs/secret with acme as Reporter.
    const res = await t.http('POST', `${secret}/share`, {
      token: OWEN,
      json: { group_id: nsId('acme'), group_access: 20, expires_at: '2030-01-31' },
    })
    expect(res.status).toBe(201)
    const link = res.body as Json
    expect(link).toEqual({
      id: expect.any(Number),
      project_id: expect.any(Number),
      group_id: nsId('acme'),
      group_access: 20,
      expires_at: '2030-01-31',
    })
    const read = await t.http('GET', secret, { token: MAY })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({
      shared_with_groups: [
        {
          group_id: nsId('acme'),
          group_name: 'ACME',
          group_full_path: 'acme',
          group_access_level: 20,
          expires_at: '2030-01-31',
        },
      ],
    })
    // Reporter, not Maintainer: no edits.
    expect((await t.http('PUT', secret, { token: MAY, json: { description: 'x' } })).status).toBe(403)
    const again = await t.http('POST', `${secret}/share`, {
      token: OWEN,
      json: { group_id: nsId('acme'), group_access: 30 },
    })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ message: 'Group already shared with this group' })
    const removed = await t.http('DELETE', `${secret}/share/${nsId('acme')}`, { token: OWEN })
    expect(removed.status).toBe(204)
    expect(linkRows()).toEqual([])
    expect((await t.http('GET', secret, { token: MAY })).status).toBe(404)
  })

  it('gives no access from the day a share expires', async () => {
    await t.close()
    const clock = manualClock('2026-03-01T10:00:00.000Z')
    t = await startServer(seed, { clock })
    const secret = '/api/v4/projects/labs%2Fsecret'
    const res = await t.http('POST', `${secret}/share`, {
      token: OWEN,
      json: { group_id: nsId('acme'), group_access: 30, expires_at: '2026-03-02' },
    })
    expect(res.status).toBe(201)
    expect((await t.http('GET', secret, { token: MAY })).status).toBe(200)
    clock.advance(14 * 60 * 60 * 1000)
    expect((await t.http('GET', secret, { token: MAY })).status).toBe(404)
  })

  it.each([
    ['a Developer', GIL, { group_id: 'other', group_access: 30 }, 403, { message: '403 Forbidden' }],
    [
      'a group the caller cannot see',
      OWEN,
      { group_id: 'other', group_access: 30 },
      404,
      { message: 'Not Found' },
    ],
    [
      "the project's own group",
      OWEN,
      { group_id: 'labs', group_access: 30 },
      409,
      {
        message: 'Project cannot be shared with the group it is in or one of its ancestors.',
      },
    ],
    [
      'an invalid access level',
      OWEN,
      { group_id: 'acme', group_access: 35 },
      400,
      {
        error: 'group_access does not have a valid value',
      },
    ],
    ['a missing group', OWEN, { group_access: 30 }, 400, { error: 'group_id is missing' }],
  ])('refuses %s and stores nothing', async (_what, token, json, status, body) => {
    const input = { ...json } as Json
    if (typeof input.group_id === 'string') input.group_id = nsId(input.group_id)
    const res = await t.http('POST', '/api/v4/projects/labs%2Fsecret/share', { token, json: input })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect(linkRows()).toEqual([])
  })

  it("gives the shared group's members access, but not the members of a group that group was shared with", async () => {
    // acme's members reach `other` through a group share; `other` reaches labs/secret through a project
    // share; shares do not chain (ProjectGroupLink authorizes the group's own members only).
    const share = async (url: string, groupPath: string) =>
      (await t.http('POST', url, { token: ROOT, json: { group_id: nsId(groupPath), group_access: 30 } }))
        .status
    expect(await share('/api/v4/groups/other/share', 'acme')).toBe(201)
    expect(await share('/api/v4/projects/labs%2Fsecret/share', 'other')).toBe(201)
    expect((await t.http('GET', '/api/v4/groups/other', { token: MAY })).status).toBe(200)
    expect((await t.http('GET', '/api/v4/projects/labs%2Fsecret', { token: GIL })).status).toBe(200)
    const may = await t.http('GET', '/api/v4/projects/labs%2Fsecret', { token: MAY })
    expect([may.status, may.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('answers 404 Group Link Not Found for a share that does not exist', async () => {
    const res = await t.http('DELETE', `/api/v4/projects/labs%2Fsecret/share/${nsId('acme')}`, {
      token: OWEN,
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Group Link Not Found' })
  })
})
