import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../support/server.js'
import S3rver from 's3rver'
import { request } from 'undici'
import { formatBytes } from '../../src/actions/connection.js'
import { cannedServer } from '../api/canned-server.js'
import { runBundle } from '../support/action-run.js'

const ROOT_TOKEN = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT_TOKEN} }
  - { username: alice, token: ${ALICE} }
  - { username: bob, token: glpat-bob-token }
groups:
  - { path: acme, visibility: private, members: { alice: maintainer } }
  - { path: acme/platform, visibility: private }
  - { path: target, visibility: private, members: { alice: maintainer } }
projects:
  - path: acme/widgets
    labels: [ { name: bug, color: "#d9534f" } ]
    issues: [ { title: Crash on start, author: alice, labels: [bug] }, { title: Second, author: alice } ]
  - { path: acme/gadgets }
  - { path: acme/platform/api }
  - { path: acme/old, archived: true }
`
type Json = Record<string, unknown>
let t: TestServer
let dir: string
beforeEach(async () => {
  t = await startServer(seed)
  dir = mkdtempSync(join(tmpdir(), 'gla-export-'))
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const exportInputs = (more: Record<string, string>) => ({
  'gitlab-url': t.baseUrl,
  token: ALICE,
  'download-dir': dir,
  'poll-interval': '50ms',
  'downloads-per-minute': '0',
  'exports-per-minute': '0',
  ...more,
})
const noSecrets = (log: string) => {
  const shown = log
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')
  for (const s of [ROOT_TOKEN, ALICE]) expect(shown).not.toContain(s)
}

describe('export-project bundle', () => {
  it('exports one project: a verified archive, its size and sha256, and a summary', async () => {
    const run = await runBundle('export-project', exportInputs({ project: 'acme/widgets' }))
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    const file = join(dir, 'acme_widgets_export.tar.gz')
    expect(run.outputs).toMatchObject({ 'archive-path': file, 'export-status': 'finished' })
    expect(run.outputs['archive-size']).toBe(String(statSync(file).size))
    expect(run.outputs.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'))
    expect(JSON.parse(run.outputs.matrix as string)).toEqual(['acme/widgets'])
    expect(JSON.parse(run.outputs.archives as string)).toEqual([
      {
        project: 'acme/widgets',
        status: 'finished',
        path: file,
        size: statSync(file).size,
        sha256: run.outputs.sha256,
      },
    ])
    expect(run.log).toMatch(/downloaded .* \(VERSION 0\.2\.4, \d+ entries, sha256 [0-9a-f]{64}\)/)
    expect(run.summary).toContain('1 of 1 finished')
    noSecrets(run.log)
  })

  it('exports every readable project of a group, bounded, skipping archived ones', async () => {
    const run = await runBundle('export-project', exportInputs({ group: 'acme', concurrency: '2' }))
    expect(run.code).toBe(0)
    expect(JSON.parse(run.outputs.matrix as string)).toEqual([
      'acme/gadgets',
      'acme/platform/api',
      'acme/widgets',
    ])
    const archives = JSON.parse(run.outputs.archives as string) as Json[]
    expect(archives.map((a) => [a.project, a.status])).toEqual([
      ['acme/gadgets', 'finished'],
      ['acme/platform/api', 'finished'],
      ['acme/widgets', 'finished'],
    ])
  })

  it('list-only sets the matrix and exports nothing', async () => {
    const run = await runBundle(
      'export-project',
      exportInputs({ group: 'acme', 'include-archived': 'true', 'list-only': 'true' }),
    )
    expect(run.code).toBe(0)
    expect(JSON.parse(run.outputs.matrix as string)).toEqual([
      'acme/gadgets',
      'acme/old',
      'acme/platform/api',
      'acme/widgets',
    ])
    expect(run.outputs['archive-path']).toBeUndefined()
  })

  it('fails with a message to act on: bad token, missing project, missing group, no rights', async () => {
    const bad = await runBundle(
      'export-project',
      exportInputs({ project: 'acme/widgets', token: 'glpat-wrong' }),
    )
    expect(bad.code).toBe(1)
    expect(bad.log).toContain('GitLab refused the token (401')
    expect(bad.outputs['export-status']).toBe('failed')
    const missing = await runBundle('export-project', exportInputs({ project: 'acme/nope' }))
    expect(missing.log).toContain(
      "::error::1 of 1 export(s) failed: acme/nope (project 'acme/nope' not found, or the token cannot see it (404))",
    )
    const group = await runBundle('export-project', exportInputs({ group: 'nope' }))
    expect(group.log).toContain("::error::Group 'nope' not found on")
    const both = await runBundle('export-project', exportInputs({ group: 'acme', project: 'acme/x' }))
    expect(both.log).toContain("::error::Give either 'project' or 'group', not both")
    noSecrets(bad.log + missing.log)
  })
})

describe('export-project with upload-url', () => {
  let s3: S3rver
  let s3Port: number
  let local: TestServer
  beforeEach(async () => {
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(dir, 's3'),
      configureBuckets: [{ name: 'backups', configs: [] }],
    })
    s3Port = (await s3.run()).port
    local = await startServer(seed, { allowLocalRequests: true })
  })
  afterEach(async () => {
    await local.close()
    await s3.close()
  })

  it('GitLab uploads the archive (its status falls back to none) and the step reports what the target holds', async () => {
    const target = `http://127.0.0.1:${s3Port}/backups/nightly/widgets.tar.gz?X-Amz-Signature=abc`
    const run = await runBundle(
      'export-project',
      exportInputs({ 'gitlab-url': local.baseUrl, project: 'acme/widgets', 'upload-url': target }),
    )
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(run.outputs['export-status']).toBe('finished')
    const held = await request(target.replace(/\?.*/, ''))
    const body = Buffer.from(await held.body.arrayBuffer())
    expect([held.statusCode, body.subarray(0, 2).toString('hex')]).toEqual([200, '1f8b'])
    const size = formatBytes(body.length)
    expect(run.log).toContain(
      `GitLab uploaded the archive with PUT; the upload target holds ${size} at that address (HEAD 200)`,
    )
    expect(run.summary).toContain(`uploaded by GitLab; the upload target holds ${size}`)
    const shown = run.log.split('\n').filter((l) => !l.startsWith('::add-mask::'))
    expect(shown.join('\n')).not.toContain('X-Amz-Signature=abc')
  })

  it('a target that refuses HEAD (a URL signed for PUT only) is reported, and the export still counts', async () => {
    const target = await cannedServer((req, res) => res.writeHead(req.method === 'PUT' ? 200 : 403).end())
    try {
      const run = await runBundle(
        'export-project',
        exportInputs({
          'gitlab-url': local.baseUrl,
          project: 'acme/widgets',
          'upload-url': `${target.origin}/x?sig=1`,
        }),
      )
      expect(run.code).toBe(0)
      expect(target.seen.map((r) => r.method)).toEqual(['PUT', 'HEAD'])
      expect(run.log).toContain(
        'the upload target could not be checked (HEAD answered 403; pre-signed URLs are often signed for one method only)',
      )
    } finally {
      await target.close()
    }
  })
})

describe('import-project bundle', () => {
  const exportOne = async () => {
    const run = await runBundle('export-project', exportInputs({ project: 'acme/widgets' }))
    expect(run.code).toBe(0)
    return run.outputs['archive-path'] as string
  }

  it('imports an exported archive as a new project and waits for it', async () => {
    const archive = await exportOne()
    const run = await runBundle('import-project', {
      'gitlab-url': t.baseUrl,
      token: ALICE,
      archive,
      path: 'widgets-copy',
      namespace: 'target',
      'override-params': 'description: restored by the action',
      'poll-interval': '50ms',
    })
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({
      'project-path': 'target/widgets-copy',
      'import-status': 'finished',
      'import-error': '',
      'failed-relations': '0',
    })
    const issues = await t.http('GET', '/api/v4/projects/target%2Fwidgets-copy/issues', { token: ALICE })
    expect((issues.body as Json[]).map((i) => i.title).sort()).toEqual(['Crash on start', 'Second'])
    const project = await t.http('GET', `/api/v4/projects/${run.outputs['project-id']}`, { token: ALICE })
    expect((project.body as Json).description).toBe('restored by the action')
    expect(run.summary).toContain('target/widgets-copy')
    noSecrets(run.log)
  })

  it('fails on a broken archive with GitLab’s import error', async () => {
    const broken = join(dir, 'broken.tar.gz')
    writeFileSync(broken, 'not a gzip file at all')
    const run = await runBundle('import-project', {
      'gitlab-url': t.baseUrl,
      token: ALICE,
      archive: broken,
      path: 'broken',
      'poll-interval': '50ms',
    })
    expect(run.code).toBe(1)
    expect(['failed', '']).toContain(run.outputs['import-status'] ?? '')
    expect(run.log).toMatch(/::error::(The import of .* failed: |GitLab refused the import)/)
  })

  it('checks the source inputs and the rights on the namespace', async () => {
    const none = await runBundle('import-project', { 'gitlab-url': t.baseUrl, token: ALICE, path: 'x' })
    expect(none.log).toContain("::error::Give exactly one source: 'archive', 'url', or the s3-* inputs")
    const archive = await exportOne()
    const denied = await runBundle('import-project', {
      'gitlab-url': t.baseUrl,
      token: 'glpat-bob-token',
      archive,
      path: 'nope',
      namespace: 'target',
    })
    expect(denied.code).toBe(1)
    expect(denied.log).toContain("GitLab refused the import into namespace 'target'")
  })
})
