import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const OLGA = 'glpat-olga-token' // owner of acme
const MARK = 'glpat-mark-token' // maintainer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // outsider
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

const seed = pipelineSeed
  .replace(
    '  - { username: mark,',
    '  - { username: olga, name: Olga Owner, token: glpat-olga-token }\n  - { username: mark,',
  )
  .replace('members: { mark: maintainer,', 'members: { olga: owner, mark: maintainer,')
let clock: ReturnType<typeof manualClock>
const t = serverEach(seed, () => ({ clock: (clock = manualClock()) }))

const trigger = async (ref = 'main') => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=${ref}&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
const remove = (id: number, token?: string, project = APP) =>
  t.http('DELETE', `${project}/pipelines/${id}`, { token })
/** Rows that hang off a pipeline, by table. */
const rowsOf = (pipelineId: number) => {
  const db = inspectDb(t.server.store)
  const count = (sql: string) => db.prepare(sql).pluck().get(pipelineId) as number
  const builds = 'SELECT id FROM ci_builds WHERE pipeline_id = ?'
  return {
    pipelines: count('SELECT COUNT(*) FROM pipelines WHERE id = ?'),
    builds: count('SELECT COUNT(*) FROM ci_builds WHERE pipeline_id = ?'),
    variables: count('SELECT COUNT(*) FROM pipeline_variables WHERE pipeline_id = ?'),
    processables: count('SELECT COUNT(*) FROM ci_processables WHERE pipeline_id = ?'),
    traces: count(`SELECT COUNT(*) FROM ci_job_traces WHERE build_id IN (${builds})`),
    artifacts: count(`SELECT COUNT(*) FROM ci_job_artifacts WHERE build_id IN (${builds})`),
  }
}

describe('DELETE /projects/:id/pipelines/:pipeline_id', () => {
  it('answers 412 when the pipeline changed after If-Unmodified-Since (after the 403), and deletes nothing', async () => {
    const id = await trigger()
    clock.advance(60_000)
    const pipeline = (await t.http('GET', `${APP}/pipelines/${id}`, { token: ROOT })).body as Json
    const updated = Date.parse(pipeline.updated_at as string)
    expect(updated).toBeGreaterThan(Date.parse(pipeline.created_at as string))
    const since = (ms: number) => ({ 'if-unmodified-since': new Date(ms).toUTCString() })
    const early = since(updated - 1000)
    const denied = await t.http('DELETE', `${APP}/pipelines/${id}`, { token: MARK, headers: early })
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }])
    const stale = await t.http('DELETE', `${APP}/pipelines/${id}`, { token: OLGA, headers: early })
    expect([stale.status, stale.body]).toEqual([412, { message: '412 Precondition Failed' }])
    expect(rowsOf(id).pipelines).toBe(1)
    // A header that is no time checks nothing; a time not before the last change lets it go.
    const fresh = await t.http('DELETE', `${APP}/pipelines/${id}`, {
      token: OLGA,
      headers: since(updated + 1000),
    })
    expect([fresh.status, fresh.text]).toEqual([204, ''])
    const other = await trigger()
    const junk = await t.http('DELETE', `${APP}/pipelines/${other}`, {
      token: OLGA,
      headers: { 'if-unmodified-since': 'not a date' },
    })
    expect(junk.status).toBe(204)
  })

  it('is the Owner’s and administrators’ (204): the pipeline and its jobs then 404 and leave the lists', async () => {
    const id = await trigger()
    const other = await trigger()
    const [job] = (await t.http('GET', `${APP}/pipelines/${id}/jobs`, { token: MARK })).body as Json[]
    const res = await remove(id, OLGA)
    expect([res.status, res.text]).toEqual([204, ''])
    for (const path of [`pipelines/${id}`, `pipelines/${id}/jobs`, `jobs/${job!.id as number}`]) {
      const gone = await t.http('GET', `${APP}/${path}`, { token: ROOT })
      expect([path, gone.status, gone.body]).toEqual([path, 404, { message: '404 Not found' }])
    }
    const listed = (await t.http('GET', `${APP}/pipelines`, { token: ROOT })).body as Json[]
    expect(listed.map((p) => p.id)).toEqual([other])
    const jobs = (await t.http('GET', `${APP}/jobs`, { token: ROOT })).body as Json[]
    expect(jobs.map((j) => j.pipeline)).not.toContainEqual(expect.objectContaining({ id }))
    expect((await remove(other, ROOT)).status).toBe(204)
    expect((await remove(other, ROOT)).status).toBe(404)
  })

  it('refuses a Maintainer and an archived project (403), anonymous callers (401); 404 for hidden projects and unknown pipelines; nothing changes', async () => {
    const id = await trigger()
    const before = rowsOf(id)
    const cases: [string | undefined, number, Json][] = [
      [MARK, 403, { message: '403 Forbidden' }],
      [GUS, 403, { message: '403 Forbidden' }],
      [undefined, 401, { message: '401 Unauthorized' }],
      [OTTO, 404, { message: '404 Project Not Found' }],
    ]
    for (const [token, status, body] of cases) {
      const res = await remove(id, token)
      expect([token, res.status, res.body]).toEqual([token, status, body])
    }
    const missing = await remove(999, OLGA)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    // A pipeline of another project is unknown here.
    const elsewhere = await remove(id, OLGA, '/api/v4/projects/acme%2Fother')
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { message: '404 Not found' }])
    // In an archived project the pipelines are read-only, for the Owner too (`ArchivedAbilities`).
    expect((await t.http('POST', `${APP}/archive`, { token: ROOT })).status).toBe(201)
    const archived = await remove(id, OLGA)
    expect([archived.status, archived.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(rowsOf(id)).toEqual(before)
  })

  it('takes its jobs, bridges, traces, artifacts and variables; a running child pipeline is canceled and stays', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
build:
  stage: build
  script: [echo hi > out.txt]
  artifacts: { paths: [out.txt] }
child:
  stage: test
  trigger: { include: ci/child.yml }
`,
      'ci/child.yml': 'child-job:\n  script: echo child\n',
    })
    const res = await t.http('POST', `${APP}/trigger/pipeline`, {
      form: `ref=ci&token=${MARK_TRIGGER}&variables[GREETING]=hello`,
    })
    const parent = (res.body as Json).id as number
    for (let i = 0; i < 8; i++) {
      clock.advance(500)
      await t.http('GET', `${APP}/pipelines`, { token: MARK })
    }
    const children = (
      await t.http('GET', `${APP}/pipelines`, { token: MARK, query: 'source=parent_pipeline' })
    ).body as Json[]
    const child = children[0]!.id as number
    expect(children[0]).toMatchObject({ status: 'running' })
    const before = rowsOf(parent)
    expect(before).toEqual({
      pipelines: 1,
      builds: 2,
      variables: 2,
      processables: 2,
      traces: 1,
      artifacts: 1,
    })
    expect((await remove(parent, OLGA)).status).toBe(204)
    expect(rowsOf(parent)).toEqual({
      pipelines: 0,
      builds: 0,
      variables: 0,
      processables: 0,
      traces: 0,
      artifacts: 0,
    })
    const kept = (await t.http('GET', `${APP}/pipelines/${child}`, { token: MARK })).body as Json
    expect(kept).toMatchObject({ id: child, status: 'canceled', source: 'parent_pipeline' })
    expect(t.server.store.pipelines.byId(child)).toMatchObject({ upstream_pipeline_id: null })
  })
})
