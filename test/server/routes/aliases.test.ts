import { startServer, type TestServer } from '../../support/server.js'
import { pipelineSeed } from '../../support/pipeline-seed.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token'
const A = '/api/v4/project_aliases'
type Json = Record<string, unknown>
let t: TestServer
afterEach(() => t.close())

describe('project aliases on EE', () => {
  beforeEach(async () => {
    t = await startServer(pipelineSeed)
  })
  const names = async () => ((await t.http('GET', A, { token: ROOT })).body as Json[]).map((a) => a.name)

  it('lists, reads, creates (201) and deletes (204) for administrators', async () => {
    const list = await t.http('GET', A, { token: ROOT })
    expect(list.body).toEqual([{ id: 1, project_id: 1, name: 'app' }])
    expect(list.headers).toMatchObject({ 'x-total': '1', 'x-page': '1' })
    expect((await t.http('GET', `${A}/app`, { token: ROOT })).body).toEqual({
      id: 1,
      project_id: 1,
      name: 'app',
    })
    const made = await t.http('POST', A, { token: ROOT, form: 'project_id=acme%2Ffailing&name=fail.ing' })
    expect([made.status, made.body]).toEqual([201, { id: 2, project_id: 2, name: 'fail.ing' }])
    const del = await t.http('DELETE', `${A}/fail.ing`, { token: ROOT })
    expect([del.status, del.text]).toEqual([204, ''])
    const again = await t.http('DELETE', `${A}/fail.ing`, { token: ROOT })
    expect([again.status, again.body]).toEqual([404, { message: '404 Not found' }])
    expect((await t.http('GET', `${A}/nope`, { token: ROOT })).body).toEqual({ message: '404 Not found' })
  })

  it.each([
    [{ project_id: 1, name: 'app' }, 400, { message: { name: ['has already been taken'] } }],
    [
      { project_id: 1, name: '-bad' },
      400,
      {
        message: {
          name: [
            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
          ],
        },
      },
    ],
    [{ project_id: 1, name: 'x.git' }, 400, expect.objectContaining({ message: expect.any(Object) })],
    [{ project_id: 9999, name: 'new' }, 404, { message: '404 Project Not Found' }],
    [{ name: 'new' }, 400, { error: 'project_id is missing' }],
    [{ project_id: 1 }, 400, { error: 'name is missing' }],
  ])('refuses %j and stores nothing', async (json, status, body) => {
    const res = await t.http('POST', A, { token: ROOT, json })
    expect([res.status, res.body]).toEqual([status, body])
    expect(await names()).toEqual(['app'])
  })

  it('is for administrators: anonymous 401, others 403, before any parameter check', async () => {
    for (const [method, path] of [
      ['GET', A],
      ['GET', `${A}/app`],
      ['POST', A],
      ['DELETE', `${A}/app`],
    ] as const) {
      expect((await t.http(method, path)).status).toBe(401)
      const res = await t.http(method, path, { token: MARK })
      expect([method, res.status, res.body]).toEqual([method, 403, { message: '403 Forbidden' }])
    }
    expect(await names()).toEqual(['app'])
  })
})

it('does not exist on CE', async () => {
  t = await startServer(pipelineSeed, { edition: 'ce' })
  const res = await t.http('GET', A, { token: ROOT })
  expect([res.status, res.body]).toEqual([404, { error: '404 Not Found' }])
  expect((await t.http('POST', A, { token: ROOT, json: { project_id: 1, name: 'x' } })).status).toBe(404)
})
