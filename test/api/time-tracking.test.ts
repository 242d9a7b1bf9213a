import { createClient, type GitLabClient } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { startServer, type TestServer } from '../support/server.js'
import { apiFailure } from '../support/client-pool.js'

const W = 'acme/widgets'
/** Issue #1 of the seed: 1h estimated, 30m spent. */
const SEEDED = {
  time_estimate: 3600,
  total_time_spent: 1800,
  human_time_estimate: '1h',
  human_total_time_spent: '30m',
}
let t: TestServer
let rita: GitLabClient
beforeEach(async () => {
  t = await startServer(detailSeed)
  rita = createClient({ baseUrl: t.baseUrl, token: T.reporter, validate: true })
})
afterEach(async () => {
  await rita.close()
  await t.close()
})

describe('time tracking through the client', () => {
  it('reads the stats; the issue record carries the same', async () => {
    expect(await rita.timeTracking.stats(W, 1)).toEqual(SEEDED)
    expect((await rita.issues.get(W, 1)).time_stats).toEqual(SEEDED)
  })

  it("sets the estimate in GitLab's durations and answers GitLab's human forms", async () => {
    for (const [duration, seconds, human] of [
      ['3h30m', 12_600, '3h 30m'],
      ['1w 2d', 7 * 8 * 3600, '1w 2d'],
      ['1mo', 20 * 8 * 3600, '1mo'],
      ['2', 7200, '2h'],
    ] as const) {
      const stats = await rita.timeTracking.setEstimate(W, 2, duration)
      expect([duration, stats.time_estimate, stats.human_time_estimate]).toEqual([duration, seconds, human])
    }
    expect(await rita.timeTracking.resetEstimate(W, 2)).toMatchObject({
      time_estimate: 0,
      human_time_estimate: null,
    })
  })

  it('adds spent time with a summary, subtracts down to zero, and resets', async () => {
    const added = await rita.timeTracking.addSpent(W, 1, '1h', 'pairing on the fix')
    expect(added).toMatchObject({ total_time_spent: 5400, human_total_time_spent: '1h 30m' })
    const less = await rita.timeTracking.addSpent(W, 1, '-30m')
    expect(less).toMatchObject({ total_time_spent: 3600, human_total_time_spent: '1h' })
    expect((await rita.issues.get(W, 1)).time_stats.total_time_spent).toBe(3600)
    expect(await rita.timeTracking.resetSpent(W, 1)).toEqual({
      ...SEEDED,
      total_time_spent: 0,
      human_total_time_spent: null,
    })
  })

  it("surfaces GitLab's 400s and keeps the stored stats", async () => {
    const foo = await apiFailure(rita.timeTracking.setEstimate(W, 1, 'foo'))
    expect(foo).toMatchObject({
      status: 400,
      method: 'POST',
      path: '/projects/acme%2Fwidgets/issues/1/time_estimate',
      body: {
        message:
          '400 Bad request - {:reason=>"Time estimate must have a valid format and be greater than or equal to zero."}',
      },
    })
    const tooMuch = await apiFailure(rita.timeTracking.addSpent(W, 1, '-2h'))
    expect(tooMuch).toMatchObject({
      status: 400,
      body: { message: { base: ['Time to subtract exceeds the total time spent'] } },
    })
    const zero = await apiFailure(rita.timeTracking.addSpent(W, 1, '0m'))
    expect(zero).toMatchObject({ status: 400, body: { message: { timelogs: ['is invalid'] } } })
    const long = await apiFailure(rita.timeTracking.addSpent(W, 1, '1h', 'x'.repeat(256)))
    expect(long.status).toBe(400)
    expect(await rita.timeTracking.stats(W, 1)).toEqual(SEEDED)
  })

  it('403 for a guest; reads open to readers, 404 for outsiders', async () => {
    const gus = createClient({ baseUrl: t.baseUrl, token: T.guest })
    const otto = createClient({ baseUrl: t.baseUrl, token: T.outsider })
    try {
      const err = await apiFailure(gus.timeTracking.addSpent(W, 1, '1h'))
      expect(err).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
      expect(await gus.timeTracking.stats(W, 1)).toEqual(SEEDED)
      expect((await apiFailure(otto.timeTracking.stats(W, 1))).status).toBe(404)
    } finally {
      await Promise.all([gus.close(), otto.close()])
    }
  })
})
