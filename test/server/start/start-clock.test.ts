import { request } from 'undici'
import {
  ClockMoveError,
  startServer,
  UnsettledError,
  type RunningServer,
} from '../../../src/server/start/start-server.js'
import { dripServer } from '../../support/drip-server.js'
import { MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'

/* `startServer`'s clock controls and `settle()`, as a jest suite uses them. */

const T0 = '2030-01-01T00:00:00.000Z'
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString()

let gitlab: RunningServer
afterEach(() => gitlab.close())

async function api(method: 'GET' | 'POST', path: string, form?: string) {
  const res = await request(`${gitlab.apiUrl}${path}`, {
    method,
    headers: {
      'private-token': gitlab.token!,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form,
  })
  return {
    status: res.statusCode,
    date: res.headers.date,
    body: (await res.body.json()) as Record<string, unknown>,
  }
}

describe('startServer({ frozenAt }), clock and settle', () => {
  beforeEach(async () => {
    gitlab = await startServer({ seed: pipelineSeed, frozenAt: T0 })
  })

  it('starts frozen; advance and settle move a pipeline, each state at its time', async () => {
    expect(gitlab.clock.state()).toEqual({ now: T0, frozen: true })
    expect(gitlab.clock.now().toISOString()).toBe(T0)
    const made = await api('POST', '/projects/acme%2Fapp/trigger/pipeline', `ref=main&token=${MARK_TRIGGER}`)
    expect(made).toMatchObject({
      status: 201,
      date: 'Tue, 01 Jan 2030 00:00:00 GMT',
      body: { created_at: T0 },
    })
    const id = made.body.id as number
    const status = async () => (await api('GET', `/projects/acme%2Fapp/pipelines/${id}`)).body

    expect(await gitlab.clock.advance(1)).toEqual({
      clock: { now: at(1000), frozen: true },
      ran: { pipeline_moves: 2, transfer_jobs: 0 },
    })
    expect(await status()).toMatchObject({ status: 'running', started_at: at(1000) })
    expect((await gitlab.settle()).ran).toEqual({ pipeline_moves: 4, transfer_jobs: 0 })
    expect(await status()).toMatchObject({ status: 'success', finished_at: at(5500) })
    expect(gitlab.clock.now().toISOString()).toBe(at(5500))
  })

  it('refuses to go back with a ClockMoveError; a reset returns to the frozen start', async () => {
    await gitlab.clock.set('2031-01-01T00:00:00Z')
    await expect(gitlab.clock.set(T0)).rejects.toBeInstanceOf(ClockMoveError)
    await expect(gitlab.clock.freeze(new Date(T0))).rejects.toThrow(/the clock never goes back/)
    expect(gitlab.clock.now().toISOString()).toBe('2031-01-01T00:00:00.000Z')
    await gitlab.reset()
    expect(gitlab.clock.state()).toEqual({ now: T0, frozen: true })
    await gitlab.clock.unfreeze()
    expect(gitlab.clock.state().frozen).toBe(false)
  })

  it('settle rejects with an UnsettledError 409 naming a pipeline that waits for a manual job', async () => {
    const trigger = await api('POST', '/projects/acme%2Fmanual/triggers', 'description=t')
    const made = await api(
      'POST',
      '/projects/acme%2Fmanual/trigger/pipeline',
      `ref=main&token=${String(trigger.body.token)}`,
    )
    const err = await gitlab.settle().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnsettledError)
    expect((err as UnsettledError).status).toBe(409)
    expect((err as UnsettledError).body.pending.pipelines).toEqual([
      { id: made.body.id, project_id: made.body.project_id, status: 'manual' },
    ])
  })
})

it('settle rejects with a 504 UnsettledError when an import still runs after its timeout', async () => {
  const drip = await dripServer()
  gitlab = await startServer({ seed: pipelineSeed, allowLocalRequests: true })
  try {
    const res = await request(`${gitlab.apiUrl}/projects/remote-import`, {
      method: 'POST',
      headers: { 'private-token': gitlab.token!, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${drip.url}/x.tar.gz`, path: 'dripped', namespace: 'acme' }),
    })
    expect(res.statusCode).toBe(201)
    await res.body.dump()
    const started = Date.now()
    const err = await gitlab.settle({ timeoutSeconds: 0.3 }).catch((e: unknown) => e)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(err).toBeInstanceOf(UnsettledError)
    expect((err as UnsettledError).status).toBe(504)
    expect((err as UnsettledError).body).toMatchObject({
      message: 'settle timed out after 0.3 s: export or import jobs are still running',
      pending: { pipelines: [], transfer_jobs: 1 },
      ran: { transfer_jobs: 0 },
    })
  } finally {
    await gitlab.close()
    await drip.close()
  }
})
