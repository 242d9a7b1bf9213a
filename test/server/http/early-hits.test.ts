import dns from 'node:dns'
import type { AddressInfo } from 'node:net'
import { buildServer, type GitLabServer, type ServerOptions } from '../../../src/server/start/build-server.js'
import { parseSeed } from '../../../src/server/seed/parse.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { rawExchange } from '../../support/raw-exchange.js'

/*
 * A cached list's repeated GET is answered from Node's request before Fastify routes it
 * (src/server/http/early-hits.ts). It must be the answer Fastify's path gives, byte for byte, with
 * the same checks before it: each test counts the requests Fastify's hooks saw, so that it knows
 * which path answered, and reads answers from the socket, so that header order and framing count.
 */
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
  - { username: gina, name: Gina, token: glpat-gina-token }
  - { username: otto, name: Otto, token: glpat-otto-token }
groups:
  - path: acme
    name: ACME
    members: { alice: developer, gina: guest }
projects:
  - path: acme/app
    visibility: private
    issues:
      - { title: First }
      - { title: Second, confidential: true }
`
const LIST = '/api/v4/projects/acme%2Fapp/issues?per_page=5&state=opened'
const ROUTE = '/api/v4/projects/:id/issues'
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
type Json = Record<string, unknown>

let server: GitLabServer
let clock: ReturnType<typeof manualClock>
let port: number
/** Requests Fastify's `onRequest` hooks ran for: an early hit adds none. */
let routed = 0

async function start(options: Omit<ServerOptions, 'seed'> = {}) {
  clock = manualClock()
  server = await buildServer({ clock, ...options, seed: parseSeed(seed, 'early-hits.yaml') })
  routed = 0
  server.app.addHook('onRequest', (_req, _reply, done) => {
    routed++
    done()
  })
  port = Number(new URL(await server.listen({ host: '127.0.0.1', port: 0 })).port)
}
afterEach(() => server.close())

interface Answer {
  status: number
  /** Status line and headers as sent, `x-request-id`'s value left out (each answer has its own). */
  head: string
  requestId: string
  body: Buffer
  /** Fastify's hooks saw it. */
  routed: boolean
}

/** One request on its own connection, `extra` written after its headers (a chunked body). */
async function exchange(method: string, path: string, headers: Record<string, string> = {}, extra = '') {
  const before = routed
  const { head, body } = await rawExchange(port, method, path, headers, extra)
  return {
    status: Number(head.slice(9, 12)),
    head: head.replace(/^(x-request-id: )(.*)$/im, '$1<id>'),
    requestId: /^x-request-id: (.*)$/im.exec(head)?.[1] ?? '',
    body,
    routed: routed > before,
  } satisfies Answer
}
const get = (token: string | null, path = LIST, headers: Record<string, string> = {}, extra = '') =>
  exchange('GET', path, { ...(token ? { 'private-token': token } : {}), ...headers }, extra)
const json = (a: Answer) => JSON.parse(a.body.toString()) as Json | Json[]
const titles = (a: Answer) => (json(a) as Json[]).map((i) => i.title)
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'private-token': ROOT, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.text()) || null }
}
const logged = () => server.instruments.requests.find({ path: '/api/v4/projects/*/issues' }).entries

/**
 * A token's first use is written (`last_used_at`), a change that drops every cached answer: each
 * seeded token is used once first, so that a test's answers stay cached unless it writes.
 */
const useTokens = async () => {
  for (const user of ['root', 'alice', 'gina', 'otto'])
    expect((await get(`glpat-${user}-token`, '/api/v4/version')).status).toBe(200)
}

describe('a cached list answered before routing', () => {
  beforeEach(async () => {
    await start()
    await useTokens()
  })

  it('is the answer of the miss and of a hit through Fastify, byte for byte, with an id of its own', async () => {
    const miss = await get(ALICE)
    // A chunked (empty) body leaves the request to Fastify, whose route answers it from the cache.
    const hitThroughFastify = await get(ALICE, LIST, { 'transfer-encoding': 'chunked' }, '0\r\n\r\n')
    const early = await get(ALICE)
    expect([miss.routed, hitThroughFastify.routed, early.routed]).toEqual([true, true, false])
    expect(miss.status).toBe(200)
    expect(miss.head).toMatch(/\r\nx-total: 2\r\n.*content-type: application\/json\r\ndate: /s)
    expect(hitThroughFastify.head).toBe(miss.head)
    expect(early.head).toBe(miss.head)
    expect(early.body.equals(miss.body)).toBe(true)
    expect(hitThroughFastify.body.equals(miss.body)).toBe(true)
    const ids = [miss, hitThroughFastify, early].map((a) => a.requestId)
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(3)
  })

  it("sends each hit of one kept answer with the clock's Date and an id of its own", async () => {
    const miss = await get(ALICE)
    const first = await get(ALICE)
    clock.advance(61_000)
    const second = await get(ALICE)
    expect([first.routed, second.routed]).toEqual([false, false])
    expect(first.head).toBe(miss.head)
    expect(second.head).toContain('\r\ndate: Sun, 01 Mar 2026 10:01:01 GMT\r\n')
    expect(second.head).toBe(first.head.replace(/^date: .*$/m, 'date: Sun, 01 Mar 2026 10:01:01 GMT'))
    expect(second.requestId).not.toBe(first.requestId)
    expect(second.body.equals(miss.body)).toBe(true)
  })

  it('keeps the same request-log entry as a hit through Fastify, with its own id', async () => {
    await get(ALICE)
    const throughFastify = await get(ALICE, LIST, { 'transfer-encoding': 'chunked' }, '0\r\n\r\n')
    const early = await get(ALICE)
    expect(early.routed).toBe(false)
    const [, viaFastify, viaEarly] = logged()
    const same = (e: Json) => ({ ...e, id: 0, time: 0, durationMs: 0, requestId: '' })
    expect(same(viaEarly as unknown as Json)).toEqual(same(viaFastify as unknown as Json))
    expect(viaEarly).toMatchObject({
      method: 'GET',
      url: LIST,
      status: 200,
      actor: 'alice',
      route: ROUTE,
      fault: null,
      requestId: early.requestId,
      requestBody: null,
      responseBody: null,
    })
    expect(viaFastify?.requestId).toBe(throughFastify.requestId)
    expect(viaEarly!.id).toBe(viaFastify!.id + 1)
    expect(viaEarly!.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('is made again after a write to the project: the next request sees it', async () => {
    await get(ALICE)
    expect((await get(ALICE)).routed).toBe(false)
    expect(await api('POST', '/api/v4/projects/acme%2Fapp/issues', { title: 'Third' })).toMatchObject({
      status: 201,
    })
    const after = await get(ALICE)
    expect(after.routed).toBe(true)
    expect(titles(after)).toEqual(['Third', 'Second', 'First'])
    expect(after.head).toContain('\r\nx-total: 3\r\n')
    const again = await get(ALICE)
    expect(again.routed).toBe(false)
    expect(again.body.equals(after.body)).toBe(true)
  })

  it("is made again on the server clock's next day (an answer may depend on the day)", async () => {
    await get(ALICE)
    expect((await get(ALICE)).routed).toBe(false)
    clock.advance(86_400_000)
    const nextDay = await get(ALICE)
    expect([nextDay.status, nextDay.routed]).toEqual([200, true])
    expect(nextDay.head).toContain('\r\ndate: Mon, 02 Mar 2026 10:00:00 GMT\r\n')
    expect((await get(ALICE)).routed).toBe(false)
  })

  it("never gives one caller another's answer: each gets what it may see", async () => {
    expect(titles(await get(ALICE))).toEqual(['Second', 'First'])
    expect((await get(ALICE)).routed).toBe(false)
    // A guest does not see the confidential issue; someone outside the project, or no one, gets its 404.
    const guest = await get('glpat-gina-token')
    expect([guest.routed, titles(guest)]).toEqual([true, ['First']])
    for (const token of ['glpat-otto-token', null]) {
      const outsider = await get(token)
      expect([outsider.status, json(outsider)]).toEqual([404, { message: '404 Project Not Found' }])
    }
    // An administrator asking as the guest (Sudo) gets the guest's answer, not their own.
    expect(titles(await get(ROOT))).toEqual(['Second', 'First'])
    const sudo = await get(ROOT, LIST, { sudo: 'gina' })
    expect(titles(sudo)).toEqual(['First'])
    expect(logged().at(-1)).toMatchObject({ actor: 'gina', status: 200 })
  })

  it('refuses a revoked token with 401, also when its answer is cached', async () => {
    const made = await api('POST', '/api/v4/users/2/personal_access_tokens', { name: 'ci', scopes: ['api'] })
    const { id, token } = JSON.parse(made.body!) as { id: number; token: string }
    expect((await get(token)).status).toBe(200)
    expect((await get(token)).routed).toBe(false)
    expect((await api('DELETE', `/api/v4/personal_access_tokens/${id}`)).status).toBe(204)
    const refused = await get(token)
    expect([refused.status, json(refused)]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('refuses a token without a read scope with 403 before the cache', async () => {
    const tokenOf = async (scopes: string[]) => {
      const made = await api('POST', '/api/v4/users/2/personal_access_tokens', { name: 'ci', scopes })
      return (JSON.parse(made.body!) as { token: string }).token
    }
    const [token, narrow] = [await tokenOf(['api']), await tokenOf(['read_user'])]
    for (let round = 0; round < 2; round++) {
      expect((await get(token)).status).toBe(200)
      // Both tokens are Alice's: her answer is cached, and the narrow token must not get it.
      expect((await get(token)).routed).toBe(false)
      const refused = await get(narrow)
      expect(refused.status).toBe(403)
      expect(json(refused)).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' })
    }
  })

  it('refuses a foreign Host with 403 on a warm cache', async () => {
    await get(ALICE)
    const foreign = await get(ALICE, LIST, { host: 'evil.example' })
    expect(foreign.status).toBe(403)
    expect(json(foreign)).toEqual({
      message:
        "403 Forbidden - Host 'evil.example' is not allowed (DNS rebinding protection); start the server with --allowed-host to allow it",
    })
  })

  it('applies a fault rule to a hit, and answers early again once the rule is gone', async () => {
    // The administrator's token is used first: its first use is written (last_used_at), a change
    // that would drop the cached answer on its own.
    expect((await api('GET', '/api/v4/version')).status).toBe(200)
    await get(ALICE)
    expect((await get(ALICE)).routed).toBe(false)
    const rule = { route: ROUTE, action: 'status', status: 503, times: 1 }
    expect((await api('POST', '/-/emulator/faults', rule)).status).toBe(201)
    const faulted = await get(ALICE)
    expect(faulted.status).toBe(503)
    expect(faulted.body.toString()).toContain('<center><h1>503 Service Temporarily Unavailable</h1></center>')
    expect(logged().at(-1)).toMatchObject({ status: 503, fault: { id: 1, action: 'status' } })
    expect((await api('DELETE', '/-/emulator/faults')).status).toBe(204)
    const healed = await get(ALICE)
    expect([healed.status, healed.routed]).toEqual([200, false])
    expect(logged().at(-1)).toMatchObject({ status: 200, fault: null })
  })

  it('answers HEAD through Fastify with the hit\u2019s headers and no body', async () => {
    const hit = (await get(ALICE), await get(ALICE))
    const head = await exchange('HEAD', LIST, { 'private-token': ALICE })
    expect([hit.routed, head.routed]).toEqual([false, true])
    expect(head.head).toBe(hit.head)
    expect(head.body.length).toBe(0)
  })

  it('leaves a token given in the query to Fastify, which answers it as before', async () => {
    const url = `${LIST}&private_token=${ALICE}`
    const first = await get(null, url)
    const second = await get(null, url)
    expect([first.status, second.status, second.routed]).toEqual([200, 200, true])
    expect(second.body.equals(first.body)).toBe(true)
    expect(logged().at(-1)?.url).toBe(`${LIST}&private_token=[FILTERED]`)
  })
})

it('keeps the bodies a hit answered with, with --log-bodies, as the miss kept them', async () => {
  await start({ requestLog: { size: 10, bodies: true } })
  const miss = await get(ALICE)
  const early = await get(ALICE)
  expect(early.routed).toBe(false)
  const [first, second] = logged()
  expect(second?.responseBody).toBe(first?.responseBody)
  expect(JSON.parse(second!.responseBody!)).toEqual(json(miss))
  expect(second?.requestBody).toBeNull()
})

describe('a server listening on a name with two addresses (localhost: 127.0.0.1 and ::1)', () => {
  /** `localhost` as a host with both loopback addresses resolves it (this machine's gives one). */
  const lookup = dns.lookup.bind(dns)
  beforeEach(async () => {
    jest.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, callback: unknown) => {
      const all = typeof options === 'object' && (options as { all?: boolean }).all === true
      if (host !== 'localhost' || !all) return (lookup as (...a: unknown[]) => void)(host, options, callback)
      ;(callback as (e: null, a: dns.LookupAddress[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ])
    }) as typeof dns.lookup)
    clock = manualClock()
    server = await buildServer({ clock, seed: parseSeed(seed, 'early-hits.yaml') })
    routed = 0
    server.app.addHook('onRequest', (_req, _reply, done) => {
      routed++
      done()
    })
    port = Number(new URL(await server.listen({ host: 'localhost', port: 0 })).port)
    await useTokens()
  })
  afterEach(() => jest.restoreAllMocks())

  const at = async (address: string, headers: Record<string, string> = { 'private-token': ALICE }) => {
    const before = routed
    const { head, body } = await rawExchange(
      port,
      'GET',
      LIST,
      { host: `localhost:${port}`, ...headers },
      '',
      address,
    )
    return { head: head.replace(/^(x-request-id: )(.*)$/im, '$1<id>'), body, routed: routed > before }
  }

  it('answers hits early on both addresses, with the same bytes', async () => {
    const bound = server.app.addresses() as AddressInfo[]
    expect(bound.map((a) => a.address).sort()).toEqual(['127.0.0.1', '::1'])
    const miss = await at('127.0.0.1')
    const v4 = await at('127.0.0.1')
    const v6 = await at('::1')
    expect([miss.routed, v4.routed, v6.routed]).toEqual([true, false, false])
    expect(v6.head).toBe(miss.head)
    expect(v6.body.equals(miss.body)).toBe(true)
  })

  it("answers the parser's refusals with GitLab's plain 400 on both addresses", async () => {
    for (const address of ['127.0.0.1', '::1']) {
      const refused = await at(address, { 'private-token': 'glpat-\u0000' })
      expect([address, refused.head.split('\r\n')[0], refused.body.toString()]).toEqual([
        address,
        'HTTP/1.1 400 Bad Request',
        'Bad Request',
      ])
    }
  })
})
