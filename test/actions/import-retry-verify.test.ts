import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { runBundle } from '../support/action-run.js'
import { exportSettled } from '../support/imports.js'
import { failIssuesDuringImport } from '../support/relation-faults.js'
import { startServer, type TestServer } from '../support/server.js'
import { widgetsSeed } from '../support/seeds.js'

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // maintainer of group acme, no administrator
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

let t: TestServer
let dir: string
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})
const start = async (options: { gitlabVersion?: string } = {}) => {
  dir = mkdtempSync(join(tmpdir(), 'gla-import-retry-'))
  t = await startServer(widgetsSeed, { data: join(dir, 'data'), ...options })
}

/** acme/widgets exported by the server, as export-project would download it. */
async function exportWidgets(): Promise<string> {
  await t.http('POST', `${P}/export`, { token: ROOT })
  await exportSettled(t, P, ROOT)
  const dl = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
  const archive = join(dir, 'widgets.tar.gz')
  writeFileSync(archive, Buffer.from(await dl.body.arrayBuffer()))
  return archive
}
const titles = async (project: string) =>
  (
    (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/issues`, { token: ROOT }))
      .body as Json[]
  )
    .map((i) => i.title)
    .sort()
const importInputs = (archive: string, more: Record<string, string>) => ({
  'gitlab-url': t.baseUrl,
  token: ROOT,
  archive,
  namespace: 'acme',
  'poll-interval': '50ms',
  ...more,
})

describe('import-project retry-failed-relations and verify', () => {
  it('re-imports the issues that failed, then verifies the project against the archive', async () => {
    await start()
    const archive = await exportWidgets()
    const source = await titles('acme/widgets')
    const fault = failIssuesDuringImport(join(dir, 'data'))
    let run
    try {
      run = await runBundle(
        'import-project',
        importInputs(archive, {
          path: 'restored',
          'retry-failed-relations': 'true',
          verify: 'true',
          'fail-on-failed-relations': 'true',
        }),
        { killAfterMs: 60_000 },
      )
    } finally {
      fault.remove()
    }
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({
      'import-status': 'finished',
      'failed-relations': String(source.length),
      'recovered-relations': 'issues',
      'still-failed-relations': '',
      'verify-result': 'match',
      'verify-differences': '0',
    })
    expect(await titles('acme/restored')).toEqual(source)
    expect(run.log).toContain('Re-importing the issues of acme/restored')
    expect(run.summary).toContain('Relation retries (retry-failed-relations)')
    expect(run.summary).toMatch(/<td>issues<\/td><td>recovered<\/td><td>finished<\/td>/)
    expect(run.summary).toContain('Verify: the project matches the archive')
    expect(run.summary).toContain('not checked: this GitLab lists no merge requests (404)')
  })

  it('verify reports what the project lacks, and fails the step with fail-on-failed-relations', async () => {
    await start()
    const archive = await exportWidgets()
    // A non-administrator's import maps no members (GitLab's MembersMapper): bob, in the archive, is missing.
    const run = await runBundle(
      'import-project',
      importInputs(archive, {
        token: ALICE,
        path: 'checked',
        verify: 'true',
        'fail-on-failed-relations': 'true',
      }),
      { killAfterMs: 60_000 },
    )
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({
      'import-status': 'finished',
      'failed-relations': '0',
      'verify-result': 'differ',
      'verify-differences': '1',
    })
    expect(run.log).toContain(
      "::error::acme/checked differs from the archive in 1 of 6 kinds ('verify', 'fail-on-failed-relations')",
    )
    expect(run.summary).toMatch(
      /<td>members<\/td><td>\d+<\/td><td>\d+<\/td><td>differs<\/td><td>[^<]*bob[^<]*<\/td>/,
    )
    expect(run.summary).toMatch(/<td>issues<\/td><td>(\d+)<\/td><td>\1<\/td><td>matches<\/td>/)
  })

  it('says where the release has no import-relation, and reports the issues as still failed', async () => {
    await start({ gitlabVersion: '16.10.0' })
    const archive = await exportWidgets()
    const fault = failIssuesDuringImport(join(dir, 'data'))
    let run
    try {
      run = await runBundle(
        'import-project',
        importInputs(archive, { path: 'old', 'retry-failed-relations': 'true' }),
        { killAfterMs: 60_000 },
      )
    } finally {
      fault.remove()
    }
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ 'recovered-relations': '', 'still-failed-relations': 'issues' })
    const why =
      'GitLab 16.10.0-ee has no single relation import (POST /projects/import-relation is GitLab 16.11+)'
    expect(run.log).toContain(`::warning::retry-failed-relations: ${why}`)
    expect(run.summary).toContain(`Not retried: ${why}.`)
    expect(await titles('acme/old')).toEqual([])
  })
})
