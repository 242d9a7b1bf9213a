import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createClient } from '../../src/api/client.js'
import { dispositionFilename, exportTimeOf } from '../../src/api/project-exports.js'
import { streamedMultipart } from '../../src/api/multipart.js'
import { startServer, type TestServer } from '../support/server.js'

const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, token: glpat-alice-token }
groups: [ { path: acme, members: { alice: maintainer } } ]
projects:
  - { path: acme/widgets, issues: [ { title: One, author: alice } ] }
`
let t: TestServer
let dir: string
beforeEach(async () => {
  t = await startServer(seed)
  dir = mkdtempSync(join(tmpdir(), 'gla-api-'))
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})
const alice = () => createClient({ baseUrl: t.baseUrl, token: 'glpat-alice-token' })
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('gave up waiting')
}

describe('project exports and imports through the client', () => {
  it('schedules, polls, downloads as a stream to a file with its sha256, and imports it back streamed', async () => {
    const gitlab = alice()
    expect((await gitlab.projectExports.schedule('acme/widgets')).message).toBe('202 Accepted')
    await until(async () => (await gitlab.projectExports.status('acme/widgets')).export_status === 'finished')
    const file = join(dir, 'w.tar.gz')
    const saved = await gitlab.projectExports.downloadTo('acme/widgets', file)
    expect(saved.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'))
    expect(saved.size).toBe(readFileSync(file).length)
    expect(saved.filename).toMatch(/_acme_widgets_export\.tar\.gz$/)

    const record = await gitlab.projectImports.fromFile(file, {
      path: 'copy',
      override_params: { description: 'd' },
    })
    expect(record).toMatchObject({ import_status: 'scheduled', path_with_namespace: 'alice/copy' })
    await until(async () => (await gitlab.projectImports.status(record.id)).import_status === 'finished')
    expect((await gitlab.projects.get(record.id)).description).toBe('d')
    await gitlab.close()
  })

  it('a download without a finished export is GitLab’s 404, with nothing written', async () => {
    const gitlab = alice()
    await expect(
      gitlab.projectExports.downloadTo('acme/widgets', join(dir, 'x.tar.gz')),
    ).rejects.toMatchObject({
      status: 404,
    })
    await gitlab.close()
  })

  it('multipart bodies stream the file with an exact Content-Length', async () => {
    const file = join(dir, 'a.tar.gz')
    writeFileSync(file, Buffer.alloc(70_000, 7))
    const body = await streamedMultipart(
      [
        ['path', 'p'],
        ['override_params[name]', 'N'],
      ],
      { field: 'file', path: file, contentType: 'application/gzip' },
    )
    const chunks: Buffer[] = []
    for await (const c of body.data as Readable) chunks.push(Buffer.from(c as Buffer))
    const all = Buffer.concat(chunks)
    expect(all.length).toBe(body.length)
    expect(all.toString('latin1')).toContain('name="override_params[name]"\r\n\r\nN\r\n')
    expect(all.toString('latin1')).toContain(
      'name="file"; filename="a.tar.gz"\r\nContent-Type: application/gzip',
    )
  })

  it('reads the export time from GitLab’s file name', () => {
    const name = dispositionFilename('attachment; filename="2026-01-20_12-34-789_acme_widgets_export.tar.gz"')
    expect(name).toBe('2026-01-20_12-34-789_acme_widgets_export.tar.gz')
    expect(new Date(exportTimeOf(name) as number).toISOString()).toBe('2026-01-20T12:34:00.000Z')
    expect(exportTimeOf('export.tar.gz')).toBeUndefined()
  })
})
