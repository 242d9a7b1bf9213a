import { Readable } from 'node:stream'
import { createClient } from '../../src/api/client.js'
import { GitLabApiError } from '../../src/api/errors.js'
import { errorCode, retry, serverDelayMs } from '../../src/api/retry.js'
import type { ApiRequest, ApiResponse } from '../../src/api/transport.js'
import { fakeBody, scripted, sleeper } from './fake-send.js'

const request = (method: ApiRequest['method'], body?: ApiRequest['body']): ApiRequest => ({
  method,
  path: '/x',
  headers: {},
  body,
})
const answer = (headers: Record<string, string>): ApiResponse => ({
  status: 429,
  headers,
  body: fakeBody(''),
})

describe('serverDelayMs', () => {
  it('reads Retry-After as seconds', () => {
    expect(serverDelayMs(answer({ 'retry-after': '7' }), 1_000_000)).toBe(7000)
    expect(serverDelayMs(answer({ 'retry-after': '0' }), 1_000_000)).toBe(0)
  })

  it('reads Retry-After as an HTTP date, never negative', () => {
    expect(serverDelayMs(answer({ 'retry-after': new Date(1_004_000).toUTCString() }), 1_000_000)).toBe(4000)
    expect(serverDelayMs(answer({ 'retry-after': new Date(0).toUTCString() }), 1_000_000)).toBe(0)
  })

  it('falls back to RateLimit-Reset (epoch seconds), then RateLimit-ResetTime', () => {
    expect(serverDelayMs(answer({ 'ratelimit-reset': '1010' }), 1_000_000)).toBe(10_000)
    expect(
      serverDelayMs(answer({ 'ratelimit-resettime': new Date(1_002_000).toUTCString() }), 1_000_000),
    ).toBe(2000)
    expect(serverDelayMs(answer({ 'retry-after': '3', 'ratelimit-reset': '1010' }), 1_000_000)).toBe(3000)
  })

  it('is undefined without a usable header', () => {
    expect(serverDelayMs(answer({}), 1_000_000)).toBeUndefined()
    expect(serverDelayMs(answer({ 'retry-after': 'soon' }), 1_000_000)).toBeUndefined()
  })
})

describe('retry decisions', () => {
  it('retries a 429 POST after the Retry-After seconds, dumping the body before sleeping', async () => {
    const { send, calls, log } = scripted([{ status: 429, headers: { 'retry-after': '7' } }, { status: 201 }])
    const { slept, policy } = sleeper(log)
    const res = await retry(policy)(send)(request('POST', '{"title":"x"}'))
    expect(res.status).toBe(201)
    expect(calls).toHaveLength(2)
    expect(slept).toEqual([7000])
    expect(log).toEqual(['send', 'dump', 'sleep 7000', 'send'])
  })

  it('waits until an HTTP-date Retry-After, and until RateLimit-Reset', async () => {
    const when = new Date(1_000_000 + 9000).toUTCString()
    const { send } = scripted([
      { status: 429, headers: { 'retry-after': when } },
      { status: 429, headers: { 'ratelimit-reset': '1012' } },
      { status: 200 },
    ])
    const { slept, policy } = sleeper()
    expect((await retry(policy)(send)(request('GET'))).status).toBe(200)
    expect(slept).toEqual([9000, 12_000])
  })

  it('caps a server-requested wait at maxServerDelayMs', async () => {
    const { send } = scripted([{ status: 429, headers: { 'retry-after': '3600' } }, { status: 200 }])
    const { slept, policy } = sleeper()
    await retry({ ...policy, maxServerDelayMs: 60_000 })(send)(request('GET'))
    expect(slept).toEqual([60_000])
  })

  it('retries 502, 503 and 504 for GET, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const { send, calls } = scripted([{ status: 502 }, { status: 503 }, { status: 504 }, { status: 200 }])
      expect((await retry(sleeper().policy)(send)(request(method))).status).toBe(200)
      expect(calls).toHaveLength(4)
    }
  })

  it('never retries a 503 (or 502/504) POST or PATCH: it may have been applied', async () => {
    for (const method of ['POST', 'PATCH'] as const)
      for (const status of [502, 503, 504]) {
        const { send, calls } = scripted([{ status }, { status: 201 }])
        const { slept, policy } = sleeper()
        expect((await retry(policy)(send)(request(method))).status).toBe(status)
        expect(calls).toHaveLength(1)
        expect(slept).toEqual([])
      }
  })

  it('does not retry other failures (500, 404, 409)', async () => {
    for (const status of [500, 404, 409]) {
      const { send, calls } = scripted([{ status }, { status: 200 }])
      expect((await retry(sleeper().policy)(send)(request('GET'))).status).toBe(status)
      expect(calls).toHaveLength(1)
    }
  })

  it('retries a connection reset and a closed socket for GET', async () => {
    const { send, calls } = scripted([{ error: 'ECONNRESET' }, { error: 'UND_ERR_SOCKET' }, { status: 200 }])
    const { slept, policy } = sleeper()
    expect((await retry(policy)(send)(request('GET'))).status).toBe(200)
    expect(calls).toHaveLength(3)
    expect(slept).toEqual([250, 500]) // random 0.5 of 500 ms, then of 1000 ms
  })

  it('finds the code on an error cause, as undici wraps some socket errors', () => {
    const wrapped = new Error('fetch failed', {
      cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
    })
    expect(errorCode(wrapped)).toBe('ECONNRESET')
    expect(errorCode(new Error('plain'))).toBeUndefined()
  })

  it('does not retry a connection reset for POST', async () => {
    const { send, calls } = scripted([{ error: 'ECONNRESET' }, { status: 201 }])
    await expect(retry(sleeper().policy)(send)(request('POST'))).rejects.toThrow('socket: ECONNRESET')
    expect(calls).toHaveLength(1)
  })

  it('does not retry an error that is not a connection failure', async () => {
    const { send, calls } = scripted([{ error: 'ERR_SOMETHING_ELSE' }, { status: 200 }])
    await expect(retry(sleeper().policy)(send)(request('GET'))).rejects.toThrow('ERR_SOMETHING_ELSE')
    expect(calls).toHaveLength(1)
  })

  it('backs off exponentially with full jitter up to maxDelayMs, then returns the last answer', async () => {
    const { send, calls } = scripted(Array.from({ length: 6 }, () => ({ status: 503 })))
    const { slept, policy } = sleeper()
    const res = await retry({ ...policy, random: () => 1, baseDelayMs: 100, maxDelayMs: 700, maxRetries: 5 })(
      send,
    )(request('GET'))
    expect(res.status).toBe(503)
    expect(calls).toHaveLength(6)
    expect(slept).toEqual([100, 200, 400, 700, 700])
  })

  it('uses the jitter: random() scales each step down', async () => {
    const randoms = [0, 0.25, 0.999]
    const { send } = scripted([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }])
    const { slept, policy } = sleeper()
    await retry({ ...policy, random: () => randoms.shift() ?? 0, baseDelayMs: 1000 })(send)(request('GET'))
    expect(slept).toEqual([0, 500, 3996])
  })

  it('stops after maxRetries (default 3) and never retries with maxRetries 0', async () => {
    const many = scripted(Array.from({ length: 10 }, () => ({ status: 429 })))
    expect((await retry(sleeper().policy)(many.send)(request('GET'))).status).toBe(429)
    expect(many.calls).toHaveLength(4)
    const none = scripted([{ status: 429 }, { status: 200 }])
    expect((await retry({ ...sleeper().policy, maxRetries: 0 })(none.send)(request('GET'))).status).toBe(429)
    expect(none.calls).toHaveLength(1)
  })

  it('does not retry a streamed body, which cannot be sent again', async () => {
    const { send, calls } = scripted([{ status: 429 }, { status: 201 }])
    const res = await retry(sleeper().policy)(send)(request('PUT', Readable.from(['x'])))
    expect(res.status).toBe(429)
    expect(calls).toHaveLength(1)
  })

  it('stops waiting when the caller aborts during the backoff', async () => {
    const { send, calls } = scripted([{ status: 503 }, { status: 200 }])
    const controller = new AbortController()
    const sleep = async (_ms: number, signal?: AbortSignal) => {
      controller.abort(new Error('caller gave up'))
      if (signal?.aborted) throw signal.reason
    }
    await expect(retry({ sleep })(send)({ ...request('GET'), signal: controller.signal })).rejects.toThrow(
      'caller gave up',
    )
    expect(calls).toHaveLength(1)
  })
})

describe('retry through the client', () => {
  it('re-runs auth and user agent on every attempt and reports the final GitLab error', async () => {
    const body = JSON.stringify({ message: '503 Service Unavailable' })
    const headers = { 'content-type': 'application/json' }
    const { send, calls } = scripted([
      { status: 503, headers, body },
      { status: 503, headers, body },
      { status: 503, headers, body },
    ])
    const client = createClient({
      baseUrl: 'http://gitlab.test',
      token: 'glpat-secret',
      send,
      retry: { ...sleeper().policy, maxRetries: 2 },
    })
    const err = await client.projects.get('acme/widgets').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitLabApiError)
    expect((err as GitLabApiError).message).toBe(
      'GET /projects/acme%2Fwidgets -> 503: 503 Service Unavailable',
    )
    expect(calls).toHaveLength(3)
    for (const call of calls) {
      expect(call.headers['private-token']).toBe('glpat-secret')
      expect(call.headers['user-agent']).toBe('gitlab-actions')
    }
  })

  it('a POST through the client is sent once on 502 and retried on 429', async () => {
    const { send, calls } = scripted([
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 502, body: '<html>Bad Gateway</html>' },
    ])
    const client = createClient({ baseUrl: 'http://gitlab.test', send, retry: sleeper().policy })
    await expect(client.issues.create('acme/widgets', { title: 'x' })).rejects.toMatchObject({
      status: 502,
      method: 'POST',
      body: '<html>Bad Gateway</html>',
    })
    expect(calls.map((c) => c.method)).toEqual(['POST', 'POST'])
  })
})
