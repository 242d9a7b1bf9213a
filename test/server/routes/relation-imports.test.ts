import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { createClient } from '../../../src/api/client.js'
import { GitLabApiError } from '../../../src/api/errors.js'
import { dripServer } from '../../support/drip-server.js'
import { exportSettled, importFile, settled, tgz } from '../../support/imports.js'
import { failIssuesDuringImport } from '../../support/relation-faults.js'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // maintainer of group acme
const BOB = 'glpat-bob-token' // developer of acme/widgets only
const CAROL = 'glpat-carol-token' // no membership
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

let t: TestServer
let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'relation-import-'))
})
afterEach(async () => {
  await t?.close()
  rmSync(tmp, { recursive: true, force: true })
})

/** widgets exported by the server itself, written to `<tmp>/export.tar.gz`. */
async function exportWidgets(): Promise<string> {
  await t.http('POST', `${P}/export`, { token: ROOT })
  await exportSettled(t, P, ROOT)
  const dl = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
  const archive = join(tmp, 'export.tar.gz')
  writeFileSync(archive, Buffer.from(await dl.body.arrayBuffer()))
  return archive
}

/** `POST /projects/import-relation` with `file` uploaded (importFile's multipart, another URL). */
async function importRelation(
  file: string,
  fields: Record<string, string>,
  token = ROOT,
  filename = 'x.tar.gz',
) {
  const { FormData } = await import('undici')
  const { openAsBlob } = await import('node:fs')
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('file', await openAsBlob(file), filename)
  const res = await request(`${t.baseUrl}/api/v4/projects/import-relation`, {
    method: 'POST',
    headers: token ? { 'private-token': token } : {},
    body: form,
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Json) : undefined }
}

const trackers = async (project: string, token = ROOT) =>
  (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/relation-imports`, { token }))
    .body as Json[]

/** Polls the project's trackers until `id` is finished or failed. */
async function trackerSettled(project: string, id: unknown): Promise<Json> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const found = (await trackers(project)).find((r) => r.id === id)
    if (found && (found.status === 'finished' || found.status === 'failed')) return found
    if (Date.now() > deadline)
      throw new Error(`tracker ${String(id)} did not settle: ${JSON.stringify(found)}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('POST /projects/import-relation: a relation that failed, re-imported', () => {
  it('imports the issues that failed in the import, skips what the project holds, and records a tracker', async () => {
    const data = join(tmp, 'data')
    t = await startServer(widgetsSeed, { data })
    const archive = await exportWidgets()
    const sourceIssues = (await t.http('GET', `${P}/issues`, { token: ROOT, query: 'per_page=100' }))
      .body as Json[]
    expect(sourceIssues.length).toBeGreaterThan(1)

    const fault = failIssuesDuringImport(data)
    let copyId: unknown
    try {
      const res = await importFile(t, archive, { path: 'widgets-copy', namespace: 'acme' }, ROOT)
      expect(res.status).toBe(201)
      copyId = res.body!.id
      const done = await settled(t, copyId, ROOT)
      expect(done.import_status).toBe('finished')
      const failed = done.failed_relations as Json[]
      expect(failed.map((f) => f.relation_name)).toEqual(sourceIssues.map(() => 'issues'))
      expect(failed[0]).toMatchObject({ exception_class: 'StandardError', source: 'process_relation_item!' })
    } finally {
      fault.remove()
    }
    const copy = '/api/v4/projects/acme%2Fwidgets-copy'
    expect((await t.http('GET', `${copy}/issues`, { token: ROOT })).body).toEqual([])

    const members = async () =>
      ((await t.http('GET', `${copy}/members`, { token: ROOT })).body as Json[]).map((m) => [
        m.username,
        m.access_level,
      ])
    const membersBefore = await members()
    expect(membersBefore).toEqual([
      ['root', 40],
      ['alice', 40],
      ['bob', 30],
    ])
    const res = await importRelation(archive, { path: 'acme/widgets-copy', relation: 'issues' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(Number),
      project_path: 'acme/widgets-copy',
      relation: 'issues',
      status: 'created',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    })
    expect(Object.keys(res.body!)).toEqual([
      'id',
      'project_path',
      'relation',
      'status',
      'created_at',
      'updated_at',
    ])
    expect(await trackerSettled('acme/widgets-copy', res.body!.id)).toMatchObject({ status: 'finished' })

    const titles = (list: Json[]) => list.map((i) => [i.iid, i.title]).sort()
    const restored = (await t.http('GET', `${copy}/issues`, { token: ROOT, query: 'per_page=100' }))
      .body as Json[]
    expect(titles(restored)).toEqual(titles(sourceIssues))
    // The project's import keeps its own record: the re-import's work is the tracker's.
    const status = (await t.http('GET', `${copy}/import`, { token: ROOT })).body as Json
    expect((status.failed_relations as Json[]).length).toBe(sourceIssues.length)

    // Again: every issue is present already, so each line is skipped (no failure, no copy).
    const again = await importRelation(archive, { path: 'acme/widgets-copy', relation: 'issues' })
    expect(again.status).toBe(201)
    expect(await trackerSettled('acme/widgets-copy', again.body!.id)).toMatchObject({ status: 'finished' })
    const twice = (await t.http('GET', `${copy}/issues`, { token: ROOT, query: 'per_page=100' }))
      .body as Json[]
    expect(titles(twice)).toEqual(titles(sourceIssues))
    expect((await trackers('acme/widgets-copy')).map((r) => [r.relation, r.status])).toEqual([
      ['issues', 'finished'],
      ['issues', 'finished'],
    ])
    // The re-imports added no membership and changed none (the import mapped root's and alice's and bob's).
    expect(await members()).toEqual(membersBefore)

    // The reset takes the trackers with the projects made through the API.
    await t.server.reset()
    expect(t.server.store.relationImports.byProject(Number(copyId))).toEqual([])
  })

  it('marks the tracker failed when the archive is not a GitLab export, and the typed client reads it', async () => {
    t = await startServer(widgetsSeed)
    const dir = mkdtempSync(join(tmp, 'tree-'))
    writeFileSync(join(dir, 'VERSION'), '9.9.9\n')
    const client = createClient({ baseUrl: t.baseUrl, token: ALICE })
    const started = await client.projectImports.importRelation(tgz(dir, tmp), {
      path: 'acme/widgets',
      relation: 'milestones',
    })
    expect(started).toMatchObject({ project_path: 'acme/widgets', relation: 'milestones', status: 'created' })
    const done = await client.projectImports.waitForRelationImport(started, { intervalMs: 10 })
    expect(done).toMatchObject({ ended: 'done', tracker: { id: started.id, status: 'failed' } })
    expect(await client.projectImports.relationImports('acme/widgets')).toEqual([done.tracker])
    // The milestones are the seed's two: nothing was added.
    expect((await t.http('GET', `${P}/milestones`, { token: ROOT })).body).toHaveLength(2)
    // The reset takes a seeded project's trackers too.
    await t.server.reset()
    expect(await client.projectImports.relationImports('acme/widgets')).toEqual([])
  })
})

describe('POST /projects/import-relation: milestones', () => {
  it('skips a milestone whose iid the project holds, under any title, and adds the others with their iid', async () => {
    t = await startServer(widgetsSeed)
    const dir = mkdtempSync(join(tmp, 'tree-'))
    mkdirSync(join(dir, 'tree/project'), { recursive: true })
    writeFileSync(join(dir, 'VERSION'), '0.2.4\n')
    writeFileSync(join(dir, 'tree/project.json'), '{}')
    writeFileSync(
      join(dir, 'tree/project/milestones.ndjson'),
      `${JSON.stringify({ iid: 1, title: 'v1.0 renamed' })}\n${JSON.stringify({ iid: 7, title: 'v3.0' })}\n`,
    )
    const res = await importRelation(tgz(dir, tmp), { path: 'acme/widgets', relation: 'milestones' })
    expect(res.status).toBe(201)
    expect(await trackerSettled('acme/widgets', res.body!.id)).toMatchObject({ status: 'finished' })
    const milestones = (await t.http('GET', `${P}/milestones`, { token: ROOT })).body as Json[]
    expect(milestones.map((m) => [m.iid, m.title]).sort()).toEqual([
      [1, 'v1.0'],
      [2, 'v2.0'],
      [7, 'v3.0'],
    ])
  })
})

describe('relation import trackers across a restart', () => {
  it('marks a tracker a stopped server left under way as failed, and keeps it (--data)', async () => {
    const data = join(tmp, 'data')
    t = await startServer(widgetsSeed, { data })
    const project = t.server.store.projects.byPath('acme/widgets')!.id
    // A tracker the server was working on when it stopped (the job cannot be caught mid-run).
    const id = t.server.store.relationImports.insert({
      project_id: project,
      user_id: 1,
      relation: 'issues',
      correlation_id: 'c0rrelation',
      now: '2026-12-01T10:00:00.000Z',
    })
    t.server.store.relationImports.setStatus(id, 'started', '2026-12-01T10:00:01.000Z')
    await t.close()
    t = await startServer(widgetsSeed, { data })
    const [row] = await trackers('acme/widgets')
    expect(row).toMatchObject({
      id,
      relation: 'issues',
      status: 'failed',
      created_at: '2026-12-01T10:00:00.000Z',
    })
  })
})

describe('POST /projects/import-relation and GET /projects/:id/relation-imports: refusals', () => {
  let archive: string
  beforeEach(async () => {
    t = await startServer(widgetsSeed, { allowLocalRequests: true })
    const dir = mkdtempSync(join(tmp, 'tree-'))
    writeFileSync(join(dir, 'VERSION'), '0.2.4\n')
    archive = tgz(dir, tmp)
  })
  const none = () =>
    t.server.store.relationImports.byProject(t.server.store.projects.byPath('acme/widgets')!.id)
  const good = { path: 'acme/widgets', relation: 'issues' }

  it.each([
    ['no token', good, '', 'x.tar.gz', 401, { message: '401 Unauthorized' }],
    ['fields missing', {}, ROOT, 'x.tar.gz', 400, { error: 'path is missing, relation is missing' }],
    [
      'no such project',
      { ...good, path: 'acme/nothing' },
      ROOT,
      'x.tar.gz',
      404,
      { message: 'Project not found' },
    ],
    [
      'an unknown relation',
      { ...good, relation: 'labels' },
      ROOT,
      'x.tar.gz',
      400,
      { message: 'Imported relation must be one of issues, merge_requests, milestones, or ci_pipelines' },
    ],
    ['a developer', good, BOB, 'x.tar.gz', 403, { message: 'You are not authorized to perform this action' }],
    [
      'a stranger to the private project (GitLab finds it by path without a visibility check)',
      good,
      CAROL,
      'x.tar.gz',
      403,
      { message: 'You are not authorized to perform this action' },
    ],
    [
      'a file not ending in .gz',
      good,
      ROOT,
      'x.zip',
      422,
      { message: { error: 'You need to upload a GitLab project export archive (ending in .gz).' } },
    ],
  ])('%s: nothing stored', async (_name, fields, token, filename, status, body) => {
    const res = await importRelation(archive, fields as Record<string, string>, token, filename)
    expect(res).toEqual({ status, body })
    expect(none()).toEqual([])
  })

  it('400 file is missing, in Grape order after path', async () => {
    const res = await t.http('POST', '/api/v4/projects/import-relation', {
      token: ROOT,
      json: { relation: 'issues' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'path is missing, file is missing' })
    expect(none()).toEqual([])
  })

  it('409 while the project is being imported', async () => {
    const drip = await dripServer()
    try {
      const started = await t.http('POST', '/api/v4/projects/remote-import', {
        token: ROOT,
        json: { url: `${drip.url}/x.tar.gz`, path: 'slow', namespace: 'acme' },
      })
      expect(started.status).toBe(201)
      const res = await importRelation(archive, { path: 'acme/slow', relation: 'issues' })
      expect(res).toEqual({
        status: 409,
        body: { message: 'A relation import is already in progress for this project' },
      })
      expect(await trackers('acme/slow')).toEqual([])
    } finally {
      await drip.close()
    }
  })

  it('GET relation-imports: 401, 404 hidden, 403 below Maintainer, 200 for a maintainer', async () => {
    expect((await t.http('GET', `${P}/relation-imports`)).status).toBe(401)
    expect(await t.http('GET', `${P}/relation-imports`, { token: CAROL })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    })
    expect(await t.http('GET', `${P}/relation-imports`, { token: BOB })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Project' },
    })
    expect(await t.http('GET', `${P}/relation-imports`, { token: ALICE })).toMatchObject({
      status: 200,
      body: [],
    })
  })

  it('the typed client throws the API error', async () => {
    const client = createClient({ baseUrl: t.baseUrl, token: BOB })
    await expect(client.projectImports.importRelation(archive, good as never)).rejects.toBeInstanceOf(
      GitLabApiError,
    )
  })
})

describe('import-relation per release', () => {
  it.each([
    ['16.10.0', 404, { error: '404 Not Found' }],
    ['17.0.0', 404, { message: '404 Not Found' }],
  ])('GitLab %s answers %i', async (gitlabVersion, status, body) => {
    t = await startServer(widgetsSeed, { gitlabVersion })
    const dir = mkdtempSync(join(tmp, 'tree-'))
    writeFileSync(join(dir, 'VERSION'), '0.2.4\n')
    const res = await importRelation(tgz(dir, tmp), { path: 'acme/widgets', relation: 'issues' })
    expect(res).toEqual({ status, body })
    expect(await t.http('GET', `${P}/relation-imports`, { token: ROOT })).toMatchObject({ status, body })
  })
})
