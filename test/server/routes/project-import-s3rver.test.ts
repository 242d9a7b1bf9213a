import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { request } from 'undici'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

/*
 * remote-import-s3 against s3rver, an S3-compatible server from the npm registry (not a
 * hand-written endpoint): real S3 semantics for HEAD, GET and missing keys. s3rver does not
 * verify signatures, so the signature itself is checked in project-remote-import.test.ts.
 */
const ROOT = 'glpat-root-token'
type Json = Record<string, unknown>
let dir: string
let s3: S3rver
let endpoint: string
let t: TestServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3rver-'))
  const tree = join(dir, 'export')
  mkdirSync(join(tree, 'tree/project'), { recursive: true })
  writeFileSync(join(tree, 'VERSION'), '0.2.4')
  writeFileSync(join(tree, 'tree/project.json'), '{"description":"from S3"}')
  writeFileSync(
    join(tree, 'tree/project/issues.ndjson'),
    `${JSON.stringify({ iid: 7, title: 'Stored in a bucket' })}\n`,
  )
  execFileSync('tar', ['-czf', join(dir, 'x.tar.gz'), '-C', tree, '.'])
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'backups', configs: [] }],
  })
  const address = await s3.run()
  endpoint = `http://127.0.0.1:${address.port}`
  const put = await request(`${endpoint}/backups/nightly/widgets.tar.gz`, {
    method: 'PUT',
    body: readFileSync(join(dir, 'x.tar.gz')),
    headers: { 'content-type': 'application/gzip' },
  })
  await put.body.dump()
  expect(put.statusCode).toBe(200)
  t = await startServer(widgetsSeed, { allowLocalRequests: true, transfers: { s3Endpoint: endpoint } })
})
afterAll(async () => {
  await t.close()
  await s3.close()
  rmSync(dir, { recursive: true, force: true })
})

const body = (over: Json = {}) => ({
  region: 'eu-central-1',
  bucket_name: 'backups',
  file_key: 'nightly/widgets.tar.gz',
  access_key_id: 'S3RVER',
  secret_access_key: 'S3RVER',
  path: 'from-s3',
  ...over,
})

describe('POST /projects/remote-import-s3 against an S3-compatible server', () => {
  it('downloads the object and imports it', async () => {
    const res = await t.http('POST', '/api/v4/projects/remote-import-s3', { token: ROOT, json: body() })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      import_status: 'scheduled',
      path_with_namespace: 'root/from-s3',
      import_error: null,
    })
    let status: Json = {}
    for (let i = 0; i < 1000 && !['finished', 'failed'].includes(String(status.import_status)); i++)
      status = (
        await t.http('GET', `/api/v4/projects/${String((res.body as Json).id)}/import`, { token: ROOT })
      ).body as Json
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] })
    const issues = await t.http('GET', '/api/v4/projects/root%2Ffrom-s3/issues', { token: ROOT })
    expect((issues.body as Json[]).map((i) => [i.iid, i.title])).toEqual([[7, 'Stored in a bucket']])
  })

  it("answers GitLab's 400 for a key the bucket does not have, and creates nothing", async () => {
    const res = await t.http('POST', '/api/v4/projects/remote-import-s3', {
      token: ROOT,
      json: body({ file_key: 'nightly/missing.tar.gz', path: 'missing' }),
    })
    expect([res.status, res.body]).toEqual([
      400,
      { message: "File not found 'nightly/missing.tar.gz' in 'backups'" },
    ])
    expect(t.server.store.projects.byPath('root/missing')).toBeUndefined()
  })
})
