import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, PUBLIC, T } from './issue-details-seed.js'

let t: TestServer
beforeEach(async () => {
  t = await startServer(detailSeed)
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const stats = async (iid = 1) =>
  (await t.http('GET', `${P}/issues/${iid}/time_stats`, { token: T.root })).body as Json
const SEEDED = {
  time_estimate: 3600,
  total_time_spent: 1800,
  human_time_estimate: '1h',
  human_total_time_spent: '30m',
}

describe('time tracking', () => {
  it('reads the seeded stats; the issue record carries the same', async () => {
    expect(await stats()).toEqual(SEEDED)
    expect((await t.http('GET', `${P}/issues/1`, { token: T.root })).body).toMatchObject({
      time_stats: SEEDED,
    })
  })

  it('sets the estimate (200) in GitLab durations: 1w = 5d, 1d = 8h, bare numbers are hours', async () => {
    for (const [duration, seconds, human] of [
      ['3h30m', 12_600, '3h 30m'],
      ['1w 2d', 201_600, '1w 2d'],
      ['1mo', 576_000, '1mo'],
      ['2', 7_200, '2h'],
    ] as const) {
      const res = await t.http('POST', `${P}/issues/1/time_estimate`, {
        token: T.reporter,
        json: { duration },
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ time_estimate: seconds, human_time_estimate: human })
    }
    const zero = await t.http('POST', `${P}/issues/1/time_estimate`, {
      token: T.reporter,
      form: 'duration=0',
    })
    expect(zero.body).toMatchObject({ time_estimate: 0, human_time_estimate: null })
    expect((await t.http('GET', `${P}/issues/1`, { token: T.root })).body).toMatchObject({
      time_stats: { time_estimate: 0 },
    })
  })

  it.each([['foo'], ['-1h']])(
    'refuses the estimate %s with GitLab 400 and keeps the old one',
    async (duration) => {
      const res = await t.http('POST', `${P}/issues/1/time_estimate`, {
        token: T.reporter,
        json: { duration },
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        message:
          '400 Bad request - {:reason=>"Time estimate must have a valid format and be greater than or equal to zero."}',
      })
      expect(await stats()).toEqual(SEEDED)
    },
  )

  it('adds spent time (201), subtracts down to zero, never below', async () => {
    const add = await t.http('POST', `${P}/issues/1/add_spent_time`, {
      token: T.reporter,
      json: { duration: '1h', summary: 'debugging' },
    })
    expect(add.status).toBe(201)
    expect(add.body).toMatchObject({ total_time_spent: 5400, human_total_time_spent: '1h 30m' })
    const sub = await t.http('POST', `${P}/issues/1/add_spent_time`, {
      token: T.reporter,
      json: { duration: '-1h30m' },
    })
    expect(sub.body).toMatchObject({ total_time_spent: 0, human_total_time_spent: null })
    const below = await t.http('POST', `${P}/issues/1/add_spent_time`, {
      token: T.reporter,
      json: { duration: '-1m' },
    })
    expect([below.status, below.body]).toEqual([
      400,
      { message: { base: ['Time to subtract exceeds the total time spent'] } },
    ])
    expect(
      t.server.store.timelogs.ofIssue(t.server.store.issues.byIid(1, 1)!.id).map((l) => l.time_spent),
    ).toEqual([3600, -5400])
  })

  it.each([
    ['an unreadable duration', { duration: 'soon' }, { timelogs: ['is invalid'] }],
    ['a zero duration', { duration: '0h' }, { timelogs: ['is invalid'] }],
    ['a long summary', { duration: '1h', summary: 'x'.repeat(256) }, { timelogs: ['is invalid'] }],
    ['more than four years', { duration: '40000h' }, { base: ['Total time spent cannot exceed 4 years.'] }],
  ])('refuses %s and records nothing', async (_what, json, message) => {
    const res = await t.http('POST', `${P}/issues/1/add_spent_time`, { token: T.reporter, json })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(await stats()).toEqual(SEEDED)
  })

  it('resets the estimate and the time spent (200)', async () => {
    const est = await t.http('POST', `${P}/issues/1/reset_time_estimate`, { token: T.planner })
    expect([est.status, est.body]).toEqual([200, { ...SEEDED, time_estimate: 0, human_time_estimate: null }])
    const spent = await t.http('POST', `${P}/issues/1/reset_spent_time`, { token: T.planner })
    expect([spent.status, spent.body]).toEqual([
      200,
      { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    ])
  })

  it('needs duration; 403 for guests and outsiders of public projects; 401 anonymous; reads are open', async () => {
    const missing = await t.http('POST', `${P}/issues/1/time_estimate`, { token: T.reporter, json: {} })
    expect(missing.body).toEqual({ error: 'duration is missing' })
    for (const verb of ['time_estimate', 'reset_time_estimate', 'add_spent_time', 'reset_spent_time']) {
      const guest = await t.http('POST', `${P}/issues/1/${verb}`, {
        token: T.guest,
        json: { duration: '1h' },
      })
      expect([verb, guest.status, guest.body]).toEqual([verb, 403, { message: '403 Forbidden' }])
    }
    const otto = await t.http('POST', `${PUBLIC}/issues/1/time_estimate`, {
      token: T.outsider,
      json: { duration: '1h' },
    })
    expect(otto.status).toBe(403)
    expect(
      (await t.http('POST', `${PUBLIC}/issues/1/time_estimate`, { json: { duration: '1h' } })).status,
    ).toBe(401)
    expect((await t.http('GET', `${PUBLIC}/issues/1/time_stats`)).status).toBe(200)
    expect((await t.http('GET', `${P}/issues/1/time_stats`)).status).toBe(404)
    expect((await t.http('GET', `${P}/issues/77/time_stats`, { token: T.root })).body).toEqual({
      message: '404 Not found',
    })
    expect(await stats()).toEqual(SEEDED)
  })
})
