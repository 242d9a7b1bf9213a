import { startServer as startPublic, type RunningServer } from '../../../src/server/start/start-server.js'
import { startServer, type TestServer } from '../../support/server.js'
import { aliceWidgets } from '../../support/seeds.js'

const seed = aliceWidgets('One')
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
type Entry = Record<string, unknown>

let t: TestServer
afterEach(() => t?.close())

const log = async (query = '') => {
  const res = await t.http('GET', '/-/emulator/requests', { token: ROOT, query })
  expect(res.status).toBe(200)
  return res.body as Entry[]
}

describe('GET /-/emulator/requests', () => {
  it('keeps each request with its route, actor, status, duration and the X-Request-Id it answered with', async () => {
    t = await startServer(seed)
    const listed = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', {
      token: ALICE,
      query: 'state=opened',
    })
    expect(listed.status).toBe(200)
    expect(listed.headers['x-request-id']).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    const missing = await t.http('GET', '/api/v4/nowhere')
    expect(missing.status).toBe(404)
    expect(missing.headers['x-request-id']).not.toBe(listed.headers['x-request-id'])

    const entries = await log()
    expect(entries).toHaveLength(2)
    const [first, second] = entries as [Entry, Entry]
    expect(Object.keys(first)).toEqual([
      'id',
      'time',
      'method',
      'path',
      'query',
      'status',
      'duration_ms',
      'actor',
      'route',
      'request_id',
      'fault',
      'request_body',
      'response_body',
    ])
    expect(first).toMatchObject({
      method: 'GET',
      path: '/api/v4/projects/acme%2Fwidgets/issues',
      query: 'state=opened',
      status: 200,
      actor: 'alice',
      route: '/api/v4/projects/:id/issues',
      request_id: listed.headers['x-request-id'],
      fault: null,
      request_body: null,
      response_body: null,
    })
    expect(first.duration_ms).toEqual(expect.any(Number))
    expect(Date.parse(first.time as string)).not.toBeNaN()
    expect(second).toMatchObject({ id: (first.id as number) + 1, status: 404, actor: null, route: null })
    // Reading the log is not in the log.
    expect(await log()).toHaveLength(2)
  })

  it('redacts tokens and secrets in the query', async () => {
    t = await startServer(seed)
    await t.http('GET', '/api/v4/projects', {
      query: `private_token=${ROOT}&search=x&job_token=def&token=ghi`,
    })
    await t.http('GET', '/api/v4/projects', { query: `access_token=${ALICE}&client_secret=s&page=2` })
    await t.http('GET', '/api/v4/projects', { query: `private%5Ftoken=${ROOT}` })
    const entries = await log()
    expect(entries.map((e) => [e.actor, e.status, e.query])).toEqual([
      ['root', 200, 'private_token=[FILTERED]&search=x&job_token=[FILTERED]&token=[FILTERED]'],
      ['alice', 200, 'access_token=[FILTERED]&client_secret=[FILTERED]&page=2'],
      ['root', 200, 'private%5Ftoken=[FILTERED]'],
    ])
    expect(JSON.stringify(entries)).not.toMatch(/glpat-|def|ghi/)
  })

  it('filters by method, path pattern, status or class, route, actor and since_id, and pages with limit', async () => {
    t = await startServer(seed)
    await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', { token: ALICE })
    await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', { token: ALICE, json: { title: 'Two' } })
    await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues/1', { token: ROOT })
    await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues/99', { token: ROOT })
    await t.http('GET', '/api/v4/version', { token: ALICE })
    const paths = (entries: Entry[]) => entries.map((e) => `${e.method} ${e.path} ${e.status}`)
    expect(paths(await log('method=post'))).toEqual(['POST /api/v4/projects/acme%2Fwidgets/issues 201'])
    expect(paths(await log('status=404'))).toEqual(['GET /api/v4/projects/acme%2Fwidgets/issues/99 404'])
    expect(paths(await log('status=4xx'))).toEqual(paths(await log('status=404')))
    expect(await log(`route=${encodeURIComponent('/api/v4/projects/:id/issues/:issue_iid')}`)).toHaveLength(2)
    expect(await log('actor=alice')).toHaveLength(3)
    expect(paths(await log(`path=${encodeURIComponent('/api/v4/projects/*/issues')}`))).toEqual([
      'GET /api/v4/projects/acme%2Fwidgets/issues 200',
      'POST /api/v4/projects/acme%2Fwidgets/issues 201',
    ])
    expect(await log(`path=${encodeURIComponent('/api/v4/projects/**')}`)).toHaveLength(4)
    expect(await log(`path=${encodeURIComponent('/api/v4/projects/acme%2Fwidgets/issues')}`)).toHaveLength(4)
    expect(await log(`path=${encodeURIComponent('/api/v4/projects/acme%2Fwidgets/iss')}`)).toHaveLength(0)

    const all = await log()
    expect(all).toHaveLength(5)
    const since = await log(`since_id=${all[2]?.id}`)
    expect(since.map((e) => e.id)).toEqual([all[3]?.id, all[4]?.id])

    const page = await t.http('GET', '/-/emulator/requests', { token: ROOT, query: 'limit=2&method=GET' })
    expect((page.body as Entry[]).map((e) => e.id)).toEqual([all[0]?.id, all[2]?.id])
    expect(page.headers['x-next-since-id']).toBe(String(all[2]?.id))
    expect(page.headers.link).toBe(
      `<${t.baseUrl}/-/emulator/requests?limit=2&method=GET&since_id=${all[2]?.id}>; rel="next"`,
    )
    const rest = await t.http('GET', '/-/emulator/requests', {
      token: ROOT,
      query: `limit=2&method=GET&since_id=${all[2]?.id}`,
    })
    expect((rest.body as Entry[]).map((e) => e.id)).toEqual([all[3]?.id, all[4]?.id])
    expect(rest.headers['x-next-since-id']).toBeUndefined()
  })

  it('refuses bad filters with 400 and non-administrators with 401 and 403', async () => {
    t = await startServer(seed)
    for (const [query, error] of [
      ['status=abc', 'status does not have a valid value'],
      ['status=6xx', 'status does not have a valid value'],
      ['since_id=x', 'since_id is invalid, since_id does not have a valid value'],
      ['limit=0', 'limit does not have a valid value'],
    ] as const) {
      const res = await t.http('GET', '/-/emulator/requests', { token: ROOT, query })
      expect([query, res.status, res.body]).toEqual([query, 400, { error: error }])
    }
    expect((await t.http('GET', '/-/emulator/requests')).status).toBe(401)
    expect(await t.http('GET', '/-/emulator/requests', { token: ALICE })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect((await t.http('DELETE', '/-/emulator/requests', { token: ALICE })).status).toBe(403)
    // Calls to the log itself are never logged, refused ones neither.
    expect(await log()).toHaveLength(0)
  })

  it('DELETE empties the log; ids go on increasing', async () => {
    t = await startServer(seed)
    await t.http('GET', '/api/v4/version')
    const [before] = await log()
    const cleared = await t.http('DELETE', '/-/emulator/requests', { token: ROOT })
    expect(cleared.status).toBe(204)
    expect(await log()).toEqual([])
    await t.http('GET', '/api/v4/version')
    const [after] = await log()
    expect(after?.id).toBe((before?.id as number) + 1)
  })

  it('is a ring of the configured size, and size 0 keeps nothing', async () => {
    t = await startServer(seed, { requestLog: { size: 3 } })
    for (let i = 0; i < 5; i++) await t.http('GET', '/api/v4/version', { query: `n=${i}` })
    expect((await log()).map((e) => e.query)).toEqual(['n=2', 'n=3', 'n=4'])
    await t.close()
    t = await startServer(seed, { requestLog: { size: 0 } })
    await t.http('GET', '/api/v4/version')
    expect(await log()).toEqual([])
  })

  it('a reset keeps the log (it is no data of the instance)', async () => {
    t = await startServer(seed)
    await t.http('GET', '/api/v4/version')
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect((await log()).map((e) => e.path)).toEqual(['/api/v4/version', '/-/emulator/reset'])
  })
})

describe('--log-bodies', () => {
  it('keeps bodies, tokens and passwords redacted, long ones cut', async () => {
    t = await startServer(seed, { requestLog: { bodies: true } })
    const created = await t.http('POST', '/api/v4/users/1/personal_access_tokens', {
      token: ROOT,
      json: { name: 'ci', scopes: ['api'], expires_at: '2099-01-01' },
    })
    expect(created.status).toBe(201)
    const secret = (created.body as { token: string }).token
    await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', {
      token: ALICE,
      json: { title: 'Big', description: 'x'.repeat(5000), password: 'hunter2' },
    })
    await t.http('PUT', '/api/v4/projects/acme%2Fwidgets/issues/1', {
      token: ALICE,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      form: 'title=Renamed&private_token=glpat-alice-token',
    })
    const entries = await log()
    expect(JSON.stringify(entries)).not.toContain(secret)
    expect(JSON.stringify(entries)).not.toContain('hunter2')
    expect(JSON.stringify(entries)).not.toContain(ALICE)
    const [pat, big, form] = entries as [Entry, Entry, Entry]
    expect(JSON.parse(pat.request_body as string)).toEqual({
      name: 'ci',
      scopes: ['api'],
      expires_at: '2099-01-01',
    })
    expect(JSON.parse(pat.response_body as string)).toMatchObject({ name: 'ci', token: '[FILTERED]' })
    expect(big.request_body).toMatch(/^\{"title":"Big","description":"x+\.\.\.\[\d+ characters in all\]$/)
    expect((big.request_body as string).length).toBeLessThan(4200)
    expect(big.response_body).toMatch(/characters in all\]$/)
    expect(JSON.parse(form.request_body as string)).toEqual({ title: 'Renamed', private_token: '[FILTERED]' })
  })
})

describe('--log-bodies, text bodies', () => {
  it('redacts the tokens of a YAML seed and of a form', async () => {
    t = await startServer(seed, { requestLog: { bodies: true } })
    const yaml =
      'users:\n  - { username: carol, token: glpat-carol-secret }\n  - username: dan\n    token: "glpat-dan-secret"\n'
    const seeded = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      headers: { 'content-type': 'application/yaml' },
      form: yaml,
    })
    expect(seeded.status).toBe(201)
    const [entry] = await log()
    expect(entry?.request_body).toBe(
      'users:\n  - { username: carol, token: [FILTERED] }\n  - username: dan\n    token: [FILTERED]\n',
    )
    expect(JSON.parse(entry?.response_body as string)).toEqual({ message: 'seeded' })
  })

  it('keeps a multipart body by its size only', async () => {
    t = await startServer(seed, { requestLog: { bodies: true } })
    const body = '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nMulti\r\n--b--\r\n'
    const created = await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', {
      token: ALICE,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      form: body,
    })
    expect(created.status).toBe(201)
    const [entry] = await log()
    expect(entry?.request_body).toBe(`[multipart body, ${body.length} bytes]`)
    expect(JSON.parse(entry?.response_body as string)).toMatchObject({ title: 'Multi' })
  })
})

describe('startServer: requests() and clearRequests()', () => {
  let gitlab: RunningServer
  afterEach(() => gitlab?.close())
  it('reads and clears the log as the routes do', async () => {
    gitlab = await startPublic({ requestLog: { size: 500 } })
    for (let i = 0; i < 120; i++) await fetch(`${gitlab.apiUrl}/version`)
    await fetch(`${gitlab.apiUrl}/projects/404`)
    expect(gitlab.requests()).toHaveLength(121) // past one page of 100
    expect(gitlab.requests({ status: '404' }).map((e) => e.route)).toEqual(['/api/v4/projects/:id'])
    expect(gitlab.requests({ limit: 5 })).toHaveLength(5)
    gitlab.clearRequests()
    expect(gitlab.requests()).toEqual([])
  })
})
