import { startServer, type TestServer } from '../../support/server.js'
import { DANA, GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
beforeEach(async () => {
  t = await startServer(repositorySeed)
})
afterEach(() => t.close())

const level = (access_level: number, description: string) => ({
  id: expect.any(Number),
  access_level,
  access_level_description: description,
  deploy_key_id: null,
  user_id: null,
  group_id: null,
})
const protect = (json: Json, token = MARK) => t.http('POST', `${P}/protected_tags`, { token, json })
const tag = (tag_name: string, token: string) =>
  t.http('POST', `${P}/repository/tags`, { token, json: { tag_name, ref: 'main' } })

describe('protected tags', () => {
  it('protects a name or wildcard, lists, reads and unprotects them (Maintainer)', async () => {
    const made = await protect({ name: 'v*' })
    expect(made.status).toBe(201)
    expect(made.body).toEqual({ name: 'v*', create_access_levels: [level(40, 'Maintainers')] })
    expect((await protect({ name: 'release', create_access_level: 30 })).body).toEqual({
      name: 'release',
      create_access_levels: [level(30, 'Developers + Maintainers')],
    })
    const list = await t.http('GET', `${P}/protected_tags?per_page=1`, { token: MARK })
    expect(list.body).toEqual([made.body])
    expect(list.headers['x-total']).toBe('2')
    expect(list.headers['x-next-page']).toBe('2')
    expect((await t.http('GET', `${P}/protected_tags/release`, { token: MARK })).body).toMatchObject({
      name: 'release',
    })
    const gone = await t.http('DELETE', `${P}/protected_tags/release`, { token: MARK })
    expect(gone.status).toBe(204)
    expect((await t.http('GET', `${P}/protected_tags/release`, { token: MARK })).body).toEqual({
      message: '404 Not found',
    })
  })

  it('refuses as GitLab: bad levels, blank and taken names, below Maintainer, hidden projects', async () => {
    expect((await protect({ name: 'v*', create_access_level: 20 })).body).toEqual({
      error: 'create_access_level does not have a valid value',
    })
    expect((await protect({})).body).toEqual({ error: 'name is missing' })
    const blank = await protect({ name: ' ' })
    expect([blank.status, blank.body]).toEqual([422, { message: ["Name can't be blank"] }])
    await protect({ name: 'v*' })
    const taken = await protect({ name: 'v*' })
    expect([taken.status, taken.body]).toEqual([422, { message: ['Name has already been taken'] }])
    expect((await protect({ name: 'x' }, DANA)).status).toBe(403)
    expect((await t.http('GET', `${P}/protected_tags`, { token: DANA })).status).toBe(403)
    expect((await t.http('GET', `${P}/protected_tags`, { token: OTTO })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await t.http('GET', `${P}/protected_tags`)).status).toBe(401)
    expect((await t.http('DELETE', `${P}/protected_tags/nope`, { token: MARK })).status).toBe(404)
    expect((await t.http('GET', `${P}/protected_tags`, { token: MARK })).body).toHaveLength(1)
  })

  it('refuses creating and deleting a protected tag below its level, and marks it protected', async () => {
    await protect({ name: 'v*' })
    const refused = await tag('v1', DANA)
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: 'You are not allowed to create this tag as it is protected.' },
    ])
    expect((await t.http('GET', `${P}/repository/tags/v1`, { token: RITA })).status).toBe(404)
    expect((await tag('other', DANA)).body).toMatchObject({ name: 'other', protected: false })
    const made = await tag('v1', MARK)
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ name: 'v1', protected: true })
    const kept = await t.http('DELETE', `${P}/repository/tags/v1`, { token: DANA })
    expect([kept.status, kept.body]).toEqual([
      400,
      {
        message:
          'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
      },
    ])
    await protect({ name: 'locked', create_access_level: 0 })
    expect((await tag('locked', MARK)).status).toBe(400)
    expect((await t.http('DELETE', `${P}/repository/tags/v1`, { token: MARK })).status).toBe(204)
    // Developers may create a tag a Developer-level protection names.
    await protect({ name: 'dev-*', create_access_level: 30 })
    expect((await tag('dev-1', DANA)).status).toBe(201)
    expect((await t.http('GET', `${P}/protected_tags`, { token: GUS })).status).toBe(403)
  })

  it('goes with a reset and with its project', async () => {
    await protect({ name: 'v*' })
    expect((await t.http('POST', '/-/emulator/reset', { token: 'glpat-root-token' })).status).toBe(200)
    expect((await t.http('GET', `${P}/protected_tags`, { token: MARK })).body).toEqual([])
    await protect({ name: 'v*' })
    const id = ((await t.http('GET', P, { token: MARK })).body as Json).id as number
    const root = { token: 'glpat-root-token' }
    expect((await t.http('DELETE', `/api/v4/projects/${id}`, root)).status).toBe(202)
    const marked = await t.http('GET', `/api/v4/projects/${id}`, root)
    if (marked.status === 200) {
      const path = encodeURIComponent((marked.body as Json).path_with_namespace as string)
      const q = `permanently_remove=true&full_path=${path}`
      expect((await t.http('DELETE', `/api/v4/projects/${id}?${q}`, root)).status).toBe(202)
    }
    expect(t.server.store.repository.protectedTags(id)).toEqual([])
  })
})
