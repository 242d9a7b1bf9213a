/*
 * docs/actions.md's restore drill, run as written (the repository's actions in place of
 * owner/gitlab-actions/...@v1) through the composite action.yml files and the bundles, against the
 * reference server: export, import into the scratch namespace with verify, delete, and the summary's verdict.
 * Needs dist/ (`npm run bundle`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { failIssuesDuringImport } from '../support/relation-faults.js'
import { startServer, type TestServer } from '../support/server.js'
import { runJob } from '../support/workflow-runner.js'

const root = resolve(__dirname, '../..')
const ROOT = 'glpat-root-token'
type Json = Record<string, unknown>
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: glpat-alice-token }
groups:
  - { path: acme, visibility: private, members: { alice: maintainer } }
  - { path: acme/restore-drills, visibility: private }
projects:
  - path: acme/widgets
    members: { alice: developer }
    labels: [ { name: bug, color: "#d9534f" }, { name: docs, color: "#f0ad4e" } ]
    milestones: [ { title: v1.0, state: active } ]
    issues:
      - { title: Crash on start, author: alice, labels: [bug], milestone: v1.0 }
      - { title: Write the guide, author: alice, labels: [docs] }
      - { title: Closed long ago, author: alice, state: closed }
`

let t: TestServer
let dir: string
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Writes the recipe of docs/actions.md, with the local actions, where runJob reads it. */
function recipe(): string {
  const doc = readFileSync(resolve(root, 'docs/actions.md'), 'utf8')
  const yaml = /### Restore drill[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? ''
  expect(yaml).toContain('uses: owner/gitlab-actions/actions/import-project@v1')
  mkdirSync(resolve(root, 'build'), { recursive: true })
  writeFileSync(
    resolve(root, 'build/restore-drill.yml'),
    yaml.replace(/owner\/gitlab-actions\/(actions\/[\w-]+)@v1/g, './$1'),
  )
  return 'build/restore-drill.yml'
}
const drill = () =>
  runJob(root, recipe(), 'drill', { GITLAB_URL: t.baseUrl, GITLAB_TOKEN: ROOT }, { runSteps: true })
const scratch = async () =>
  (await t.http('GET', '/api/v4/groups/acme%2Frestore-drills/projects', { token: ROOT })).body as Json[]

describe("docs/actions.md's restore drill", () => {
  it('restores last night’s backup into the scratch namespace, verifies it, deletes it, and says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gla-drill-'))
    t = await startServer(seed, { data: join(dir, 'data') })
    // The issues fail while the import runs (a database timeout): retry-failed-relations brings them back.
    const fault = failIssuesDuringImport(join(dir, 'data'))
    let steps
    try {
      steps = await drill()
    } finally {
      fault.remove()
    }
    const log = steps.map((s) => `${s.label}: ${s.code}\n${s.log}`).join('\n')
    expect(steps.map((s) => [s.label, s.code])).toEqual([
      ['backup', 0],
      ['restore', 0],
      ['Delete the scratch project', 0],
      ['Say whether the backup restores', 0],
    ])
    const restore = steps[1]!
    expect(restore.outputs).toMatchObject({
      'project-path': 'acme/restore-drills/widgets-drill',
      'import-status': 'finished',
      'failed-relations': '3',
      'recovered-relations': 'issues',
      'verify-result': 'match',
    })
    const summary = steps.at(-1)!.summary ?? ''
    expect(summary).toContain('Verify: the project matches the archive')
    expect(summary.trim().split('\n').at(-1)).toBe(
      "✅ Last night's backup restores: the import finished and matches the archive.",
    )
    // The scratch project is gone, not only marked (GitLab 18.6 delays deletion).
    expect(await scratch()).toEqual([])
    const gone = await t.http('GET', `/api/v4/projects/${restore.outputs['project-id']}`, { token: ROOT })
    expect(gone.status).toBe(404)
    expect(
      log
        .split('\n')
        .filter((l) => !l.startsWith('::add-mask::'))
        .join('\n'),
    ).not.toContain(ROOT)
  })

  it('says the backup does not restore when relations stay failed (GitLab 16.10: no import-relation), and still deletes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gla-drill-'))
    t = await startServer(seed, { data: join(dir, 'data'), gitlabVersion: '16.10.0' })
    const fault = failIssuesDuringImport(join(dir, 'data'))
    let steps
    try {
      steps = await drill()
    } finally {
      fault.remove()
    }
    expect(steps.map((s) => [s.label, s.code])).toEqual([
      ['backup', 0],
      ['restore', 1],
      ['Delete the scratch project', 0],
      ['Say whether the backup restores', 1],
    ])
    expect(steps[1]!.outputs).toMatchObject({ 'verify-result': 'differ', 'still-failed-relations': 'issues' })
    expect(steps.at(-1)!.summary?.trim().split('\n').at(-1)).toBe(
      "❌ Last night's backup does not restore (import: finished, verify: differ, still failed: issues).",
    )
    expect(await scratch()).toEqual([])
  })
})
