import { Readable } from 'node:stream'
import { retry, serverDelayMs } from '../../src/api/retry.js'
import type { ApiRequest, ApiResponse, Send } from '../../src/api/transport.js'

/** A scripted transport: each call takes the next answer (a status with headers, or an error code). */
function scripted(answers: ({ status: number; headers?: Record<string, string> } | { error: string })[]) {
  const calls: ApiRequest[] = []
  const send: Send = async (req) => {
    calls.push(req)
    const next = answers.shift()
    if (!next) throw new Error('no more answers')
    if ('error' in next) throw Object.assign(new Error(next.error), { code: next.error })
    const body = Object.assign(Readable.from(['{}']), { dump: async () => undefined, text: async () => '{}' })
    return { status: next.status, headers: next.headers ?? {}, body } as unknown as ApiResponse
  }
  return { send, calls }
}

const request = (method: ApiRequest['method']): ApiRequest => ({ method, path: '/x', headers: {} })

function withSleeps() {
  const slept: number[] = []
  return {
    slept,
    policy: { sleep: async (ms: number) => void slept.push(ms), random: () => 1, now: () => 1_000_000 },
  }
}

describe('retry', () => {
  it('retries a 429 for any method, waiting what Retry-After asks', async () => {
    const { send, calls } = scripted([{ status: 429, headers: { 'retry-after': '7' } }, { status: 201 }])
    const { slept, policy } = withSleeps()
    const res = await retry(policy)(send)(request('POST'))
    expect(res.status).toBe(201)
    expect(calls).toHaveLength(2)
    expect(slept).toEqual([7000])
  })

  it('reads Retry-After as an HTTP date and RateLimit-Reset as epoch seconds', () => {
    const at = (headers: Record<string, string>) =>
      serverDelayMs({ status: 429, headers } as unknown as ApiResponse, 1_000_000)
    expect(at({ 'retry-after': new Date(1_000_000 + 4000).toUTCString() })).toBe(4000)
    expect(at({ 'ratelimit-reset': '1010' })).toBe(10_000)
    expect(at({})).toBeUndefined()
  })

  it('retries 502/503/504 for GET but never for POST', async () => {
    const get = scripted([{ status: 503 }, { status: 502 }, { status: 200 }])
    expect((await retry(withSleeps().policy)(get.send)(request('GET'))).status).toBe(200)
    expect(get.calls).toHaveLength(3)
    const post = scripted([{ status: 503 }, { status: 201 }])
    expect((await retry(withSleeps().policy)(post.send)(request('POST'))).status).toBe(503)
    expect(post.calls).toHaveLength(1)
  })

  it('retries a connection reset for idempotent methods only', async () => {
    const get = scripted([{ error: 'ECONNRESET' }, { status: 200 }])
    expect((await retry(withSleeps().policy)(get.send)(request('GET'))).status).toBe(200)
    const post = scripted([{ error: 'ECONNRESET' }, { status: 201 }])
    await expect(retry(withSleeps().policy)(post.send)(request('POST'))).rejects.toThrow('ECONNRESET')
  })

  it('backs off exponentially with full jitter and stops after maxRetries', async () => {
    const { send, calls } = scripted([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }])
    const { slept, policy } = withSleeps()
    const res = await retry({ ...policy, baseDelayMs: 100, maxRetries: 3 })(send)(request('GET'))
    expect(res.status).toBe(503)
    expect(calls).toHaveLength(4)
    expect(slept).toEqual([100, 200, 400])
  })

  it('does not retry a streamed body that cannot be replayed', async () => {
    const { send, calls } = scripted([{ status: 429 }, { status: 201 }])
    const res = await retry(withSleeps().policy)(send)({ ...request('PUT'), body: Readable.from(['x']) })
    expect(res.status).toBe(429)
    expect(calls).toHaveLength(1)
  })
})
