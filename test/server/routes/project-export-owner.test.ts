import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { tarGzMembers } from '../../support/archive-members.js'
import { exportSettled, importFile, settled } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * A personal project's export carries its owner in `project_members`, as GitLab's does (GitLab keeps a
 * membership for the namespace's owner: Owner from 14.9, Maintainer before), so an import maps the owner.
 */

const ROOT = 'glpat-root-token'
const DANA = 'glpat-dana-token'
type Json = Record<string, unknown>

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: dana, name: Dana, token: ${DANA} }
  - { username: eve, name: Eve, token: glpat-eve-token }
groups:
  - { path: acme, name: ACME, visibility: private }
projects:
  - path: dana/notebook
    visibility: private
    members: { eve: developer }
    issues:
      - { title: Written by the owner, author: dana }
      - { title: Written by a member, author: eve }
`
const NOTEBOOK = '/api/v4/projects/dana%2Fnotebook'

let tmp: string
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'export-owner-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The owner's export of dana/notebook, downloaded. */
async function exported(t: TestServer): Promise<Buffer> {
  expect((await t.http('POST', `${NOTEBOOK}/export`, { token: DANA })).status).toBe(202)
  expect((await exportSettled(t, NOTEBOOK, DANA)).export_status).toBe('finished')
  const res = await request(`${t.baseUrl}${NOTEBOOK}/export/download`, { headers: { 'private-token': DANA } })
  expect(res.statusCode).toBe(200)
  return Buffer.from(await res.body.arrayBuffer())
}

async function members(archive: Buffer): Promise<Json[]> {
  const files = await tarGzMembers(archive)
  return files
    .get('./tree/project/project_members.ndjson')!
    .body.split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json)
}

describe("a personal project's export", () => {
  it("lists the owner as an Owner member (50) beside the others, and an administrator's import maps it", async () => {
    const t = await startServer(seed)
    try {
      const archive = await exported(t)
      const rows = await members(archive)
      expect(rows.map((m) => [(m.user as Json).username, m.access_level, m.source_type])).toEqual([
        ['dana', 50, 'Project'],
        ['eve', 30, 'Project'],
      ])
      const dana = rows[0]!
      expect(dana).toMatchObject({ user_id: (dana.user as Json).id, created_by_id: null, expires_at: null })

      const file = join(tmp, 'notebook.tar.gz')
      writeFileSync(file, archive)
      const res = await importFile(t, file, { path: 'notebook-copy', namespace: 'acme' }, ROOT)
      expect(res.status).toBe(201)
      expect(await settled(t, res.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
      const COPY = '/api/v4/projects/acme%2Fnotebook-copy'
      const issues = (await t.http('GET', `${COPY}/issues`, { token: ROOT })).body as Json[]
      issues.sort((a, b) => (a.iid as number) - (b.iid as number))
      expect(issues.map((i) => [i.title, (i.author as Json).username])).toEqual([
        ['Written by the owner', 'dana'],
        ['Written by a member', 'eve'],
      ])
      // Mapped as a member (Owners join as Maintainers): Dana reads and may export the private copy.
      expect((await t.http('GET', COPY, { token: DANA })).status).toBe(200)
      expect((await t.http('POST', `${COPY}/export`, { token: DANA })).status).toBe(202)
    } finally {
      await t.close()
    }
  })

  it('before 14.9 lists the owner as a Maintainer (40)', async () => {
    const t = await startServer(seed, { gitlabVersion: '14.8.0' })
    try {
      const rows = await members(await exported(t))
      expect(rows.map((m) => [(m.user as Json).username, m.access_level])).toEqual([
        ['dana', 40],
        ['eve', 30],
      ])
    } finally {
      await t.close()
    }
  })
})
