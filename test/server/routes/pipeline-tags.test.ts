import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { DatabaseSync } from 'node:sqlite'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Branches and tags (lib/gitlab/ci/pipeline/chain/build.rb: `tag: @command.tag_exists?`;
 * lib/gitlab/ci/pipeline/chain/validate/repository.rb: a short name that is both is
 * `Ref is ambiguous`; app/finders/ci/pipelines_finder.rb: scope=branches|tags by ref names).
 */
const TOKEN = `glptt-${'ef56'.repeat(10)}`
const MARK = 'glpat-mark-token'
const OWEN = 'glpat-owen-token'
const P = '/api/v4/projects/acme%2Fapp'
const seed = `
users:
  - { username: mark, token: ${MARK} }
  - { username: owen, token: ${OWEN} }
groups:
  - { path: acme, visibility: private, members: { mark: maintainer, owen: owner } }
projects:
  - path: acme/app
    branches: [develop, release]
    refs: [legacy]
    tags: [v1.0, v2.0, release]
    triggers: [ { description: ci, owner: mark, token: ${TOKEN} } ]
`
type Json = Record<string, unknown>

let t: TestServer
afterEach(() => t.close())

const trigger = (ref: string) =>
  t.http('POST', `${P}/trigger/pipeline`, { form: `token=${TOKEN}&ref=${encodeURIComponent(ref)}` })
const pipelineCount = () =>
  inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM pipelines').pluck().get() as number

describe('pipelines on branches and tags', () => {
  beforeEach(async () => {
    t = await startServer(seed, { clock: manualClock() })
  })

  it('a pipeline on a tag reports tag: true, in the answer and when read back', async () => {
    const res = await trigger('v1.0')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ ref: 'v1.0', tag: true })
    const read = await t.http('GET', `${P}/pipelines/${(res.body as Json).id}`, { token: MARK })
    expect(read.body).toMatchObject({ ref: 'v1.0', tag: true })
  })

  it.each(['main', 'develop', 'legacy'])('a pipeline on the branch %s reports tag: false', async (ref) => {
    const res = await trigger(ref)
    expect([res.status, (res.body as Json).ref, (res.body as Json).tag]).toEqual([201, ref, false])
  })

  it('refuses a short name that is both a branch and a tag, and creates nothing', async () => {
    const res = await trigger('release')
    expect([res.status, res.body]).toEqual([400, { message: { base: ['Ref is ambiguous'] } }])
    expect(pipelineCount()).toBe(0)
  })

  it("checks an ambiguous name's branch protection before answering that it is ambiguous", async () => {
    // `Chain::Validate::Abilities` runs before `Validate::Repository`: `branch_exists?` holds for the
    // short name, so `can_update_branch?` is asked first (lib/gitlab/ci/pipeline/chain/command.rb).
    const guarded = await t.http('POST', `${P}/protected_branches`, {
      token: MARK,
      json: { name: 'release', push_access_level: 0, merge_access_level: 0 },
    })
    expect(guarded.status).toBe(201)
    const refusal = {
      message: {
        base: [
          "You do not have sufficient permission to run a pipeline on 'release'. Please select a different branch or contact your administrator for assistance.",
        ],
      },
    }
    const viaTrigger = await trigger('release')
    expect([viaTrigger.status, viaTrigger.body]).toEqual([400, refusal])
    const viaApi = await t.http('POST', `${P}/pipeline`, { token: MARK, query: 'ref=release' })
    expect([viaApi.status, viaApi.body]).toEqual([400, refusal])
    // The tag of the name is not the branch: its full name creates the pipeline.
    expect((await trigger('refs/tags/release')).status).toBe(201)
    expect(pipelineCount()).toBe(1)
  })

  it('takes the full name of either, recording the short name', async () => {
    const tag = await trigger('refs/tags/release')
    expect([tag.status, tag.body]).toMatchObject([201, { ref: 'release', tag: true }])
    const branch = await trigger('refs/heads/release')
    expect([branch.status, branch.body]).toMatchObject([201, { ref: 'release', tag: false }])
    const wrongKind = await trigger('refs/tags/develop')
    expect([wrongKind.status, wrongKind.body]).toEqual([400, { message: { base: ['Reference not found'] } }])
  })

  it('scope=tags and scope=branches list the latest pipeline of each tag or branch name', async () => {
    const ids: Record<string, number> = {}
    for (const ref of ['v1.0', 'v1.0', 'v2.0', 'develop', 'develop', 'main'])
      ids[ref] = ((await trigger(ref)).body as Json).id as number
    const scoped = async (scope: string) =>
      ((await t.http('GET', `${P}/pipelines`, { token: MARK, query: `scope=${scope}` })).body as Json[]).map(
        (p) => [p.ref, p.id],
      )
    expect(await scoped('tags')).toEqual([
      ['v2.0', ids['v2.0']],
      ['v1.0', ids['v1.0']],
    ])
    expect(await scoped('branches')).toEqual([
      ['main', ids.main],
      ['develop', ids.develop],
    ])
  })

  it('an archived project refuses to cancel or retry a tag pipeline and to create a tag (403)', async () => {
    // ProjectPolicy: archived prevents `push_code`, so `admin_tag` and a protected tag's role level
    // (`role_access_allowed?`) fail: `can_create_tag?` is false, the pipeline's ref `protected_ref`.
    const guarded = await t.http('POST', `${P}/protected_tags`, { token: MARK, json: { name: 'v2.*' } })
    expect(guarded.status).toBe(201)
    const ids = [] as number[]
    for (const ref of ['v1.0', 'v2.0']) ids.push(((await trigger(ref)).body as Json).id as number)
    const post = (path: string, json?: Json) => t.http('POST', `${P}${path}`, { token: MARK, json })
    const owner = (path: string) => t.http('POST', `${P}${path}`, { token: OWEN })
    expect((await owner('/archive')).status).toBe(201)
    const refused = [
      ...ids.flatMap((id) => [post(`/pipelines/${id}/cancel`), post(`/pipelines/${id}/retry`)]),
      post('/repository/tags', { tag_name: 'v3.0', ref: 'main' }),
    ]
    expect((await Promise.all(refused)).map((r) => [r.status, r.body])).toEqual(
      Array.from({ length: 5 }, () => [403, { message: '403 Forbidden' }]),
    )
    const statuses = inspectDb(t.server.store).prepare('SELECT DISTINCT status FROM pipelines').pluck().all()
    expect(statuses).not.toContain('canceled')
    // Unarchived, the maintainer cancels both.
    expect((await owner('/unarchive')).status).toBe(201)
    for (const id of ids) expect((await post(`/pipelines/${id}/cancel`)).body).toMatchObject({ id })
  })
})

describe('a store from before branches and tags', () => {
  it('keeps its refs as branches (migration 8)', async () => {
    const data = mkdtempSync(join(tmpdir(), 'gla-refs-'))
    try {
      t = await startServer(seed, { data })
      await t.close()
      // Back to the table of migration 1: one kind of ref, named once per project; and before
      // migration 9's column, so that it applies again.
      const db = new DatabaseSync(join(data, 'gitlab.sqlite3'))
      db.exec(`
        ALTER TABLE issues DROP COLUMN duplicated_to_id;
        CREATE TABLE old_refs (project_id INTEGER NOT NULL, name TEXT NOT NULL, sha TEXT NOT NULL,
          PRIMARY KEY (project_id, name));
        INSERT OR IGNORE INTO old_refs SELECT project_id, name, sha FROM project_refs;
        DROP TABLE project_refs;
        ALTER TABLE old_refs RENAME TO project_refs;
        PRAGMA user_version = 7;`)
      db.close()
      t = await startServer(seed, { data })
      const kinds = inspectDb(t.server.store).prepare('SELECT DISTINCT kind FROM project_refs').pluck().all()
      expect(kinds).toEqual(['branch'])
      expect((await trigger('v1.0')).body).toMatchObject({ ref: 'v1.0', tag: false })
    } finally {
      rmSync(data, { recursive: true, force: true })
    }
  })
})
