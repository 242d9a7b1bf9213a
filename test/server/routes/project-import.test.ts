import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import tar from 'tar-stream'
import { FormData, request } from 'undici'
import { startServer, type TestServer } from '../../support/server.js'
import {
  exportSettled,
  importFile as importArchive,
  settled as settledImport,
  tgz as tgzIn,
} from '../../support/imports.js'
import { widgetsSeed } from '../../support/seeds.js'
import type { ServerOptions } from '../../../src/server/start/build-server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // maintainer of group acme
const BOB = 'glpat-bob-token' // developer of acme/widgets only
const CAROL = 'glpat-carol-token'
type Json = Record<string, unknown>

const clock = { t: Date.parse('2026-03-01T12:00:00.000Z'), now: () => new Date(clock.t) }
let t: TestServer
let tmp: string
const start = async (options: Omit<ServerOptions, 'seed'> = {}) => {
  t = await startServer(widgetsSeed, { clock, ...options })
}
beforeEach(() => {
  clock.t = Date.parse('2026-03-01T12:00:00.000Z')
  tmp = mkdtempSync(join(tmpdir(), 'import-test-'))
})
afterEach(async () => {
  await t.close()
  rmSync(tmp, { recursive: true, force: true })
})

const tgz = (dir: string, name?: string) => tgzIn(dir, tmp, name)
/** A folder with VERSION and a tree; `issues` are ndjson lines. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmp, 'tree-'))
  const all = { VERSION: '0.2.4', 'tree/project.json': '{}', ...files }
  for (const [name, body] of Object.entries(all)) {
    execFileSync('mkdir', ['-p', join(dir, name, '..')])
    writeFileSync(join(dir, name), body)
  }
  return dir
}
const importFile = (file: string, fields: Record<string, string>, token = ROOT, filename = 'x.tar.gz') =>
  importArchive(t, file, fields, token, filename)
const settled = (id: unknown, token = ROOT) => settledImport(t, id, token)
const list = async (path: string, token = ROOT, query = '') =>
  (await t.http('GET', path, { token, query: `per_page=100${query}` })).body as Json[]

describe('POST /projects/import: round trip', () => {
  beforeEach(() => start())

  it('imports an exported project: issues, labels, milestones, notes, time tracking', async () => {
    const P = '/api/v4/projects/acme%2Fwidgets'
    await t.http('POST', `${P}/issues/1/notes`, { token: ALICE, json: { body: 'A comment' } })
    await t.http('POST', `${P}/export`, { token: ROOT })
    await exportSettled(t, P, ROOT)
    const dl = await request(`${t.baseUrl}${P}/export/download`, {
      headers: { 'private-token': ROOT },
      reset: true,
    })
    const archive = join(tmp, 'export.tar.gz')
    writeFileSync(archive, Buffer.from(await dl.body.arrayBuffer()))

    const res = await importFile(archive, { path: 'widgets-copy', namespace: 'acme' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      path: 'widgets-copy',
      name: 'widgets-copy',
      path_with_namespace: 'acme/widgets-copy',
      import_status: 'scheduled',
      import_type: 'gitlab_project',
      // The request's correlation id, which the answer's X-Request-Id carries (`ProjectImportState`).
      correlation_id: res.requestId,
      failed_relations: [],
      import_error: null,
    })
    expect(res.requestId).toMatch(/^[0-9A-Z]{26}$/)
    const done = await settled(res.body!.id)
    expect(done).toMatchObject({
      import_status: 'finished',
      correlation_id: res.requestId,
      failed_relations: [],
      import_error: null,
    })

    const keep = (i: Json) => ({
      iid: i.iid,
      title: i.title,
      description: i.description,
      state: i.state,
      labels: i.labels,
      milestone: (i.milestone as Json | null)?.title ?? null,
      confidential: i.confidential,
      due_date: i.due_date,
      issue_type: i.issue_type,
      author: (i.author as Json).username,
      assignees: (i.assignees as Json[]).map((a) => a.username),
      time_stats: i.time_stats,
      user_notes_count: i.user_notes_count,
      created_at: i.created_at,
      closed_at: i.closed_at,
    })
    const before = (await list(`${P}/issues`)).map(keep)
    const after = (await list('/api/v4/projects/acme%2Fwidgets-copy/issues')).map(keep)
    expect(after).toEqual(before)
    const notes = await list('/api/v4/projects/acme%2Fwidgets-copy/issues/1/notes')
    expect(notes.map((n) => n.body)).toContain('A comment')
    const labels = await list('/api/v4/projects/acme%2Fwidgets-copy/labels')
    if (Array.isArray(labels)) expect(labels.map((l) => l.name).sort()).toEqual(['bug', 'docs', 'feature'])
  })

  it("drops an incident's severity and a duplicate's link, as GitLab's export carries neither", async () => {
    // import_export.yml (gitlabhq/gitlabhq, 18.x): issues have no `issuable_severity` relation and
    // `duplicated_to_id` is an excluded attribute, so a GitLab round trip loses both.
    const P = '/api/v4/projects/acme%2Fwidgets'
    const copy = '/api/v4/projects/acme%2Fwidgets-copy'
    const created = await t.http('POST', `${P}/issues`, {
      token: ROOT,
      json: { title: 'Outage', issue_type: 'incident', description: '/severity high' },
    })
    const iid = (created.body as Json).iid as number
    await t.http('POST', `${P}/issues/1/notes`, { token: ROOT, json: { body: `/duplicate #${iid}` } })
    const original = async (n: number) =>
      (await t.http('GET', `${P}/issues/${n}`, { token: ROOT })).body as Json
    expect(await original(iid)).toMatchObject({ severity: 'HIGH' })
    const dup = await original(1)
    expect(dup.state).toBe('closed')
    expect((dup._links as Json).closed_as_duplicate_of).toMatch(new RegExp(`/issues/${iid}$`))

    await t.http('POST', `${P}/export`, { token: ROOT })
    await exportSettled(t, P, ROOT)
    const dl = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
    const archive = join(tmp, 'export.tar.gz')
    writeFileSync(archive, Buffer.from(await dl.body.arrayBuffer()))
    const res = await importFile(archive, { path: 'widgets-copy', namespace: 'acme' })
    expect(await settled(res.body!.id)).toMatchObject({ import_status: 'finished', failed_relations: [] })

    const imported = async (n: number) =>
      (await t.http('GET', `${copy}/issues/${n}`, { token: ROOT })).body as Json
    expect(await imported(iid)).toMatchObject({ issue_type: 'incident', severity: 'UNKNOWN' })
    const closed = await imported(1)
    expect(closed.state).toBe('closed')
    expect((closed._links as Json).closed_as_duplicate_of).toBeNull()
  })

  it('ignores issuable_severity and duplicated_to_id in an archive, as GitLab does', async () => {
    const lines = [
      { iid: 1, title: 'Outage', issue_type: 'incident', issuable_severity: { severity: 'critical' } },
      { iid: 2, title: 'Same outage', state: 'closed', duplicated_to_id: 1 },
    ]
    const dir = tree({ 'tree/project/issues.ndjson': `${lines.map((l) => JSON.stringify(l)).join('\n')}\n` })
    const res = await importFile(tgz(dir), { path: 'incidents' })
    expect(await settled(res.body!.id)).toMatchObject({ import_status: 'finished', failed_relations: [] })
    const issues = await list('/api/v4/projects/root%2Fincidents/issues')
    expect(
      issues.map((i) => [i.iid, i.severity, i.state, (i._links as Json).closed_as_duplicate_of]),
    ).toEqual([
      [2, 'UNKNOWN', 'closed', null],
      [1, 'UNKNOWN', 'opened', null],
    ])
  })

  it('a non-administrator import attributes everything to the importer and notes say who wrote them', async () => {
    const dir = tree({
      'tree/project/issues.ndjson': `${JSON.stringify({
        iid: 7,
        title: 'From elsewhere',
        author_id: 99,
        state: 'opened',
        notes: [
          {
            note: 'Hi',
            author_id: 99,
            author: { name: 'Ann Other' },
            updated_at: '2024-03-29T01:51:11.769Z',
          },
        ],
        issue_assignees: [{ user_id: 99 }, { user_id: 98 }],
      })}\n`,
    })
    const res = await importFile(tgz(dir), { path: 'elsewhere', namespace: 'acme' }, ALICE)
    expect(res.status).toBe(201)
    expect(await settled(res.body!.id, ALICE)).toMatchObject({ import_status: 'finished' })
    const [issue] = await list('/api/v4/projects/acme%2Felsewhere/issues', ALICE)
    expect(issue).toMatchObject({ iid: 7, author: { username: 'alice' }, assignees: [{ username: 'alice' }] })
    const notes = await list('/api/v4/projects/acme%2Felsewhere/issues/7/notes', ALICE)
    expect(notes.map((n) => n.body)).toContain('Hi\n\n *By Ann Other on 2024-03-29T01:51:11*')
  })
})

describe('POST /projects/import: refusals', () => {
  beforeEach(() => start())
  const projects = () => t.server.store.projects.all().length
  const good = () => tgz(tree({}))

  it.each([
    ['no token', {}, '', 401, { message: '401 Unauthorized' }],
    ['path missing', {}, ROOT, 400, { error: 'path is missing' }],
    [
      'namespace missing',
      { path: 'p', namespace: 'nope' },
      ROOT,
      404,
      { message: '404 Namespace Not Found' },
    ],
    ['hidden group', { path: 'p', namespace: 'acme' }, CAROL, 404, { message: '404 Namespace Not Found' }],
    [
      "another user's namespace",
      { path: 'p', namespace: 'alice' },
      BOB,
      400,
      { message: 'Namespace is not valid' },
    ],
    [
      'path taken',
      { path: 'widgets', namespace: 'acme' },
      ROOT,
      400,
      { message: 'Path has already been taken' },
    ],
  ])('%s: %d, creates nothing', async (_what, fields, token, status, body) => {
    const before = projects()
    const res = await importFile(good(), fields as Record<string, string>, token as string)
    expect([res.status, res.body]).toEqual([status, body])
    expect(projects()).toBe(before)
  })

  it('needs the file part: missing or not a file', async () => {
    const missing = await t.http('POST', '/api/v4/projects/import', { token: ROOT, json: { path: 'p' } })
    expect([missing.status, missing.body]).toEqual([400, { error: 'file is missing' }])
    const both = await t.http('POST', '/api/v4/projects/import', { token: ROOT, json: {} })
    expect(both.body).toEqual({ error: 'path is missing, file is missing' })
    const form = new FormData()
    form.append('path', 'p')
    form.append('file', 'not a file')
    const res = await request(`${t.baseUrl}/api/v4/projects/import`, {
      method: 'POST',
      headers: { 'private-token': ROOT },
      body: form,
    })
    expect([res.statusCode, await res.body.json()]).toEqual([400, { error: 'file is invalid' }])
  })

  it('refuses a file not ending in .gz with 422', async () => {
    const res = await importFile(good(), { path: 'p' }, ROOT, 'x.zip')
    expect([res.status, res.body]).toEqual([
      422,
      { message: { error: 'You need to upload a GitLab project export archive (ending in .gz).' } },
    ])
    expect(t.server.store.projects.byPath('root/p')).toBeUndefined()
  })

  it('needs Maintainer on the target group from 16.0, Developer before', async () => {
    const dir = tree({})
    const seed = widgetsSeed.replace(
      'members: { alice: maintainer }',
      'members: { alice: maintainer, bob: developer }',
    )
    await t.close()
    t = await startServer(seed, { clock })
    const refused = await importFile(tgz(dir), { path: 'p', namespace: 'acme' }, BOB)
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: 'User is not allowed to import projects' },
    ])
    await t.close()
    t = await startServer(seed, { clock, gitlabVersion: '15.11.0' })
    const accepted = await importFile(tgz(dir), { path: 'p', namespace: 'acme' }, BOB)
    expect(accepted.status).toBe(201)
  })

  it("imports into the caller's own namespace by default, and allows 6 per minute", async () => {
    for (let i = 0; i < 6; i++) expect((await importFile(good(), { path: `p${i}` }, ALICE)).status).toBe(201)
    const res = await importFile(good(), { path: 'p7' }, ALICE)
    expect(res.status).toBe(429)
    expect(t.server.store.projects.byPath('alice/p0')).toBeDefined()
  })

  it('records `created` by the importer as the import is taken (`Projects::CreateService`)', async () => {
    const res = await importFile(good(), { path: 'fresh' }, ALICE)
    expect(res.status).toBe(201)
    const id = (res.body as Json).id as number
    await settled(id, ALICE)
    const events = await list(`/api/v4/projects/${id}/events`, ALICE)
    expect(events.map((e) => [e.action_name, e.author_username, e.target_type, e.target_id])).toEqual([
      ['created', 'alice', 'Project', id],
    ])
  })
})

/** Crafted archives: tar-stream entries, gzipped. */
async function crafted(
  entries: {
    name: string
    type?: 'file' | 'symlink' | 'link' | 'directory'
    body?: string
    linkname?: string
  }[],
) {
  const pack = tar.pack()
  const chunks: Buffer[] = []
  pack.on('data', (c: unknown) => void chunks.push(c as Buffer))
  const done = new Promise((r) => pack.on('end', () => r(undefined)))
  for (const e of entries)
    if (e.type && e.type !== 'file') pack.entry({ name: e.name, type: e.type, linkname: e.linkname })
    else pack.entry({ name: e.name, type: 'file' }, e.body ?? '')
  pack.finalize()
  await done
  const file = join(tmp, `crafted-${Math.random()}.tar.gz`)
  writeFileSync(file, gzipSync(Buffer.concat(chunks)))
  return file
}

describe('hostile and broken archives fail the import cleanly', () => {
  beforeEach(() => start({ transfers: { maxDecompressedArchiveSize: 64 * 1024 } }))
  const base = [
    { name: './VERSION', body: '0.2.4' },
    { name: './tree/project.json', body: '{}' },
  ]
  it.each([
    [
      'symlink',
      [...base, { name: './tree/project/issues.ndjson', type: 'symlink' as const, linkname: '/etc/passwd' }],
      'Archive contains a symbolic link',
    ],
    [
      'hard link',
      [...base, { name: './x', type: 'link' as const, linkname: 'VERSION' }],
      'File shares hard link',
    ],
    ['..', [...base, { name: '../escaped', body: 'x' }], 'Invalid archive member: path traversal'],
    [
      'absolute path',
      [...base, { name: '/tmp/escaped-abs', body: 'x' }],
      'Invalid archive member: absolute or malformed path',
    ],
    [
      'oversize',
      [...base, { name: './big', body: 'x'.repeat(100 * 1024) }],
      'Decompressed archive size validation failed.',
    ],
    [
      'wrong VERSION',
      [{ name: './VERSION', body: '0.2.3' }, base[1]!],
      'Import version mismatch: Required 0.2.4 but was 0.2.3',
    ],
    ['bad VERSION', [{ name: './VERSION', body: 'abc' }, base[1]!], 'Incorrect VERSION format'],
    ['no tree', [base[0]!], 'invalid import format'],
    [
      'bad JSON line',
      [...base, { name: './tree/project/issues.ndjson', body: '{"iid":1,\n' }],
      'Incorrect JSON format',
    ],
  ])('%s', async (_what, entries, error) => {
    const res = await importFile(await crafted(entries), { path: 'evil' })
    expect(res.status).toBe(201)
    expect(await settled(res.body!.id)).toMatchObject({ import_status: 'failed', import_error: error })
    expect(existsSync(join(tmp, '..', 'escaped'))).toBe(false)
    expect(existsSync('/tmp/escaped-abs')).toBe(false)
    expect((await t.http('GET', '/api/v4/version', { token: ROOT })).status).toBe(200)
  })

  it('broken gzip', async () => {
    const file = join(tmp, 'broken.tar.gz')
    writeFileSync(file, Buffer.concat([gzipSync(Buffer.alloc(4096)).subarray(0, 30), Buffer.from('garbage')]))
    const res = await importFile(file, { path: 'broken' })
    expect(await settled(res.body!.id)).toMatchObject({
      import_status: 'failed',
      import_error: 'Decompressed archive size validation failed.',
    })
  })

  it('records bad lines as failed relations, at most 100, exception_message null', async () => {
    const bad = Array.from({ length: 120 }, (_, n) => JSON.stringify({ iid: n + 10, title: '' })).join('\n')
    const dir = tree({ 'tree/project/issues.ndjson': `${JSON.stringify({ iid: 1, title: 'ok' })}\n${bad}\n` })
    const res = await importFile(tgz(dir), { path: 'partial' })
    const done = await settled(res.body!.id)
    expect(done.import_status).toBe('finished')
    const failed = done.failed_relations as Json[]
    expect(failed).toHaveLength(100)
    expect(failed[0]).toEqual({
      id: expect.any(Number),
      created_at: expect.any(String),
      exception_class: 'ActiveRecord::RecordInvalid',
      exception_message: null,
      source: 'process_relation_item!',
      relation_name: 'issues',
      line_number: 120,
    })
    expect((await list('/api/v4/projects/root%2Fpartial/issues')).map((i) => i.title)).toEqual(['ok'])
  })
})

describe('POST /projects/import: labels and milestones found by title within a batch', () => {
  beforeEach(() => start())

  it('a failed line takes the label and milestone it made with it; the next line of its batch makes them again', async () => {
    const line = (iid: number, labels: string[]) =>
      JSON.stringify({
        iid,
        title: `Issue ${iid}`,
        milestone: { title: 'Fresh milestone', iid: 7 },
        label_links: labels.map((title) => ({ label: { title, color: '#ff0000' } })),
      })
    // Line 0 makes `fresh` and the milestone, then fails on its blank second label (rolled back).
    const dir = tree({
      'tree/project/issues.ndjson': `${line(1, ['fresh', ' '])}\n${line(2, ['fresh'])}\n${line(3, ['fresh'])}\n`,
    })
    const res = await importFile(tgz(dir), { path: 'undone' })
    const done = await settled(res.body!.id)
    expect(done).toMatchObject({ import_status: 'finished' })
    expect(done.failed_relations).toEqual([
      expect.objectContaining({
        exception_class: 'ActiveRecord::RecordInvalid',
        relation_name: 'issues',
        line_number: 0,
      }),
    ])
    const P = '/api/v4/projects/root%2Fundone'
    const issues = (await list(`${P}/issues`)).sort((a, b) => (a.iid as number) - (b.iid as number))
    expect(issues.map((i) => [i.iid, i.labels, (i.milestone as Json | null)?.title])).toEqual([
      [2, ['fresh'], 'Fresh milestone'],
      [3, ['fresh'], 'Fresh milestone'],
    ])
    expect((await list(`${P}/labels`)).map((l) => [l.name, l.color])).toEqual([['fresh', '#ff0000']])
    expect((await list(`${P}/milestones`)).map((m) => [m.title, m.iid])).toEqual([['Fresh milestone', 7]])
  })
})

describe('GET /projects/:id/import', () => {
  beforeEach(() => start())
  it('answers none for a project never imported; 401 anonymous; 404 hidden', async () => {
    const res = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/import', { token: BOB })
    expect(res.body).toMatchObject({
      import_status: 'none',
      import_type: null,
      failed_relations: [],
      import_error: null,
    })
    expect((await t.http('GET', '/api/v4/projects/acme%2Fwidgets/import')).status).toBe(401)
    expect((await t.http('GET', '/api/v4/projects/acme%2Fwidgets/import', { token: CAROL })).status).toBe(404)
  })

  it('overwrite=true replaces the project at the path once the import finishes', async () => {
    const dir = tree({
      'tree/project/issues.ndjson': `${JSON.stringify({ iid: 1, title: 'replacement' })}\n`,
    })
    const res = await importFile(tgz(dir), { path: 'widgets', namespace: 'acme', overwrite: 'true' })
    expect(res.status).toBe(201)
    expect(await settled(res.body!.id)).toMatchObject({
      import_status: 'finished',
      path_with_namespace: 'acme/widgets',
    })
    expect((await list('/api/v4/projects/acme%2Fwidgets/issues')).map((i) => i.title)).toEqual([
      'replacement',
    ])
  })

  it("overwrite=true moves the old project's members and bots to the new one and removes its files", async () => {
    const P = '/api/v4/projects/acme%2Fwidgets'
    const oldId = t.server.store.projects.byPath('acme/widgets')!.id
    await t.http('POST', `${P}/export`, { token: ROOT })
    await exportSettled(t, P, ROOT)
    const [archive] = t.server.store.exports.files()
    expect(existsSync(archive!)).toBe(true)
    const bot = await t.http('POST', `${P}/access_tokens`, {
      token: ROOT,
      json: { name: 'ci', scopes: ['api'], access_level: 30, expires_at: '2026-06-01' },
    })
    expect(bot.status).toBe(201)
    const botId = (bot.body as Json).user_id as number
    const botToken = (bot.body as Json).token as string

    const dir = tree({
      'tree/project/issues.ndjson': `${JSON.stringify({ iid: 1, title: 'replacement' })}\n`,
    })
    const res = await importFile(tgz(dir), { path: 'widgets', namespace: 'acme', overwrite: 'true' })
    expect(await settled(res.body!.id)).toMatchObject({ import_status: 'finished' })
    const now = t.server.store.projects.byPath('acme/widgets')!.id
    expect(now).not.toBe(oldId)
    // Projects::MoveAccessService: bob (a developer of the old project only) keeps his access.
    const members = await list(`${P}/members`)
    expect(members.map((m) => [m.username, m.access_level])).toContainEqual(['bob', 30])
    expect((await t.http('GET', `${P}/issues`, { token: BOB })).status).toBe(200)
    // The bot is a member too: it moves, and its token goes on working on the new project.
    expect(members.map((m) => [m.id, m.access_level])).toContainEqual([botId, 30])
    expect((await t.http('GET', `${P}/issues`, { token: botToken })).status).toBe(200)
    expect((await list(`${P}/access_tokens`)).map((tk) => tk.user_id)).toEqual([botId])
    // Projects::DestroyService: the old project's export archive is gone, nothing left under its id.
    expect(existsSync(archive!)).toBe(false)
    const left = inspectDb(t.server.store)
      .prepare("SELECT COUNT(*) AS n FROM members WHERE source_type = 'project' AND source_id = ?")
      .get(oldId)
    expect(left).toEqual({ n: 0 })
  })
})
