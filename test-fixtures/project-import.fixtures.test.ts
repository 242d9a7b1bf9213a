import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  importFile as importArchive,
  settled as settledImport,
  tgz as tgzIn,
} from '../test/support/imports.js'
import { startServer, type TestServer } from '../test/support/server.js'
import { widgetsSeed } from '../test/support/seeds.js'
import { FIXTURES } from './fixtures-dir.js'
import { inspectDb } from '../src/server/store/inspect.js'

/*
 * Real GitLab export archives and GitLab's own spec fixtures, imported through the API
 * (`npm run test:fixtures`): every issue, label and milestone lands, or is a failed relation.
 */

const ROOT = 'glpat-root-token'
type Json = Record<string, unknown>

let t: TestServer
let tmp: string
const start = async () => {
  t = await startServer(widgetsSeed)
}
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'import-fixtures-'))
})
afterEach(async () => {
  await t.close()
  rmSync(tmp, { recursive: true, force: true })
})
const tgz = (dir: string) => tgzIn(dir, tmp)
const importFile = (file: string, fields: Record<string, string>) => importArchive(t, file, fields, ROOT)
const settled = (id: unknown) => settledImport(t, id, ROOT)
const list = async (path: string, token = ROOT, query = '') =>
  (await t.http('GET', path, { token, query: `per_page=100${query}` })).body as Json[]

describe('POST /projects/import: real GitLab archives', () => {
  beforeEach(() => start())
  const folders = [
    ...readdirSync(join(FIXTURES, 'real-exports')).map((f) => join(FIXTURES, 'real-exports', f)),
    ...readdirSync(join(FIXTURES, 'gitlab-spec-fixtures')).map((f) =>
      join(FIXTURES, 'gitlab-spec-fixtures', f),
    ),
  ]
  const lines = (file: string) =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.trim() && l !== 'null')
          .map((l) => JSON.parse(l) as Json)
      : []

  it.each(folders)('imports %s', async (folder) => {
    let dir = folder
    if (!existsSync(join(folder, 'VERSION'))) {
      // GitLab's spec fixtures are bare trees: add the VERSION a real archive carries (in a temp copy).
      dir = mkdtempSync(join(tmp, 'fixture-'))
      cpSync(folder, dir, { recursive: true })
      writeFileSync(join(dir, 'VERSION'), '0.2.4')
    }
    const res = await importFile(tgz(dir), { path: 'imported', namespace: 'acme' })
    expect(res.status).toBe(201)
    const done = await settled(res.body!.id)
    expect(done).toMatchObject({ import_status: 'finished', import_error: null })
    const failed = (done.failed_relations as Json[]).filter((f) => f.relation_name === 'issues')
    const issues = lines(join(dir, 'tree/project/issues.ndjson'))
    const got = await list('/api/v4/projects/acme%2Fimported/issues', ROOT, '&state=all')
    expect(got.length + failed.length).toBe(issues.length)
    const titles = new Set(got.map((i) => i.title))
    const failedLines = new Set(failed.map((f) => f.line_number))
    issues.forEach((i, n) => failedLines.has(n) || expect(titles.has(String(i.title).trim())).toBe(true))
    const db = inspectDb(t.server.store)
    const projectId = done.id as number
    const titlesIn = (table: string) =>
      new Set(
        db.prepare(`SELECT title FROM ${table} WHERE project_id = ?`).pluck().all(projectId) as string[],
      )
    for (const l of lines(join(dir, 'tree/project/labels.ndjson')))
      expect(titlesIn('labels').has(String(l.title))).toBe(true)
    for (const m of lines(join(dir, 'tree/project/milestones.ndjson')))
      expect(titlesIn('milestones').has(String(m.title))).toBe(true)
    const members = db
      .prepare("SELECT user_id, access_level FROM members WHERE source_type = 'project' AND source_id = ?")
      .all(projectId)
    expect(members).toEqual([{ user_id: 1, access_level: 40 }])
    for (const issue of got) {
      const source = issues.find((i) => i.iid === issue.iid)!
      expect([issue.iid, issue.state]).toEqual([source.iid, source.state === 'closed' ? 'closed' : 'opened'])
    }
  })
})
