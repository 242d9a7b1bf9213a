import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectFiles } from '../support/project-files.js'
import { startServer } from '../support/server.js'
import { inspectDb } from '../../src/server/store/inspect.js'

/* Projects made through the API with `--data DIR`: they survive a restart, and deleting one removes its files. */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
groups:
  - { path: acme, name: ACME }
`

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-projects-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('keeps a project made through the API across a restart; a reset then removes it', async () => {
  const first = await startServer(seed, { data: dir })
  const made = await first.http('POST', '/api/v4/projects', {
    token: ROOT,
    json: { name: 'Kept', topics: ['t'], initialize_with_readme: true },
  })
  expect(made.status).toBe(201)
  await first.close()
  const second = await startServer(seed, { data: dir })
  try {
    const read = await second.http('GET', '/api/v4/projects/root%2FKept', { token: ROOT })
    expect(read.body).toMatchObject({
      id: (made.body as { id: number }).id,
      topics: ['t'],
      default_branch: 'main',
    })
    expect((await second.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    expect((await second.http('GET', '/api/v4/projects/root%2FKept', { token: ROOT })).status).toBe(404)
  } finally {
    await second.close()
  }
})

it("removes a deleted project's metric images and export archives from disk", async () => {
  const t = await startServer(seed, { data: dir, gitlabVersion: '17.11.0', edition: 'ee' })
  try {
    const made = await t.http('POST', '/api/v4/projects', { token: ROOT, json: { name: 'Evidence' } })
    expect(made.status).toBe(201)
    const project = `/api/v4/projects/${(made.body as { id: number }).id}`
    const { images, archive } = await projectFiles(t, project, ROOT, dir)
    expect(readdirSync(images)).toHaveLength(1)
    expect(existsSync(archive)).toBe(true)
    // EE before 18.0 delays deletion: mark, then remove for good.
    expect((await t.http('DELETE', project, { token: ROOT })).status).toBe(202)
    const marked = (await t.http('GET', project, { token: ROOT })).body as { path_with_namespace: string }
    const gone = await t.http('DELETE', project, {
      token: ROOT,
      query: `permanently_remove=true&full_path=${encodeURIComponent(marked.path_with_namespace)}`,
    })
    expect(gone.status).toBe(202)
    expect(readdirSync(images)).toEqual([])
    expect(existsSync(archive)).toBe(false)
    const left = inspectDb(t.server.store)
      .prepare(
        'SELECT (SELECT COUNT(*) FROM issues) + (SELECT COUNT(*) FROM metric_images) + (SELECT COUNT(*) FROM project_exports) AS n',
      )
      .get()
    expect(left).toEqual({ n: 0 })
  } finally {
    await t.close()
  }
})
