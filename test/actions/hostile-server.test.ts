import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cannedServer, json, type Canned } from '../api/canned-server.js'
import { runBundle, type BundleRun } from '../support/action-run.js'

/*
 * A hostile GitLab: fields the reference server builds itself (`web_url`, `path_with_namespace`,
 * a group's project paths, `import_error`) carry workflow commands. A canned third-party server is
 * the only way to send them; the actions must log and output them as inert single lines.
 */
const HOSTILE =
  '\n::warning file=x::injected\n::add-mask::Pipeline\n::stop-commands::TOKEN\n' +
  ' ##[set-output name=web-url]https://evil.example/$(id)'
const TOKEN = 'glpat-hostile-test-token'

let gitlab: Canned
let dir: string
/** Fields of the trigger's answer a test makes hostile too. */
let pipeline: Record<string, unknown> = {}
beforeEach(async () => {
  pipeline = {}
  dir = mkdtempSync(join(tmpdir(), 'gla-hostile-'))
  gitlab = await cannedServer((req, res) => {
    const url = req.url ?? ''
    const at = (path: string) => url.split('?')[0] === `/api/v4${path}`
    if (req.method === 'POST' && at('/projects/acme%2Fapp/trigger/pipeline'))
      return json(res, 201, {
        id: 7,
        iid: 3,
        project_id: 1,
        sha: 'a'.repeat(40),
        ref: 'main',
        status: 'created',
        source: 'trigger',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        web_url: `${gitlab.origin}/acme/app/-/pipelines/7${HOSTILE}`,
        ...pipeline,
      })
    if (req.method === 'POST' && at('/projects/import'))
      return json(res, 201, {
        id: 9,
        path: 'x',
        path_with_namespace: `acme/x${HOSTILE}`,
        import_status: 'failed',
        import_error: `Import failed${HOSTILE}`,
        failed_relations: [],
      })
    if (at('/projects/acme%2Fbad/export')) return json(res, 400, { message: `Export refused${HOSTILE}` })
    if (req.method === 'GET' && at('/projects/acme%2Fbad'))
      return json(res, 200, {
        id: 2,
        path_with_namespace: 'acme/bad',
        last_activity_at: '2026-01-01T00:00:00Z',
      })
    if (req.method === 'GET' && at('/groups/acme/projects'))
      return json(res, 200, [{ id: 1, path: 'x', path_with_namespace: `acme/x${HOSTILE}` }])
    json(res, 404, { message: '404 Not Found' })
  })
})
afterEach(async () => {
  await gitlab.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * Lines the runner would take as workflow commands that the server, not the action, wrote: `::`
 * first, or the older `##[` anywhere in the line.
 */
const injected = (run: BundleRun) =>
  run.log
    .split(/\r\n|\r|\n/)
    .filter((l) => /^\s*::(warning file=x|add-mask::Pipeline|stop-commands)/.test(l) || l.includes('##['))
const singleLines = (outputs: Record<string, string>) =>
  Object.entries(outputs).filter(([, v]) => /[\r\n]/.test(v))

const trigger = () =>
  runBundle('trigger-pipeline', {
    'gitlab-url': gitlab.origin,
    project: 'acme/app',
    token: 'glptt-hostile',
    wait: 'false',
  })

describe('a hostile server', () => {
  it('trigger-pipeline: web_url injects no command, and is not an output', async () => {
    const run = await trigger()
    expect(run.code).toBe(0)
    expect(injected(run)).toEqual([])
    expect(run.log).toContain('::add-mask::Pipeline') // shown, escaped, inside an info line
    expect(run.outputs['web-url']).toBeUndefined()
    expect(run.summary).not.toContain('<a href=')
    expect(run.log).toContain(
      `::warning::Output 'web-url' not set: GitLab's web_url is not a plain http(s) address on ${new URL(gitlab.origin).host}`,
    )
    expect(singleLines(run.outputs)).toEqual([])
  })

  it('trigger-pipeline: sha and status that are not a SHA and a status word are left out, and `##[` reaches neither log nor summary', async () => {
    pipeline = { sha: `${'a'.repeat(40)}$(id)${HOSTILE}`, status: `created${HOSTILE}` }
    const run = await trigger()
    expect(run.code).toBe(0)
    expect(injected(run)).toEqual([])
    expect(run.log).toContain('##\\[set-output name=web-url]https://evil.example/$(id)') // shown, inert
    expect(run.outputs).toEqual({ 'pipeline-id': '7', 'pipeline-iid': '3' })
    expect(run.log).toContain(
      "::warning::Output 'sha' not set: GitLab's sha is not a commit SHA (40 or 64 hex digits)",
    )
    expect(run.log).toContain(
      "::warning::Output 'status' not set: GitLab's status is not a status word (a-z and _)",
    )
    expect(run.summary).toContain('##&#91;set-output')
    expect(run.summary).not.toContain('##[')
  })

  it('import-project: path_with_namespace and import_error inject no command, and outputs are one line', async () => {
    const archive = join(dir, 'a.tar.gz')
    writeFileSync(archive, 'archive')
    const run = await runBundle('import-project', {
      'gitlab-url': gitlab.origin,
      token: TOKEN,
      archive,
      path: 'x',
      wait: 'false',
    })
    expect(injected(run)).toEqual([])
    // Not a GitLab path: left out, as web-url is, and a warning says why.
    expect(run.outputs['project-path']).toBeUndefined()
    expect(run.log).toContain(
      "::warning::Output 'project-path' not set: GitLab's path_with_namespace is not a GitLab path (group/project)",
    )
    expect(run.outputs['import-error']).toMatch(/^Import failed\\n::warning/)
    expect(run.outputs['import-error']).toContain(' ##\\[set-output name=web-url]')
    expect(run.summary).not.toContain('##[')
    expect(singleLines(run.outputs)).toEqual([])
  })

  it("export-project: a group's project paths inject no command in list-only, nor reach the matrix", async () => {
    const run = await runBundle('export-project', {
      'gitlab-url': gitlab.origin,
      token: TOKEN,
      group: 'acme',
      'list-only': 'true',
      'download-dir': dir,
    })
    expect(run.code).toBe(0)
    expect(injected(run)).toEqual([])
    // Not a GitLab path: left out of the matrix, which workflows expand, and a warning says so.
    expect(JSON.parse(run.outputs.matrix as string)).toEqual([])
    expect(run.log).toContain(
      "::warning::Group 'acme' lists a project path that is not a GitLab path; left out: acme/x\\n::warning file=x::injected",
    )
  })

  it("export-project: a server's error reaches the archives output as one inert line", async () => {
    const run = await runBundle('export-project', {
      'gitlab-url': gitlab.origin,
      token: TOKEN,
      project: 'acme/bad',
      'download-dir': dir,
    })
    expect(run.code).toBe(1)
    expect(injected(run)).toEqual([])
    const [archive] = JSON.parse(run.outputs.archives as string) as { error: string }[]
    expect(archive?.error).toContain('Export refused\\n::warning file=x::injected')
    expect(archive?.error).toContain(' ##\\[set-output name=web-url]')
    expect(run.outputs.archives).not.toContain('##[')
  })
})
