/*
 * export-project on a group against the reference server: `exclude`, `skip-unchanged-since` (a date,
 * and `last-run` across two runs), `encrypt-to` decrypted with Debian's `age` CLI, and manifest.json.
 * The server's clock starts three hours back, so the seed's projects are old; moving it on and
 * writing an issue moves one project's `last_activity_at` (GitLab moves it at most hourly).
 */
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBundle, whileRunning } from '../support/action-run.js'
import { tarGzMembers } from '../support/archive-members.js'
import { manualClock } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

const ALICE = 'glpat-alice-token'
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, token: ${ALICE} }
groups:
  - { path: acme, visibility: private, members: { alice: maintainer } }
  - { path: acme/platform, visibility: private }
projects:
  - path: acme/widgets
    issues: [ { title: Crash on start, author: alice } ]
  - { path: acme/gadgets }
  - { path: acme/old-stuff }
  - { path: acme/platform/api }
`
type Json = Record<string, unknown>
const HOUR = 3_600_000
let t: TestServer
let clock: ReturnType<typeof manualClock>
let seededAt: number
let dir: string
beforeEach(async () => {
  seededAt = Math.floor((Date.now() - 3 * HOUR) / 1000) * 1000
  clock = manualClock(new Date(seededAt).toISOString())
  t = await startServer(seed, { clock })
  dir = mkdtempSync(join(tmpdir(), 'gla-export-select-'))
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const exportGroup = (more: Record<string, string>, downloadDir = dir) =>
  runBundle('export-project', {
    'gitlab-url': t.baseUrl,
    token: ALICE,
    group: 'acme',
    'download-dir': downloadDir,
    'poll-interval': '50ms',
    'downloads-per-minute': '0',
    'exports-per-minute': '0',
    ...more,
  })
const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
const manifestOf = (d = dir) => JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')) as Json
const lastActivity = async (path: string) =>
  ((await t.http('GET', `/api/v4/projects/${encodeURIComponent(path)}`, { token: ALICE })).body as Json)
    .last_activity_at as string

const toNow = () => clock.advance(Date.now() - clock.now().getTime())

/** Moves the clock to `at` and writes an issue in `path`: its last_activity_at becomes `at`. */
async function touch(path: string, at: number) {
  clock.advance(at - clock.now().getTime())
  const made = await t.http('POST', `/api/v4/projects/${encodeURIComponent(path)}/issues`, {
    token: ALICE,
    json: { title: 'A change' },
  })
  expect(made.status).toBe(201)
  expect(await lastActivity(path)).toBe(new Date(at).toISOString())
}

describe('export-project: exclude and skip-unchanged-since on a group', () => {
  it('skips excluded and unchanged projects, says why, and lists them in the manifest', async () => {
    await touch('acme/widgets', seededAt + 2 * HOUR)
    const run = await exportGroup({
      exclude: 'acme/platform/**\nacme/old-*',
      'skip-unchanged-since': new Date(seededAt + HOUR).toISOString(),
    })
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(run.outputs['export-status']).toBe('finished')
    expect(JSON.parse(run.outputs.matrix as string)).toEqual(['acme/widgets'])
    const since = new Date(seededAt + HOUR).toISOString()
    const old = new Date(seededAt).toISOString()
    expect(JSON.parse(run.outputs.skipped as string)).toEqual([
      { project: 'acme/gadgets', reason: `unchanged since ${since} (last activity ${old})` },
      { project: 'acme/old-stuff', reason: "excluded by 'acme/old-*'" },
      { project: 'acme/platform/api', reason: "excluded by 'acme/platform/**'" },
    ])
    const archives = JSON.parse(run.outputs.archives as string) as Json[]
    expect(archives.map((a) => [a.project, a.status])).toEqual([
      ['acme/gadgets', 'skipped'],
      ['acme/old-stuff', 'skipped'],
      ['acme/platform/api', 'skipped'],
      ['acme/widgets', 'finished'],
    ])
    // Only the changed project's archive is written, beside the manifest and the state.
    expect(readdirSync(dir).sort()).toEqual([
      '.export-state.json',
      'acme_widgets_export.tar.gz',
      'manifest.json',
    ])
    expect(run.summary).toContain('1 of 1 finished, 3 skipped')
    expect(run.summary).toContain('excluded by &#39;acme/platform/**&#39;')

    const file = join(dir, 'acme_widgets_export.tar.gz')
    const ids = await Promise.all(
      ['acme/widgets', 'acme/gadgets'].map(
        async (p) =>
          ((await t.http('GET', `/api/v4/projects/${encodeURIComponent(p)}`, { token: ALICE })).body as Json)
            .id,
      ),
    )
    const version = ((await t.http('GET', '/api/v4/version', { token: ALICE })).body as Json).version
    expect(version).toMatch(/^18\.6\.0/)
    const manifest = manifestOf()
    expect(manifest).toMatchObject({ gitlab_url: t.baseUrl, gitlab_version: version })
    expect(manifest.projects).toEqual([
      {
        path: 'acme/widgets',
        id: ids[0],
        last_activity_at: new Date(seededAt + 2 * HOUR).toISOString(),
        status: 'finished',
        file: 'acme_widgets_export.tar.gz',
        size: statSync(file).size,
        sha256: sha256Of(file),
        encrypted: false,
        gitlab_version: version,
        exported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ])
    const skipped = manifest.skipped as Json[]
    expect(skipped.map((s) => [s.path, s.status, s.reason])).toEqual([
      ['acme/gadgets', 'skipped', `unchanged since ${since} (last activity ${old})`],
      ['acme/old-stuff', 'skipped', "excluded by 'acme/old-*'"],
      ['acme/platform/api', 'skipped', "excluded by 'acme/platform/**'"],
    ])
    expect(skipped[0]).toMatchObject({ id: ids[1], last_activity_at: old })
  })

  it('last-run: the first run exports all and records itself; the second exports only what changed', async () => {
    const first = await exportGroup({ 'skip-unchanged-since': 'last-run' })
    expect(first.code).toBe(0)
    expect(first.log).toContain(
      'no earlier successful run recorded (.export-state.json): exporting everything',
    )
    expect(JSON.parse(first.outputs.skipped as string)).toEqual([])
    const state = JSON.parse(readFileSync(join(dir, '.export-state.json'), 'utf8')) as Json
    expect(state.gitlab_url).toBe(t.baseUrl)
    const firstStart = Date.parse(state.started_at as string)
    expect(Math.abs(firstStart - Date.now())).toBeLessThan(60_000)

    // After the first run, a change to gadgets (its activity moves to now); the rest stay three hours old.
    await touch('acme/gadgets', Math.floor(Date.now() / 1000) * 1000)
    const second = await exportGroup({ 'skip-unchanged-since': 'last-run' })
    expect(second.log).not.toContain('::error::')
    expect(second.code).toBe(0)
    const cutoff = new Date(firstStart - HOUR).toISOString()
    expect(second.log).toContain(`skipping what is older than ${cutoff}`)
    const archives = JSON.parse(second.outputs.archives as string) as Json[]
    expect(archives.map((a) => [a.project, a.status])).toEqual([
      ['acme/gadgets', 'finished'],
      ['acme/old-stuff', 'skipped'],
      ['acme/platform/api', 'skipped'],
      ['acme/widgets', 'skipped'],
    ])
    // The skipped projects' archives of the first run are still there: the manifest still lists them.
    const widgets = join(dir, 'acme_widgets_export.tar.gz')
    expect(manifestOf().skipped).toEqual(
      ['acme/old-stuff', 'acme/platform/api', 'acme/widgets'].map((path) =>
        expect.objectContaining({
          path,
          status: 'skipped',
          file: expect.stringMatching(/_export\.tar\.gz$/),
        }),
      ),
    )
    expect((manifestOf().skipped as Json[])[2]).toMatchObject({
      file: 'acme_widgets_export.tar.gz',
      size: statSync(widgets).size,
      sha256: sha256Of(widgets),
      encrypted: false,
    })
    const moved = JSON.parse(readFileSync(join(dir, '.export-state.json'), 'utf8')) as Json
    expect(Date.parse(moved.started_at as string)).toBeGreaterThan(firstStart)
  })

  it('applies to projects given by path (looked up first), and to the list-only matrix', async () => {
    const listed = await exportGroup({ 'list-only': 'true', exclude: 'acme/*-stuff\nacme/platform/**' })
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.outputs.matrix as string)).toEqual(['acme/gadgets', 'acme/widgets'])
    expect(readdirSync(dir)).toEqual([])

    await touch('acme/widgets', seededAt + 2 * HOUR)
    const run = await exportGroup({
      group: '',
      project: 'acme/widgets\nacme/gadgets\nacme/old-stuff',
      exclude: 'acme/old-*',
      'skip-unchanged-since': new Date(seededAt + HOUR).toISOString().slice(0, 16) + 'Z',
    })
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.outputs.archives as string)).toMatchObject([
      { project: 'acme/widgets', status: 'finished' },
      { project: 'acme/gadgets', status: 'skipped', reason: expect.stringMatching(/^unchanged since /) },
      { project: 'acme/old-stuff', status: 'skipped', reason: "excluded by 'acme/old-*'" },
    ])
    const gadgets = (await t.http('GET', '/api/v4/projects/acme%2Fgadgets', { token: ALICE })).body as Json
    expect((manifestOf().skipped as Json[])[0]).toMatchObject({ path: 'acme/gadgets', id: gadgets.id })
  })

  it('refuses a skip-unchanged-since that is neither a date nor last-run', async () => {
    for (const since of ['yesterday', '2026-13-45', '01/11/2026']) {
      const run = await exportGroup({ 'skip-unchanged-since': since })
      expect(run.code).toBe(1)
      expect(run.log).toContain(
        "::error::Input 'skip-unchanged-since' must be last-run or an ISO 8601 date such as 2026-11-01 or 2026-11-01T10:00:00Z",
      )
    }
    expect(readdirSync(dir)).toEqual([])
  })

  it('a run in which an export fails leaves the state as it was', async () => {
    const first = await exportGroup({})
    expect(first.code).toBe(0)
    const before = readFileSync(join(dir, '.export-state.json'), 'utf8')
    // bob is no member: his export of a private project fails (404), and the state does not move.
    const failed = await runBundle('export-project', {
      'gitlab-url': t.baseUrl,
      token: 'glpat-bob-token',
      project: 'acme/widgets',
      'download-dir': dir,
      'skip-unchanged-since': 'last-run',
    })
    expect(failed.code).toBe(1)
    expect(readFileSync(join(dir, '.export-state.json'), 'utf8')).toBe(before)
    expect((manifestOf().projects as Json[])[0]).toMatchObject({ path: 'acme/widgets', status: 'failed' })
  })
})

describe('export-project: encrypt-to', () => {
  it('stores only the age-encrypted archive; the age CLI decrypts it to the archive the manifest hashes', async () => {
    toNow() // the action checks that the export it downloads is no older than its request
    execFileSync('age-keygen', ['-o', join(dir, 'key.txt')], { stdio: 'ignore' })
    const recipient = execFileSync('age-keygen', ['-y', join(dir, 'key.txt')], { encoding: 'utf8' }).trim()
    const out = join(dir, 'out')
    const run = await exportGroup({ group: '', project: 'acme/widgets', 'encrypt-to': recipient }, out)
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    const file = join(out, 'acme_widgets_export.tar.gz.age')
    expect(readdirSync(out).sort()).toEqual([
      '.export-state.json',
      'acme_widgets_export.tar.gz.age',
      'manifest.json',
    ])
    expect(readFileSync(file).subarray(0, 21).toString()).toBe('age-encryption.org/v1')
    expect(run.outputs).toMatchObject({ 'archive-path': file, sha256: sha256Of(file) })
    expect(run.log).toMatch(/VERSION 0\.2\.4, \d+ entries, sha256 [0-9a-f]{64}, encrypted to 1 age recipient/)

    const plain = execFileSync('age', ['-d', '-i', join(dir, 'key.txt'), file])
    const [entry] = manifestOf(out).projects as Json[]
    expect(entry).toMatchObject({
      path: 'acme/widgets',
      file: 'acme_widgets_export.tar.gz.age',
      size: statSync(file).size,
      sha256: sha256Of(file),
      encrypted: true,
      archive_size: plain.length,
      archive_sha256: createHash('sha256').update(plain).digest('hex'),
    })

    // The same project exported again without encryption (a minute on: GitLab allows one download a
    // minute) holds the same members and issues.
    clock.advance(61_000)
    const clear = await exportGroup({ group: '', project: 'acme/widgets' }, join(dir, 'clear'))
    expect(clear.log).not.toContain('::error::')
    expect(clear.code).toBe(0)
    const a = await tarGzMembers(plain)
    const b = await tarGzMembers(readFileSync(clear.outputs['archive-path'] as string))
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort())
    const version = [...a].find(([k]) => k.replace(/^\.\//, '') === 'VERSION')?.[1]
    expect(version?.body.trim()).toBe('0.2.4')
    const issues = [...a.keys()].find((k) => k.endsWith('issues.ndjson')) as string
    expect(a.get(issues)?.body).toContain('Crash on start')
    expect(a.get(issues)?.body).toBe(b.get(issues)?.body)
  })

  it('writes only ciphertext while it downloads, and leaves no file when cancelled midway', async () => {
    toNow()
    execFileSync('age-keygen', ['-o', join(dir, 'key.txt')], { stdio: 'ignore' })
    const recipient = execFileSync('age-keygen', ['-y', join(dir, 'key.txt')], { encoding: 'utf8' }).trim()
    // An archive of several of age's 64 KiB chunks (an incompressible description), downloaded slowly.
    const big = await t.http('POST', '/api/v4/projects/acme%2Fwidgets/issues', {
      token: ALICE,
      json: { title: 'Big', description: randomBytes(225_000).toString('base64') },
    })
    expect(big.status).toBe(201)
    const slow = await t.http('POST', '/-/emulator/faults', {
      token: 'glpat-root-token',
      json: {
        method: 'GET',
        path: '/api/v4/projects/acme%2Fwidgets/export/download',
        action: 'slow_body',
        bytes_per_second: 65_536,
      },
    })
    expect(slow.status).toBe(201)
    const out = join(dir, 'out')
    const part = join(out, 'acme_widgets_export.tar.gz.age.part')
    let seen: string[] = []
    let head = ''
    const run = await runBundle(
      'export-project',
      {
        'gitlab-url': t.baseUrl,
        token: ALICE,
        project: 'acme/widgets',
        'download-dir': out,
        'poll-interval': '50ms',
        'downloads-per-minute': '0',
        'exports-per-minute': '0',
        'encrypt-to': recipient,
      },
      {
        during: async (child) => {
          await whileRunning(
            child,
            () => undefined,
            20,
            () => existsSync(part) && statSync(part).size > 1024,
          )
          seen = readdirSync(out)
          head = readFileSync(part).subarray(0, 21).toString()
          child.kill('SIGINT')
        },
      },
    )
    expect(seen).toEqual(['acme_widgets_export.tar.gz.age.part'])
    expect(head).toBe('age-encryption.org/v1')
    expect(run.code).not.toBe(0)
    expect(readdirSync(out)).toEqual([])
  })

  it('refuses a recipient that is not one, and encryption with upload-url, exporting nothing', async () => {
    const bad = await exportGroup({ 'encrypt-to': 'age1notakey' })
    expect(bad.code).toBe(1)
    expect(bad.log).toContain("::error::Input 'encrypt-to': 'age1notakey' is not an age recipient (age1...)")
    const upload = await exportGroup({
      group: '',
      project: 'acme/widgets',
      'upload-url': 'https://uploads.example/x',
      'encrypt-to': 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p',
    })
    expect(upload.code).toBe(1)
    expect(upload.log).toContain("'encrypt-to' cannot be used with 'upload-url'")
    expect(existsSync(dir) && readdirSync(dir)).toEqual([])
    const exports = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/export', { token: ALICE })
    expect((exports.body as Json).export_status).toBe('none')
  })
})
