import { serverEach } from '../../support/server.js'
import { developersMerge, manualClock } from '../../support/pipeline-seed.js'

/*
 * The CI writes under the repository and CI/CD features (`app/policies/project_policy.rb`: the build
 * abilities go with `builds_disabled | repository_disabled`, the pipeline ones with
 * `(builds_disabled & ~internal_builds_disabled) | repository_disabled`), and external users in an
 * internal project (`internal_access` leaves them out). The reads: jobs.test.ts and the access matrix.
 */

const ROOT = 'glpat-root-token'
const DEV = 'glpat-dev-token' // developer
const GUEST = 'glpat-guest-token' // guest
const EVE = 'glpat-eve-token' // no member
const P = '/api/v4/projects/open%2Finner'
const FORBIDDEN = { message: '403 Forbidden' }
type Json = Record<string, unknown>

const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: dev, token: ${DEV} }
  - { username: guest, token: ${GUEST} }
  - { username: eve, token: ${EVE} }
groups:
  - { path: open, visibility: public, members: { dev: developer, guest: guest } }
projects:
  - { path: open/inner, visibility: internal, ci_jobs: [build, test], ci_outcome: failed }
`
const t = serverEach(seed, () => ({ clock: manualClock() }))

const setFeature = async (json: Json) =>
  expect((await t.http('PUT', P, { token: ROOT, json })).status).toBe(200)
/** A pipeline of `main` (fully protected: root makes it), forced to `failed` with its jobs through the emulator's control. */
const failedPipeline = async (): Promise<number> => {
  const made = await t.http('POST', `${P}/pipeline`, { token: ROOT, json: { ref: 'main' } })
  expect(made.status).toBe(201)
  const id = (made.body as Json).id as number
  const forced = await t.http('PUT', `/-/emulator/projects/open%2Finner/pipelines/${id}`, {
    token: ROOT,
    json: { status: 'failed' },
  })
  expect(forced.status).toBe(200)
  return id
}
const jobStates = async (id: number) =>
  (
    (await t.http('GET', `${P}/pipelines/${id}/jobs`, { token: ROOT, query: 'include_retried=true' }))
      .body as Json[]
  )
    .map((j) => `${j.name as string}:${j.status as string}`)
    .sort()

describe('CI writes and the repository and CI/CD features', () => {
  it('a Developer cancelling a missing job while CI/CD is disabled gets 403 before 404 (authorize_cancel_builds!)', async () => {
    const missing = `${P}/jobs/999999/cancel`
    expect((await t.http('POST', missing, { token: DEV })).status).toBe(404)
    await setFeature({ builds_access_level: 'disabled' })
    const res = await t.http('POST', missing, { token: DEV })
    expect([res.status, res.body]).toEqual([403, FORBIDDEN])
  })

  it('the repository disabled: pipeline cancel, retry, variables and creation are 403 and change nothing', async () => {
    const id = await failedPipeline()
    const before = await jobStates(id)
    await setFeature({ repository_access_level: 'disabled' })
    for (const [method, path] of [
      ['POST', `${P}/pipelines/${id}/cancel`],
      ['POST', `${P}/pipelines/${id}/retry`],
      ['GET', `${P}/pipelines/${id}/variables`],
    ] as const)
      for (const token of [DEV, ROOT]) {
        const res = await t.http(method, path, { token })
        expect([path, res.status, res.body]).toEqual([path, 403, FORBIDDEN])
      }
    const create = await t.http('POST', `${P}/pipeline`, { token: DEV, json: { ref: 'main' } })
    expect([create.status, create.body]).toEqual([403, FORBIDDEN])
    await setFeature({ repository_access_level: 'enabled' })
    expect(await jobStates(id)).toEqual(before)
    expect((await t.http('GET', `${P}/pipelines`, { token: ROOT })).body).toHaveLength(1)
  })

  it('CI/CD disabled: POST /pipeline passes create_pipeline but the chain refuses it (400 Pipelines are disabled!), nothing made', async () => {
    await setFeature({ builds_access_level: 'disabled' })
    for (const token of [DEV, ROOT]) {
      const res = await t.http('POST', `${P}/pipeline`, { token, json: { ref: 'nowhere' } })
      expect([res.status, res.body]).toEqual([400, { message: { base: ['Pipelines are disabled!'] } }])
    }
    await setFeature({ builds_access_level: 'enabled' })
    expect((await t.http('GET', `${P}/pipelines`, { token: ROOT })).body).toEqual([])
  })

  it('CI/CD disabled: a pipeline retry answers 201 and replaces no failed job (Ci::RetryPipelineService)', async () => {
    await developersMerge(t, 'open/inner')
    const id = await failedPipeline()
    const before = await jobStates(id)
    await setFeature({ builds_access_level: 'disabled' })
    const res = await t.http('POST', `${P}/pipelines/${id}/retry`, { token: DEV })
    expect([res.status, (res.body as Json).id]).toEqual([201, id])
    await setFeature({ builds_access_level: 'enabled' })
    expect(await jobStates(id)).toEqual(before)
    // With the feature on, the same retry replaces them.
    expect((await t.http('POST', `${P}/pipelines/${id}/retry`, { token: DEV })).status).toBe(201)
    expect((await jobStates(id)).length).toBeGreaterThan(before.length)
  })
})

describe('external users and an internal project', () => {
  const makeExternal = async (username: string) => {
    const user = (await t.http('GET', '/api/v4/users', { token: ROOT, query: `username=${username}` }))
      .body as Json[]
    const res = await t.http('PUT', `/api/v4/users/${user[0]!.id as number}`, {
      token: ROOT,
      json: { external: true },
    })
    expect(res.status).toBe(200)
  }

  it('hides its pipelines and jobs from an external user who is no member (internal_access)', async () => {
    const id = await failedPipeline()
    const paths = [`${P}/pipelines`, `${P}/pipelines/${id}`, `${P}/pipelines/${id}/jobs`, `${P}/jobs`]
    const statuses = async (token: string) =>
      Promise.all(paths.map(async (path) => (await t.http('GET', path, { token })).status))
    expect(await statuses(EVE)).toEqual([200, 200, 200, 200])
    await makeExternal('eve')
    expect(await statuses(EVE)).toEqual([404, 404, 404, 404])
    expect((await t.http('GET', `${P}/pipelines`, { token: EVE })).body).toEqual({
      message: '404 Project Not Found',
    })
  })

  it('an external Guest member reads its pipelines only as public_jobs allows (no public_access)', async () => {
    const id = await failedPipeline()
    await setFeature({ public_jobs: false })
    const jobsList = async (token: string) =>
      (await t.http('GET', `${P}/pipelines/${id}/jobs`, { token })).status
    expect(await jobsList(GUEST)).toBe(200)
    await makeExternal('guest')
    expect(await jobsList(GUEST)).toBe(403)
    await setFeature({ public_jobs: true })
    expect(await jobsList(GUEST)).toBe(200)
  })
})
