import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { startServer, type TestServer } from '../../support/server.js'
import { exportSettled, imported } from '../../support/imports.js'

/*
 * `public_jobs` ("Project-based pipeline visibility", `public_builds` in GitLab's model): accepted by
 * `POST` and `PUT /projects` with its deprecated name `public_builds` (lib/api/helpers/projects_helpers.rb),
 * shown by the Project entity (`expose :public_builds, as: :public_jobs`), and kept by resets, snapshots,
 * a `--data` restart, export and import. What it changes for readers: test/reliability/access-matrix.test.ts.
 */

const ROOT = 'glpat-root-token'
const MAY = 'glpat-may-token' // maintainer
const DEV = 'glpat-dev-token' // developer
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: may, token: ${MAY} }
  - { username: dev, token: ${DEV} }
groups:
  - { path: acme, visibility: public, members: { may: maintainer, dev: developer } }
  - { path: vault, visibility: private }
projects:
  - { path: acme/widgets, visibility: public }
  - { path: vault/open, visibility: public }
  - { path: acme/closed, visibility: public, public_jobs: false }
`
const W = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

let t: TestServer
let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'public-jobs-'))
})
afterEach(async () => {
  await t?.close()
  rmSync(tmp, { recursive: true, force: true })
})
const publicJobs = async (path = W) =>
  ((await t.http('GET', path, { token: ROOT })).body as Json).public_jobs as boolean
const put = (json: Json, token = MAY) => t.http('PUT', W, { token, json })

describe('public_jobs on the projects API', () => {
  beforeEach(async () => {
    t = await startServer(seed)
  })

  it('defaults to true, after import_status and before shared_with_groups, to any reader of the entity', async () => {
    // Anonymous callers get BasicProjectDetails, which has no such field (lib/api/projects.rb).
    const read = (await t.http('GET', W, { token: DEV })).body as Json
    expect(read.public_jobs).toBe(true)
    const keys = Object.keys(read)
    expect(keys.slice(keys.indexOf('import_status'), keys.indexOf('import_status') + 3)).toEqual([
      'import_status',
      'public_jobs',
      'shared_with_groups',
    ])
    const made = await t.http('POST', '/api/v4/projects', { token: MAY, json: { name: 'Fresh' } })
    expect([made.status, (made.body as Json).public_jobs]).toEqual([201, true])
  })

  it('POST takes public_jobs, or its deprecated name public_builds; public_jobs wins when both come', async () => {
    const acme = ((await t.http('GET', '/api/v4/groups/acme', { token: ROOT })).body as Json).id
    const make = async (json: Json) => {
      const res = await t.http('POST', '/api/v4/projects', {
        token: MAY,
        json: { namespace_id: acme, ...json },
      })
      expect(res.status).toBe(201)
      return (res.body as Json).public_jobs
    }
    expect(await make({ name: 'a', public_jobs: false })).toBe(false)
    expect(await make({ name: 'b', public_builds: 'false' })).toBe(false)
    expect(await make({ name: 'c', public_builds: false, public_jobs: true })).toBe(true)
    expect(await make({ name: 'd', public_builds: true, public_jobs: false })).toBe(false)
    const bad = await t.http('POST', '/api/v4/projects', {
      token: MAY,
      json: { name: 'e', namespace_id: acme, public_jobs: 'maybe' },
    })
    expect([bad.status, bad.body]).toEqual([400, { error: 'public_jobs is invalid' }])
  })

  it('PUT sets it for a Maintainer, alone or by public_builds; a Developer is refused and nothing changes', async () => {
    const off = await put({ public_jobs: false })
    expect([off.status, (off.body as Json).public_jobs]).toEqual([200, false])
    expect(await publicJobs()).toBe(false)
    const refused = await put({ public_jobs: true }, DEV)
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await publicJobs()).toBe(false)
    // Another attribute leaves it as it was.
    expect((await put({ description: 'x' })).status).toBe(200)
    expect(await publicJobs()).toBe(false)
    expect(((await put({ public_builds: true })).body as Json).public_jobs).toBe(true)
  })

  it('PUT checks the visibility against the group only when it changes (should_validate_visibility_level?)', async () => {
    // A seeded public project in a private group (a group made private after its project): editing it works.
    const V = '/api/v4/projects/vault%2Fopen'
    for (const json of [{ public_jobs: false }, { visibility: 'public' }]) {
      const res = await t.http('PUT', V, { token: ROOT, json })
      expect(res.status).toBe(200)
    }
    const changed = await t.http('PUT', V, { token: ROOT, json: { visibility: 'internal' } })
    expect([changed.status, changed.body]).toEqual([
      400,
      { message: { visibility_level: ['internal is not allowed in a private group.'] } },
    ])
  })

  it('a seed sets it with public_jobs: false, and a reset keeps the seed', async () => {
    const C = '/api/v4/projects/acme%2Fclosed'
    expect(await publicJobs(C)).toBe(false)
    const refused = await t.http('GET', `${C}/pipelines`)
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await t.http('GET', `${C}/pipelines`, { token: ROOT })).status).toBe(200)
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect(await publicJobs(C)).toBe(false)
  })

  it('a reset returns to the seed; a snapshot keeps the value it saw', async () => {
    expect((await put({ public_jobs: false })).status).toBe(200)
    expect((await t.http('POST', '/-/emulator/snapshots/off', { token: ROOT })).status).toBe(201)
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect(await publicJobs()).toBe(true)
    expect((await t.http('POST', '/-/emulator/snapshots/off/restore', { token: ROOT })).status).toBe(200)
    expect(await publicJobs()).toBe(false)
  })
})

it('--data keeps it across a restart', async () => {
  t = await startServer(seed, { data: tmp })
  expect((await put({ public_jobs: false })).status).toBe(200)
  await t.close()
  t = await startServer(seed, { data: tmp })
  expect(await publicJobs()).toBe(false)
})

it("export writes it as project.json's public_builds, and import restores it (true when absent)", async () => {
  t = await startServer(seed)
  expect((await put({ public_jobs: false })).status).toBe(200)
  expect((await t.http('POST', `${W}/export`, { token: ROOT })).status).toBe(202)
  expect(await exportSettled(t, W, ROOT)).toMatchObject({ export_status: 'finished' })
  const dl = await request(`${t.baseUrl}${W}/export/download`, { headers: { 'private-token': ROOT } })
  const archive = join(tmp, 'export.tar.gz')
  writeFileSync(archive, Buffer.from(await dl.body.arrayBuffer()))
  const tree = join(tmp, 'tree')
  execFileSync('mkdir', ['-p', tree])
  execFileSync('tar', ['-xzf', archive, '-C', tree])
  const projectJson = JSON.parse(readFileSync(join(tree, 'tree', 'project.json'), 'utf8')) as Json
  expect(projectJson.public_builds).toBe(false)

  const copy = await imported(t, archive, { path: 'copy', namespace: 'acme' }, ROOT)
  expect(copy.import_status).toBe('finished')
  expect(await publicJobs('/api/v4/projects/acme%2Fcopy')).toBe(false)

  // An archive without the attribute gives GitLab's default.
  delete projectJson.public_builds
  writeFileSync(join(tree, 'tree', 'project.json'), JSON.stringify(projectJson))
  const without = join(tmp, 'without.tar.gz')
  execFileSync('tar', ['-czf', without, '-C', tree, '.'])
  expect((await imported(t, without, { path: 'copy2', namespace: 'acme' }, ROOT)).import_status).toBe(
    'finished',
  )
  expect(await publicJobs('/api/v4/projects/acme%2Fcopy2')).toBe(true)
})

describe("a commit's last_pipeline", () => {
  it('is shown only to those who may read the pipeline (Entities::CommitDetail#can_read_pipeline?)', async () => {
    t = await startServer(`
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: dev, token: ${DEV} }
  - { username: eve, token: glpat-eve-token }
groups:
  - { path: acme, visibility: public, members: { dev: developer } }
projects:
  - path: acme/built
    visibility: public
    public_jobs: false
    files: { .gitlab-ci.yml: "build:\\n  script: [make]\\n" }
`)
    const B = '/api/v4/projects/acme%2Fbuilt'
    const made = await t.http('POST', `${B}/pipeline`, { token: ROOT, json: { ref: 'main' } })
    expect(made.status).toBe(201)
    const pipeline = made.body as Json
    const commit = async (token: string) =>
      (await t.http('GET', `${B}/repository/commits/${String(pipeline.sha)}`, { token })).body as Json
    // A developer reads the pipeline; a signed-in non-member of the public project sees the commit
    // and its status, but no pipeline while public_jobs is off (Ci::PipelinePolicy asks read_build).
    expect(await commit(DEV)).toMatchObject({ status: pipeline.status, last_pipeline: { id: pipeline.id } })
    expect(await commit('glpat-eve-token')).toMatchObject({ status: pipeline.status, last_pipeline: null })
    expect((await t.http('PUT', B, { token: ROOT, json: { public_jobs: true } })).status).toBe(200)
    expect(await commit('glpat-eve-token')).toMatchObject({ last_pipeline: { id: pipeline.id } })
  })
})
