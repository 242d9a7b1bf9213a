/*
 * Job artifacts that expire (Ci::JobArtifacts::DestroyAllExpiredService on each clock move), the
 * pipelines that keep theirs (`artifacts_locked` while `keep_latest_artifact` is on, unlocked when a newer
 * pipeline of the ref succeeds), and the artifact writes of lib/api/ci/job_artifacts.rb: keep, delete a
 * job's, delete a project's; against the real server and its clock.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverEach, startServer, type TestServer } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const APP = '/api/v4/projects/acme%2Fapp'
const HOUR = 3600
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const each = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))
/** The server under test: the file's, or one a test starts with a data directory. */
let t: TestServer = each
beforeEach(() => (t = each))

const config = (expireIn: string) => `
build:
  script: [echo hi > out.txt]
  artifacts:
    paths: [out.txt]
    expire_in: ${expireIn}
`
/** Triggers a pipeline on `ci` and runs it out; its `build` job. */
const run = async () => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  const pid = (res.body as Json).id as number
  await runOut(t, clock, { steps: 20 })
  const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
  const build = jobs.find((j) => j.name === 'build') as Json
  expect(build).toMatchObject({ status: 'success', artifacts_file: { filename: 'artifacts.zip' } })
  return build
}
const job = async (id: unknown) =>
  (await t.http('GET', `${APP}/jobs/${id as number}`, { token: MARK })).body as Json
const archive = async (id: unknown) =>
  (await t.http('GET', `${APP}/jobs/${id as number}/artifacts`, { token: MARK })).status
const file = async (id: unknown) =>
  (await t.http('GET', `${APP}/jobs/${id as number}/artifacts/out.txt`, { token: MARK })).status
/** Moves the server's clock as a suite does (`POST /-/emulator/clock`): due work runs. */
const advance = async (seconds: number) => {
  const res = await t.http('POST', '/-/emulator/clock', { token: ROOT, json: { action: 'advance', seconds } })
  expect(res.status).toBe(200)
}
const fileTypes = (j: Json) => (j.artifacts as Json[]).map((a) => a.file_type)
const keepLatest = (on: boolean) => t.http('PUT', APP, { token: MARK, json: { keep_latest_artifact: on } })

describe('artifacts that expire', () => {
  it("keeps the latest successful pipeline's artifacts past expire_in, and destroys them once a newer one succeeds", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('1 hour') })
    const first = await run()
    await advance(2 * HOUR)
    // Locked: the files stay, but the job shows them expired (`artifacts?` is false).
    const expired = await job(first.id)
    expect(expired.artifacts_file).toBeUndefined()
    expect(fileTypes(expired)).toEqual(['archive', 'trace'])
    expect(expired.artifacts_expire_at).toBe(first.artifacts_expire_at)
    expect([await archive(first.id), await file(first.id)]).toEqual([200, 200])
    const keep = await t.http('POST', `${APP}/jobs/${first.id as number}/artifacts/keep`, { token: MARK })
    // `artifacts?` asks the expiry alone, lock or not: `not_found!(build)`.
    const hex = (first.id as number).toString(16).padStart(16, '0')
    expect([keep.status, keep.body]).toEqual([404, { message: `404 #<Ci::Build:0x${hex}> Not Found` }])

    // A newer successful pipeline of the ref unlocks the older one: the next clock move destroys its archive.
    const second = await run()
    expect(await archive(first.id)).toBe(200)
    await advance(60)
    const gone = await job(first.id)
    expect(gone.artifacts_file).toBeUndefined()
    expect(fileTypes(gone)).toEqual(['trace'])
    expect(gone.artifacts_expire_at).toBe(first.artifacts_expire_at)
    const download = await t.http('GET', `${APP}/jobs/${first.id as number}/artifacts`, { token: MARK })
    expect([download.status, download.body]).toEqual([404, { message: '404 Not Found' }])
    expect(await file(first.id)).toBe(404)
    expect((await t.http('GET', `${APP}/jobs/${first.id as number}/trace`, { token: MARK })).status).toBe(200)

    // The newer one is the latest now: locked past its own expiry.
    await advance(2 * HOUR)
    expect([await archive(second.id), await file(second.id)]).toEqual([200, 200])
    const byRef = await t.http('GET', `${APP}/jobs/artifacts/ci/raw/out.txt`, {
      token: MARK,
      query: 'job=build',
    })
    expect([byRef.status, byRef.text]).toEqual([200, 'hi\n'])
  })

  it('destroys them on the first clock move past expire_at when the project keeps no latest artifacts', async () => {
    const off = await keepLatest(false)
    expect([off.status, (off.body as Json).keep_latest_artifact]).toEqual([200, false])
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('1 hour') })
    const build = await run()
    await advance(HOUR - 60)
    expect(await archive(build.id)).toBe(200)
    await advance(2 * 60)
    expect([await archive(build.id), await file(build.id)]).toEqual([404, 404])
    expect(fileTypes(await job(build.id))).toEqual(['trace'])
  })

  it('never expires `expire_in: never`, nor artifacts kept', async () => {
    await keepLatest(false)
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('never') })
    const never = await run()
    expect(never.artifacts_expire_at).toBeNull()
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('1 hour') })
    const kept = await run()
    // Developers keep (`update_build`), guests may not.
    const refused = await t.http('POST', `${APP}/jobs/${kept.id as number}/artifacts/keep`, { token: GUS })
    expect(refused.status).toBe(403)
    const res = await t.http('POST', `${APP}/jobs/${kept.id as number}/artifacts/keep`, { token: DANA })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: kept.id,
      artifacts_expire_at: null,
      artifacts_file: { filename: 'artifacts.zip' },
    })
    await advance(400 * 24 * HOUR)
    expect([await archive(never.id), await archive(kept.id)]).toEqual([200, 200])
  })
})

describe('child pipelines', () => {
  it('are locked as any pipeline, kept with the latest, and unlocked with the older ones of their ref', async () => {
    // `Chain::Seed` gives a child the parent's `ci_ref`; `before_pipeline` leaves the new pipeline's family
    // locked and unlocks every older pipeline of the ref, children too. A child's own success moves no
    // ref (`last_finished_for_ref_id` counts `ci_sources` only).
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `${config('1 hour')}child:\n  stage: test\n  trigger: { include: ci/child.yml, strategy: depend }\n`,
      'ci/child.yml': `made:\n  script: [echo c > c.txt]\n  artifacts: { paths: [c.txt], expire_in: 1 hour }\n`,
    })
    /** The `made` job of the newest child pipeline. */
    const childJob = async () => {
      const [child] = (
        await t.http('GET', `${APP}/pipelines`, { token: MARK, query: 'source=parent_pipeline' })
      ).body as Json[]
      const jobs = (await t.http('GET', `${APP}/pipelines/${child!.id as number}/jobs`, { token: MARK }))
        .body as Json[]
      return jobs.find((j) => j.name === 'made') as Json
    }
    await run()
    const first = await childJob()
    expect(first).toMatchObject({ status: 'success', artifacts_file: { filename: 'artifacts.zip' } })
    await advance(2 * HOUR)
    expect(await archive(first.id)).toBe(200)
    await run()
    const second = await childJob()
    expect(second.id).not.toBe(first.id)
    await advance(2 * HOUR)
    expect([await archive(first.id), await archive(second.id)]).toEqual([404, 200])
  })
})

describe('deleting artifacts', () => {
  it('DELETE .../jobs/:job_id/artifacts: Maintainers, locked or not, 204 for a job without any', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('1 week') })
    const build = await run()
    const url = `${APP}/jobs/${build.id as number}/artifacts`
    expect((await t.http('DELETE', url)).status).toBe(401)
    const refused = await t.http('DELETE', url, { token: DANA })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await t.http('DELETE', `${APP}/jobs/999999/artifacts`, { token: MARK })).status).toBe(404)
    expect(await archive(build.id)).toBe(200)

    const res = await t.http('DELETE', url, { token: MARK })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await archive(build.id)).toBe(404)
    const after = await job(build.id)
    expect(fileTypes(after)).toEqual(['trace'])
    expect(after.artifacts_expire_at).toBe(build.artifacts_expire_at)
    expect((await t.http('DELETE', url, { token: MARK })).status).toBe(204)
    const keep = await t.http('POST', `${url}/keep`, { token: MARK })
    expect(keep.status).toBe(404)
  })

  it("DELETE /projects/:id/artifacts: 202, every job's artifacts but a locked pipeline's", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('1 week') })
    const older = await run()
    const latest = await run()
    const refused = await t.http('DELETE', `${APP}/artifacts`, { token: DANA })
    expect(refused.status).toBe(403)
    expect(await archive(older.id)).toBe(200)
    const res = await t.http('DELETE', `${APP}/artifacts`, { token: MARK })
    expect([res.status, res.body]).toEqual([202, { message: '202 Accepted' }])
    expect([await archive(older.id), await archive(latest.id)]).toEqual([404, 200])
    // An outsider learns nothing of a private project.
    const hidden = await t.http('DELETE', `${APP}/artifacts`, { token: 'glpat-otto-token' })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

describe('keep_latest_artifact', () => {
  it('is on by default, shown to Maintainers only, and set by PUT /projects/:id', async () => {
    expect(((await t.http('GET', APP, { token: MARK })).body as Json).keep_latest_artifact).toBe(true)
    expect((await t.http('GET', APP, { token: DANA })).body).not.toHaveProperty('keep_latest_artifact')
    expect((await keepLatest(false)).status).toBe(200)
    expect(((await t.http('GET', APP, { token: ROOT })).body as Json).keep_latest_artifact).toBe(false)
    const bad = await t.http('PUT', APP, { token: MARK, json: { keep_latest_artifact: 'maybe' } })
    expect([bad.status, bad.body]).toEqual([400, { error: 'keep_latest_artifact is invalid' }])
    expect((await t.http('PUT', APP, { token: DANA, json: { keep_latest_artifact: true } })).status).toBe(403)
    expect(((await t.http('GET', APP, { token: MARK })).body as Json).keep_latest_artifact).toBe(false)
    // A reset puts the seed's setting back.
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect(((await t.http('GET', APP, { token: MARK })).body as Json).keep_latest_artifact).toBe(true)
  })
})

describe('snapshots', () => {
  // In memory (a savepoint) and with a data directory (the undo log and the snapshot's copy).
  let dir: string | undefined
  afterEach(async () => {
    if (t !== each) await t.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })
  it.each([false, true])(
    'a restore brings back the artifacts an expiry destroyed (data directory: %s)',
    async (onDisk) => {
      if (onDisk) {
        dir = mkdtempSync(join(tmpdir(), 'gla-artifacts-'))
        t = await startServer(pipelineSeed, { data: dir, clock: (clock = manualClock()) })
      }
      await keepLatest(false)
      await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config('1 hour') })
      const build = await run()
      const zip = (await t.http('GET', `${APP}/jobs/${build.id as number}/artifacts`, { token: MARK })).text
      expect((await t.http('POST', '/-/emulator/snapshots/built', { token: ROOT })).status).toBe(201)
      await advance(2 * HOUR)
      expect(await archive(build.id)).toBe(404)
      expect((await t.http('POST', '/-/emulator/snapshots/built/restore', { token: ROOT })).status).toBe(200)
      const back = await t.http('GET', `${APP}/jobs/${build.id as number}/artifacts`, { token: MARK })
      expect([back.status, back.text]).toEqual([200, zip])
      // Past its expire_at still (the clock is not restored): listed, but shown expired until the next move.
      expect(fileTypes(await job(build.id))).toEqual(['archive', 'trace'])
    },
  )
})
