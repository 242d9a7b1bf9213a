import {
  startServer as startPublic,
  FaultRuleError,
  type RunningServer,
} from '../../../src/server/start/start-server.js'
import { randomBytes } from 'node:crypto'
import { readdirSync, readlinkSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { once } from 'node:events'
import { connect } from 'node:net'
import { request } from 'undici'
import { exportSettled } from '../../support/imports.js'
import { serverEach } from '../../support/server.js'
import { aliceWidgets } from '../../support/seeds.js'

const seed = aliceWidgets('One', 'Two')
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const ISSUES = '/api/v4/projects/acme%2Fwidgets/issues'
const ISSUES_ROUTE = '/api/v4/projects/:id/issues'
type Json = Record<string, unknown>

const t = serverEach(seed)

const addFault = async (rule: unknown) => {
  const res = await t.http('POST', '/-/emulator/faults', { token: ROOT, json: rule })
  expect([res.status, res.body]).toEqual([201, expect.anything()])
  return res.body as Json
}
const listFaults = async () => (await t.http('GET', '/-/emulator/faults', { token: ROOT })).body as Json[]
const issues = () => t.http('GET', ISSUES, { token: ALICE })
const loggedFaults = async () =>
  ((await t.http('GET', '/-/emulator/requests', { token: ROOT })).body as Json[])
    .filter((e) => !String(e.path).startsWith('/-/emulator/'))
    .map((e) => [e.method, e.status, e.fault])

describe('POST /-/emulator/faults: status', () => {
  it('429 as Rack::Attack throttles, once; the next request is answered; the log shows the fault', async () => {
    const rule = await addFault({
      route: ISSUES_ROUTE,
      action: 'status',
      status: 429,
      retry_after: 7,
      times: 1,
    })
    expect(rule).toEqual({
      id: 1,
      method: null,
      route: ISSUES_ROUTE,
      path: null,
      actor: null,
      action: 'status',
      status: 429,
      retry_after: 7,
      ms: null,
      bytes_per_second: null,
      times: 1,
      after: 0,
      matched: 0,
      fired: 0,
      remaining: 1,
    })
    const limited = await issues()
    expect(limited.status).toBe(429)
    expect(limited.text).toBe('Retry later\n')
    expect(limited.headers['content-type']).toBe('text/plain')
    const reset = Number(limited.headers['ratelimit-reset'])
    expect(limited.headers).toMatchObject({
      'retry-after': '7',
      'ratelimit-name': 'throttle_authenticated_api',
      'ratelimit-limit': '120',
      'ratelimit-observed': '7201',
      'ratelimit-remaining': '0',
      'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
    })
    expect(reset * 1000 - Date.parse(limited.headers.date as string)).toBeGreaterThanOrEqual(6000)
    expect(limited.headers['x-request-id']).toMatch(/^[0-9A-Z]{26}$/)
    expect((await issues()).status).toBe(200)
    expect(await loggedFaults()).toEqual([
      ['GET', 429, { id: 1, action: 'status' }],
      ['GET', 200, null],
    ])
    expect(await listFaults()).toMatchObject([{ id: 1, matched: 2, fired: 1, remaining: 0 }])
  })

  it('500 as GitLab, 502 and 503 as nginx, others as GitLab JSON', async () => {
    await addFault([
      { method: 'GET', route: ISSUES_ROUTE, action: 'status', status: 500, times: 1 },
      { method: 'GET', route: ISSUES_ROUTE, action: 'status', status: 502, times: 1 },
      { method: 'GET', route: ISSUES_ROUTE, action: 'status', status: 503, retry_after: 30, times: 1 },
      { method: 'GET', route: ISSUES_ROUTE, action: 'status', status: 404, times: 1 },
    ])
    const internal = await issues()
    expect([internal.status, internal.headers['content-type'], internal.body]).toEqual([
      500,
      'application/json',
      { message: '500 Internal Server Error' },
    ])
    const gateway = await issues()
    expect([gateway.status, gateway.headers['content-type'], gateway.headers.server]).toEqual([
      502,
      'text/html',
      'nginx',
    ])
    expect(gateway.text).toContain('<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>')
    const unavailable = await issues()
    expect([unavailable.status, unavailable.headers['retry-after']]).toEqual([503, '30'])
    expect(unavailable.text).toContain('<title>503 Service Temporarily Unavailable</title>')
    const missing = await issues()
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not Found' }])
    expect((await issues()).status).toBe(200)
    // Nothing was done: a POST refused by a fault creates nothing.
    await addFault({ method: 'POST', route: ISSUES_ROUTE, action: 'status', status: 500, times: 1 })
    const refused = await t.http('POST', ISSUES, { token: ALICE, json: { title: 'Three' } })
    expect(refused.status).toBe(500)
    expect(((await issues()).body as Json[]).map((i) => i.title)).toEqual(['Two', 'One'])
  })
})

describe('delay, reset and slow_body', () => {
  it('delay waits, then answers as usual', async () => {
    await addFault({ route: ISSUES_ROUTE, action: 'delay', ms: 300, times: 1 })
    const started = performance.now()
    const slow = await issues()
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    expect(slow.status).toBe(200)
    expect((slow.body as Json[]).length).toBe(2)
    const [entry] = (await t.http('GET', '/-/emulator/requests', { token: ROOT, query: 'status=200' }))
      .body as Json[]
    expect(entry).toMatchObject({ fault: { id: 1, action: 'delay' } })
    expect(entry?.duration_ms).toBeGreaterThanOrEqual(290)
  })

  it('reset destroys the connection; the log keeps the request with no status', async () => {
    await addFault({ method: 'GET', path: '/api/v4/projects/**', action: 'reset', times: 1 })
    await expect(issues()).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/) })
    expect((await issues()).status).toBe(200)
    expect(await loggedFaults()).toEqual([
      ['GET', null, { id: 1, action: 'reset' }],
      ['GET', 200, null],
    ])
  })

  it('slow_body sends the same answer, at the rate asked for, with its length', async () => {
    const whole = await issues()
    await addFault({ route: ISSUES_ROUTE, action: 'slow_body', bytes_per_second: 4000, times: 1 })
    const started = performance.now()
    const slow = await issues()
    const took = performance.now() - started
    expect(slow.status).toBe(200)
    expect(slow.text).toBe(whole.text)
    expect(slow.headers['content-length']).toBe(String(Buffer.byteLength(whole.text)))
    const expected = (Buffer.byteLength(whole.text) / 4000) * 1000
    expect(took).toBeGreaterThanOrEqual(expected * 0.8)
    expect(took).toBeLessThan(expected * 3 + 500)
  })

  it('slow_body: a client leaving a download midway closes the file the server was reading', async () => {
    const P = '/api/v4/projects/acme%2Fwidgets'
    // An archive larger than a read stream's buffer (an incompressible description): the file is still
    // being read when the client leaves.
    const description = randomBytes(300_000).toString('base64')
    expect(
      (await t.http('POST', `${P}/issues`, { token: ALICE, json: { title: 'Big', description } })).status,
    ).toBe(201)
    expect((await t.http('POST', `${P}/export`, { token: ALICE })).status).toBe(202)
    await exportSettled(t, P, ALICE)
    // This process's descriptors open on an export archive (the server runs in it).
    const archives = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return /\/export-\d+-\w+\.tar\.gz$/.test(readlinkSync(`/proc/self/fd/${fd}`))
        } catch {
          return false // closed while listed
        }
      })
    await addFault({ path: `${P}/export/download`, action: 'slow_body', bytes_per_second: 200, times: 1 })
    // A client that reads the answer's first bytes, then closes its connection.
    const { hostname, port, host } = new URL(t.baseUrl)
    const client = connect(Number(port), hostname)
    client.write(
      `GET ${P}/export/download HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: test\r\nPrivate-Token: ${ALICE}\r\n\r\n`,
    )
    const [first] = (await once(client, 'data')) as [Buffer]
    expect(first.toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(archives()).toHaveLength(1)
    client.destroy()
    for (let i = 0; i < 50 && archives().length > 0; i++) await sleep(20)
    expect(archives()).toEqual([])
  })

  // A short timeout: on a server whose close waits for the slow answer's last byte, this fails fast.
  it('slow_body: close cuts an answer its client stopped reading, and returns at once', async () => {
    await addFault({ route: ISSUES_ROUTE, action: 'slow_body', bytes_per_second: 100, times: 1 })
    const res = await request(`${t.baseUrl}${ISSUES}`, { headers: { 'private-token': ALICE } })
    expect(res.statusCode).toBe(200)
    const length = Number(res.headers['content-length'])
    // The client reads the first bytes, then stops reading and keeps its connection.
    const [first] = (await once(res.body, 'data')) as [Buffer]
    res.body.pause()
    const ended = once(res.body, 'end') // rejects with the body's error
    const started = performance.now()
    await t.close()
    expect(performance.now() - started).toBeLessThan(1000)
    // The client sees its connection close before the answer's end.
    await expect(ended).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(first.length).toBeLessThan(length)
  }, 4000)

  it('slow_body: an answer made while close waits for its request goes out whole, at once', async () => {
    await addFault({ route: ISSUES_ROUTE, action: 'slow_body', bytes_per_second: 10, times: 1 })
    // A request in flight as close begins: its body is still on its way.
    const { hostname, port, host } = new URL(t.baseUrl)
    const arrived = once(t.server.app.server, 'request')
    const client = connect(Number(port), hostname)
    const body = JSON.stringify({ title: 'Late' })
    client.write(
      `POST ${ISSUES} HTTP/1.1\r\nHost: ${host}\r\nPrivate-Token: ${ALICE}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    )
    await arrived
    const started = performance.now()
    const closed = t.close()
    client.end(body.slice(5))
    const chunks: Buffer[] = []
    for await (const chunk of client) chunks.push(chunk as Buffer)
    await closed
    expect(performance.now() - started).toBeLessThan(1000)
    const [head = '', answer = ''] = Buffer.concat(chunks).toString().split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 201 Created\r\n/)
    expect(JSON.parse(answer)).toMatchObject({ title: 'Late' })
  }, 4000)
})

describe('matching and counting', () => {
  it('after lets matches through first; times bounds the firings; rules are tried in order', async () => {
    await addFault([
      { method: 'GET', route: ISSUES_ROUTE, action: 'status', status: 502, after: 1, times: 2 },
      { method: 'GET', route: ISSUES_ROUTE, action: 'status', status: 503, times: 1 },
    ])
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await issues()).status)
    // The second rule sees only what the first let through: the first request, then the fourth.
    expect(statuses).toEqual([503, 502, 502, 200, 200])
    expect(await listFaults()).toMatchObject([
      { id: 1, matched: 5, fired: 2, remaining: 0 },
      { id: 2, matched: 3, fired: 1, remaining: 0 },
    ])
  })

  it('matches by method, route, path glob and actor', async () => {
    await addFault({ actor: 'root', path: '/api/v4/projects/*/issues', action: 'status', status: 500 })
    await addFault({ method: 'POST', action: 'status', status: 503 })
    expect((await issues()).status).toBe(200) // alice
    expect((await t.http('GET', ISSUES, { token: ROOT })).status).toBe(500)
    expect((await t.http('GET', `${ISSUES}/1`, { token: ROOT })).status).toBe(200) // deeper than *
    expect((await t.http('POST', ISSUES, { token: ALICE, json: { title: 'x' } })).status).toBe(503)
    expect((await listFaults()).map((f) => [f.fired, f.remaining])).toEqual([
      [1, null],
      [1, null],
    ])
  })

  it('never touches the emulator controls, so a fault on every path can still be removed', async () => {
    await addFault({ path: '/**', action: 'status', status: 503 })
    expect((await issues()).status).toBe(503)
    expect((await t.http('GET', '/-/emulator/requests', { token: ROOT })).status).toBe(200)
    expect((await t.http('DELETE', '/-/emulator/faults', { token: ROOT })).status).toBe(204)
    expect((await issues()).status).toBe(200)
  })
})

describe('listing and removing', () => {
  it('DELETE one by id (404 when there is none), DELETE all', async () => {
    await addFault({ method: 'GET', action: 'delay', ms: 1 })
    await addFault({ method: 'PUT', action: 'reset' })
    await addFault({ method: 'POST', action: 'status', status: 500 })
    expect((await t.http('DELETE', '/-/emulator/faults/2', { token: ROOT })).status).toBe(204)
    expect((await listFaults()).map((f) => f.id)).toEqual([1, 3])
    expect(await t.http('DELETE', '/-/emulator/faults/2', { token: ROOT })).toMatchObject({
      status: 404,
      body: { message: '404 Fault Not Found' },
    })
    expect(await t.http('DELETE', '/-/emulator/faults/x', { token: ROOT })).toMatchObject({
      status: 400,
      body: { error: 'fault_id is invalid' },
    })
    expect((await t.http('DELETE', '/-/emulator/faults', { token: ROOT })).status).toBe(204)
    expect(await listFaults()).toEqual([])
    // Ids are not reused.
    expect((await addFault({ action: 'reset', method: 'PATCH' })).id).toBe(4)
  })

  it('administrators only: 401 anonymous, 403 others, nothing added', async () => {
    const rule = { action: 'status', status: 500 }
    expect((await t.http('POST', '/-/emulator/faults', { json: rule })).status).toBe(401)
    for (const [method, path] of [
      ['POST', '/-/emulator/faults'],
      ['GET', '/-/emulator/faults'],
      ['DELETE', '/-/emulator/faults'],
      ['DELETE', '/-/emulator/faults/1'],
    ] as const)
      expect(await t.http(method, path, { token: ALICE, json: rule })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      })
    expect(await listFaults()).toEqual([])
  })

  it('a reset of the instance keeps the rules (they are no data)', async () => {
    await addFault({ route: ISSUES_ROUTE, action: 'status', status: 500 })
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect(await listFaults()).toHaveLength(1)
  })
})

describe('invalid rules answer 400 with what is wrong, and add nothing', () => {
  it.each([
    [{}, 'action is missing'],
    [[], 'an empty list: give one rule or more'],
    ['text', 'a fault rule must be an object with an action'],
    [{ action: 'explode' }, 'action must be one of status, delay, reset, slow_body'],
    [{ action: 'status' }, 'status is missing (action status)'],
    [{ action: 'status', status: 200 }, 'status must be a whole number from 400 to 599'],
    [{ action: 'status', status: 'abc' }, 'status must be a whole number from 400 to 599'],
    [{ action: 'status', status: 500, retry_after: 5 }, 'retry_after is only for status 429 or 503'],
    [{ action: 'delay' }, 'ms is missing (action delay)'],
    [{ action: 'delay', ms: 0 }, 'ms must be a whole number from 1 to 600000'],
    [{ action: 'reset', ms: 5 }, 'ms is only for action delay'],
    [{ action: 'slow_body' }, 'bytes_per_second is missing (action slow_body)'],
    [{ action: 'reset', method: 'FETCH' }, 'method must be one of GET, HEAD, POST, PUT, PATCH, DELETE'],
    [{ action: 'reset', path: 'api/v4' }, 'path must be a path starting with /'],
    [{ action: 'reset', times: 0 }, 'times must be a whole number from 1 to 9007199254740991'],
    [{ action: 'reset', after: -1 }, 'after must be a whole number from 0 to 9007199254740991'],
    [
      { action: 'reset', time: 1 },
      'time is not a fault rule key (method, route, path, actor, action, status, retry_after, ms, bytes_per_second, times, after)',
    ],
    [[{ action: 'reset' }, { action: 'delay' }], 'faults[1].ms is missing (action delay)'],
  ])('%j: %s', async (body, message) => {
    const res = await t.http('POST', '/-/emulator/faults', { token: ROOT, json: body })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(await listFaults()).toEqual([])
  })

  it('a body that is no JSON is 400 too; form fields are read, digits as numbers', async () => {
    const broken = await t.http('POST', '/-/emulator/faults', {
      token: ROOT,
      headers: { 'content-type': 'application/json' },
      form: '{"action":',
    })
    expect(broken.status).toBe(400)
    const form = await t.http('POST', '/-/emulator/faults', {
      token: ROOT,
      form: 'action=status&status=429&retry_after=1&times=2',
    })
    expect([form.status, form.body]).toMatchObject([201, { status: 429, retry_after: 1, times: 2 }])
  })

  it('at most 100 rules at once', async () => {
    const many = Array.from({ length: 100 }, () => ({ action: 'reset', method: 'DELETE' }))
    await addFault(many)
    const res = await t.http('POST', '/-/emulator/faults', { token: ROOT, json: { action: 'reset' } })
    expect([res.status, res.body]).toEqual([400, { message: 'at most 100 fault rules at once' }])
  })
})

describe('startServer: faults, fault() and clearFaults()', () => {
  let gitlab: RunningServer | undefined
  afterEach(() => gitlab?.close())

  it('starts with rules, adds and clears them', async () => {
    gitlab = await startPublic({
      faults: [{ method: 'GET', route: '/api/v4/version', action: 'status', status: 503, times: 1 }],
    })
    const version = () =>
      fetch(`${gitlab!.apiUrl}/version`, { headers: { 'private-token': gitlab!.token as string } })
    expect((await version()).status).toBe(503)
    expect((await version()).status).toBe(200)
    const rule = gitlab.fault({ route: '/api/v4/version', action: 'status', status: 500 })
    expect(rule).toMatchObject({ id: 2, remaining: null })
    expect((await version()).status).toBe(500)
    expect(gitlab.faults().map((f) => f.fired)).toEqual([1, 1])
    expect(gitlab.requests({ route: '/api/v4/version' }).map((e) => e.fault?.id ?? null)).toEqual([
      1,
      null,
      2,
    ])
    gitlab.clearFaults()
    expect((await version()).status).toBe(200)
    expect(() => gitlab!.fault({ action: 'delay' } as never)).toThrow(FaultRuleError)
  })

  it('a bad rule at start rejects with a FaultRuleError', async () => {
    await expect(startPublic({ faults: [{ action: 'nope' } as never] })).rejects.toThrow(
      new FaultRuleError('action must be one of status, delay, reset, slow_body'),
    )
  })
})
