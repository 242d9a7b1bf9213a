/*
 * GitLab's per-minute limits on export, download and import, met by the committed bundles: a 429 is
 * waited out to the next minute of GitLab's clock (by the answer's Date), then the step goes on.
 * The server's clock stands at hh:mm:59 until the action says it waits; the test then moves it into
 * the next minute, so the action waits about two seconds, not a minute.
 */
import type { ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '../../src/api/client.js'
import type { TransferOptions } from '../../src/server/start/open-state.js'
import { runBundle, whileRunning } from '../support/action-run.js'
import { manualClock } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

const ALICE = 'glpat-alice-token'
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, token: ${ALICE} }
groups: [ { path: acme, members: { alice: maintainer } } ]
projects: [ { path: acme/widgets, issues: [ { title: One, author: alice } ] } ]
`
let t: TestServer | undefined
let clock: ReturnType<typeof manualClock>
let dir: string
beforeEach(() => {
  // The last second of a minute that has not begun yet: export times stay after the run's start.
  const minute = Math.ceil(Date.now() / 60_000) * 60_000
  clock = manualClock(new Date(minute + 59_000).toISOString())
  dir = mkdtempSync(join(tmpdir(), 'gla-limits-'))
})
afterEach(async () => {
  await t?.close()
  rmSync(dir, { recursive: true, force: true })
})
const serve = async (rateLimits: TransferOptions['rateLimits']) => {
  t = await startServer(seed, { clock, transfers: { rateLimits } })
  return t.baseUrl
}

/** Moves the server's clock into the next minute once the action logs that it waits for `limit`. */
const nextMinuteWhenWaiting = (limit: RegExp) => async (child: ChildProcess) => {
  let log = ''
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  await whileRunning(
    child,
    () => undefined,
    20,
    () => limit.test(log),
  )
  clock.advance(2000)
}
const exportWidgets = (url: string, during?: (child: ChildProcess) => Promise<void>) =>
  runBundle(
    'export-project',
    {
      'gitlab-url': url,
      token: ALICE,
      project: 'acme/widgets',
      'download-dir': dir,
      'poll-interval': '50ms',
    },
    { during, killAfterMs: 40_000 },
  )
const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('export-project waits out GitLab’s per-minute limits', () => {
  it('two downloads of a project within a minute both succeed, the second after waiting', async () => {
    const url = await serve({ project_download_export: 1 })
    const first = await exportWidgets(url)
    expect(first.log).not.toContain('::error::')
    expect(first.code).toBe(0)
    const second = await exportWidgets(
      url,
      nextMinuteWhenWaiting(/waiting \d+ s for GitLab's export download/),
    )
    expect(second.log).not.toContain('::error::')
    expect(second.log).toContain("acme/widgets: waiting 2 s for GitLab's export download limit (429)")
    expect(second.code).toBe(0)
    expect(second.outputs['export-status']).toBe('finished')
    const file = join(dir, 'acme_widgets_export.tar.gz')
    expect(second.outputs.sha256).toBe(sha256Of(file))
    expect(second.log).toMatch(/acme\/widgets: downloaded .* \(VERSION 0\.2\.4/)
  }, 90_000)

  it('a second export scheduled within the minute waits for the export limit, then goes on', async () => {
    const url = await serve({ project_export: 1, project_download_export: 0 })
    expect((await exportWidgets(url)).code).toBe(0)
    const second = await exportWidgets(url, nextMinuteWhenWaiting(/waiting \d+ s for GitLab's export limit/))
    expect(second.log).not.toContain('::error::')
    expect(second.log).toContain("acme/widgets: waiting 2 s for GitLab's export limit (429)")
    expect(second.code).toBe(0)
    expect(second.outputs.sha256).toBe(sha256Of(join(dir, 'acme_widgets_export.tar.gz')))
  }, 90_000)
})

describe('export-project: a limit that outlasts timeout', () => {
  it('advises only what applies: lowering a per-minute input that paces, or turning pacing on', async () => {
    const url = await serve({ project_export: 1, project_download_export: 0 })
    expect((await exportWidgets(url)).code).toBe(0)
    const again = (more: Record<string, string>) =>
      runBundle('export-project', {
        'gitlab-url': url,
        token: ALICE,
        project: 'acme/widgets',
        'download-dir': dir,
        timeout: '1s',
        ...more,
      })
    const unpaced = await again({ 'exports-per-minute': '0' })
    expect(unpaced.code).toBe(1)
    expect(unpaced.log).toContain(
      "::warning::acme/widgets: GitLab's export limit (429) would still hold at 'timeout': raise 'timeout', or set 'exports-per-minute' to pace them (0: no pacing)",
    )
    expect(unpaced.log).not.toContain('lower')
    const paced = await again({ 'exports-per-minute': '6' })
    expect(paced.log).toContain(
      "::warning::acme/widgets: GitLab's export limit (429) would still hold at 'timeout': raise 'timeout', or lower 'exports-per-minute' (6)",
    )
  }, 90_000)
})

describe('import-project waits out GitLab’s import limit', () => {
  it('a second import within the minute waits, then both projects exist', async () => {
    const url = await serve({ project_import: 1 })
    const gitlab = createClient({ baseUrl: url, token: ALICE })
    await gitlab.projectExports.schedule('acme/widgets')
    await gitlab.projectExports.waitForExport('acme/widgets', { intervalMs: 20 })
    const archive = join(dir, 'widgets.tar.gz')
    await gitlab.projectExports.downloadTo('acme/widgets', archive)
    const importAs = (path: string, during?: (child: ChildProcess) => Promise<void>) =>
      runBundle(
        'import-project',
        { 'gitlab-url': url, token: ALICE, archive, path, namespace: 'acme', 'poll-interval': '50ms' },
        { during, killAfterMs: 40_000 },
      )
    expect((await importAs('one')).code).toBe(0)
    const second = await importAs('two', nextMinuteWhenWaiting(/waiting \d+ s for GitLab's import limit/))
    expect(second.log).not.toContain('::error::')
    expect(second.log).toContain("waiting 2 s for GitLab's import limit (429)")
    expect(second.code).toBe(0)
    expect(second.outputs['import-status']).toBe('finished')
    for (const path of ['acme/one', 'acme/two'])
      expect((await gitlab.projects.get(path)).path_with_namespace).toBe(path)
    await gitlab.close()
  }, 90_000)
})
