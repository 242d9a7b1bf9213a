/*
 * `DELETE /projects/:id/environments/review_apps` (lib/api/environments.rb,
 * Environments::ScheduleToDeleteReviewAppsService) against the real server and its clock: which stopped
 * review apps it takes, the dry run, GitLab's refusals and their bodies.
 */
import { manualClock, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // outsider
const APP = '/api/v4/projects/acme%2Fapp'
const ENVS = `${APP}/environments`
const REVIEW_APPS = `${ENVS}/review_apps`
const DAY_MS = 86_400_000
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/** Creates `name`, stopped unless told; its record. */
const environment = async (name: string, stopped = true) => {
  const made = await t.http('POST', ENVS, { token: MARK, json: { name } })
  expect(made.status).toBe(201)
  const id = (made.body as Json).id as number
  if (stopped) expect((await t.http('POST', `${ENVS}/${id}/stop`, { token: MARK })).status).toBe(200)
  return (await t.http('GET', `${ENVS}/${id}`, { token: MARK })).body as Json
}
const basic = (e: Json) => ({
  id: e.id,
  name: e.name,
  slug: e.slug,
  external_url: e.external_url,
  created_at: e.created_at,
  updated_at: e.updated_at,
})
const names = (body: unknown) => ((body as Json).scheduled_entries as Json[]).map((e) => e.name)
const exists = async (e: Json) => (await t.http('GET', `${ENVS}/${e.id as number}`, { token: MARK })).status
/** Moves the server's clock, running what each move runs (the auto-delete among it). */
const advance = async (seconds: number) => {
  const res = await t.http('POST', '/-/emulator/clock', { token: ROOT, json: { action: 'advance', seconds } })
  expect(res.status).toBe(200)
}

/** Two old stopped review apps, one old available, an old stopped one outside the folder, a new stopped one. */
const fixture = async () => {
  const first = await environment('review/first')
  clock.advance(60_000)
  const second = await environment('review/second')
  const running = await environment('review/running', false)
  const staging = await environment('staging/old')
  const reviewLike = await environment('reviewer/old')
  clock.advance(31 * DAY_MS)
  const recent = await environment('review/recent')
  return { first, second, running, staging, reviewLike, recent }
}

describe('DELETE /projects/:id/environments/review_apps', () => {
  it('lists the stopped review apps older than 30 days by the clock, oldest first, and deletes none by default', async () => {
    const { first, second, recent } = await fixture()
    const res = await t.http('DELETE', REVIEW_APPS, { token: DANA })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ scheduled_entries: [basic(first), basic(second)], unprocessable_entries: [] })
    expect([await exists(first), await exists(second), await exists(recent)]).toEqual([200, 200, 200])
    // `limit` takes the oldest; `before` moves the bound.
    const one = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: 'limit=1' })
    expect(names(one.body)).toEqual(['review/first'])
    const later = new Date(clock.now().getTime() + 1000).toISOString()
    const all = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: `before=${later}` })
    expect(names(all.body)).toEqual(['review/first', 'review/second', 'review/recent'])
  })

  it('schedules them with dry_run=false, then finds none: a 400 with both lists; a clock move past the week deletes them', async () => {
    const { first, second, running, staging, reviewLike, recent } = await fixture()
    const res = await t.http('DELETE', REVIEW_APPS, { token: DANA, json: { dry_run: false } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ scheduled_entries: [basic(first), basic(second)], unprocessable_entries: [] })
    // Scheduled, not deleted: both still read as before (`update_all` leaves `updated_at`), with no
    // `auto_delete_at` in the API's entity.
    const scheduled = await t.http('GET', `${ENVS}/${first.id as number}`, { token: MARK })
    expect([scheduled.status, scheduled.body]).toEqual([200, first])
    expect(await exists(second)).toBe(200)
    // Those scheduled are not taken again (`not_scheduled_for_deletion`): none left, a 400.
    const again = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: 'dry_run=false' })
    expect([again.status, again.body]).toEqual([
      400,
      {
        message: {
          scheduled_entries: [],
          unprocessable_entries: [],
          message:
            'Failed to authorize deletions for some or all of the environments. Ask someone with more permissions to delete the environments.',
        },
      },
    ])
    // A week less a second later they are still there; the move past the week deletes them.
    await advance(7 * 86_400 - 1)
    expect([await exists(first), await exists(second)]).toEqual([200, 200])
    await advance(2)
    const gone = await t.http('GET', `${ENVS}/${first.id as number}`, { token: MARK })
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }])
    expect(await exists(second)).toBe(404)
    const kept = [
      await exists(running),
      await exists(staging),
      await exists(reviewLike),
      await exists(recent),
    ]
    expect(kept).toEqual([200, 200, 200, 200])
  })

  it('schedules a week from the clock of the request, and a dry run schedules nothing', async () => {
    const { first, second } = await fixture()
    expect((await t.http('DELETE', REVIEW_APPS, { token: DANA })).status).toBe(200)
    await advance(8 * 86_400)
    expect([await exists(first), await exists(second)]).toEqual([200, 200])
    // `limit=1` schedules the oldest only; the next request takes the other, two days later.
    const one = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: 'dry_run=false&limit=1' })
    expect(names(one.body)).toEqual(['review/first'])
    await advance(2 * 86_400)
    const other = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: 'dry_run=false' })
    expect(names(other.body)).toEqual(['review/second'])
    await advance(5 * 86_400 + 1)
    expect([await exists(first), await exists(second)]).toEqual([404, 200])
    await advance(2 * 86_400)
    expect(await exists(second)).toBe(404)
  })

  it("refuses bad parameters with Grape's bodies, deleting nothing", async () => {
    const { first } = await fixture()
    const bad = async (query: string) => {
      const res = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: `dry_run=false&${query}` })
      return [res.status, res.body]
    }
    expect(await bad('limit=0')).toEqual([400, { error: 'limit does not have a valid value' }])
    expect(await bad('limit=1001')).toEqual([400, { error: 'limit does not have a valid value' }])
    expect(await bad('limit=many')).toEqual([
      400,
      { error: 'limit is invalid, limit does not have a valid value' },
    ])
    expect(await bad('before=someday')).toEqual([400, { error: 'before is invalid' }])
    const dry = await t.http('DELETE', REVIEW_APPS, { token: DANA, query: 'dry_run=maybe' })
    expect([dry.status, dry.body]).toEqual([400, { error: 'dry_run is invalid' }])
    expect(await exists(first)).toBe(200)
    // The range's bounds are in it.
    expect(await bad('limit=1000&before=2000-01-01T00:00:00Z')).toEqual([
      400,
      expect.objectContaining({ message: expect.objectContaining({ scheduled_entries: [] }) }),
    ])
  })

  it('answers 401, 403 and 404 in order, and 401 with the service message without destroy_environment', async () => {
    const { first } = await fixture()
    const anonymous = await t.http('DELETE', REVIEW_APPS)
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    const outsider = await t.http('DELETE', REVIEW_APPS, { token: OTTO })
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Project Not Found' }])
    const guest = await t.http('DELETE', REVIEW_APPS, { token: GUS })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    // An archived project's environments are read only (`ArchivedAbilities`), a Maintainer's too.
    expect((await t.http('POST', `${APP}/archive`, { token: ROOT })).status).toBe(201)
    const refused = await t.http('DELETE', REVIEW_APPS, { token: MARK, query: 'dry_run=false' })
    expect([refused.status, refused.body]).toEqual([
      401,
      {
        message: {
          scheduled_entries: [],
          unprocessable_entries: [],
          message: 'You do not have permission to destroy environments in this project',
        },
      },
    ])
    expect(await exists(first)).toBe(200)
  })
})
