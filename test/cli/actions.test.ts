import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startServer, type TestServer } from '../support/server.js'

const BIN = resolve(__dirname, '../../bin/gitlab-actions.js')
const TRIGGER = `glptt-${'ab'.repeat(20)}`
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: glpat-mark-token }
groups: [ { path: acme, members: { mark: maintainer } } ]
projects:
  - { path: acme/app, triggers: [ { description: d, owner: mark, token: ${TRIGGER} } ] }
`
let t: TestServer
beforeAll(async () => {
  t = await startServer(seed)
})
afterAll(() => t.close())

async function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const [code] = (await once(child, 'exit')) as [number]
  return { code, out, err }
}

describe('gitlab-actions <action>', () => {
  it('--help lists every input of the table as a flag', async () => {
    const { code, out } = await cli(['trigger-pipeline', '--help'])
    expect(code).toBe(0)
    for (const flag of [
      '--gitlab-url VALUE',
      '--project VALUE',
      '--[no-]wait',
      '--access-token VALUE',
      '--json',
    ])
      expect(out).toContain(flag)
    expect(out).toContain('env CI_JOB_TOKEN')
    const top = await cli(['--help'])
    expect(top.out).toContain('export-project')
  })

  it('triggers from flags and the environment, with --json output and no token in it', async () => {
    const { code, out, err } = await cli(
      ['trigger-pipeline', '--project', 'acme/app', '--no-wait', '--json', `--variables=A=1`],
      { GITLAB_URL: t.baseUrl, CI_JOB_TOKEN: TRIGGER },
    )
    expect(err).not.toContain(TRIGGER)
    expect(code).toBe(0)
    const result = JSON.parse(out) as { ok: boolean; outputs: Record<string, string> }
    expect(result).toMatchObject({ ok: true, outputs: { status: 'created', 'pipeline-iid': '1' } })
  })

  it('exports a project to a directory; exit 1 with the reason when it fails, 2 for bad options', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-cli-'))
    try {
      const ok = await cli(
        [
          'export-project',
          '--project',
          'acme/app',
          '--download-dir',
          dir,
          '--poll-interval',
          '50ms',
          '--json',
        ],
        { GITLAB_URL: t.baseUrl, GITLAB_TOKEN: 'glpat-mark-token' },
      )
      expect(ok.code).toBe(0)
      expect(JSON.parse(ok.out).outputs['archive-path']).toBe(join(dir, 'acme_app_export.tar.gz'))
      const missing = await cli(['export-project', '--project', 'acme/none', '--download-dir', dir], {
        GITLAB_URL: t.baseUrl,
        GITLAB_TOKEN: 'glpat-mark-token',
      })
      expect(missing.code).toBe(1)
      expect(missing.err).toContain(
        "error: 1 of 1 export(s) failed: acme/none (project 'acme/none' not found",
      )
      const bad = await cli(['export-project', '--colour', 'red'])
      expect([bad.code, bad.err.split('\n')[0]]).toEqual([2, "Unknown option '--colour'"])
      const input = await cli(['export-project', '--project', 'x', '--concurrency', '0'], {
        GITLAB_TOKEN: 'x',
      })
      expect([input.code, input.err.trim()]).toEqual([
        2,
        "error: Option '--concurrency' must be a whole number of at least 1, got '0'",
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('exit codes and messages a terminal user can act on', async () => {
    // A missing archive is bad input (2), named as the flag, before anything is sent.
    const missing = await cli(['import-project', '--archive', 'nope.tar.gz', '--path', 'x'], {
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-mark-token',
    })
    expect(missing.code).toBe(2)
    expect(missing.err).toMatch(
      /^error: Option '--archive' must be the path of an export archive; there is no file at 'nope.tar.gz'/m,
    )
    // A required input left out is named as its flag.
    const noProject = await cli(['trigger-pipeline', '--no-wait'], {
      GITLAB_URL: t.baseUrl,
      CI_JOB_TOKEN: TRIGGER,
    })
    expect(noProject.code).toBe(2)
    expect(noProject.err).toContain("error: Option '--project' is required")
    // --version works on every command.
    for (const command of ['trigger-pipeline', 'sync-issues']) {
      const v = await cli([command, '--version'])
      expect([v.code, v.out.trim()]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+/)])
    }
    // An expression default says what it means outside Actions.
    const help = await cli(['sync-issues', '--help'])
    expect(help.out).toContain('in GitHub Actions default ${{ github.token }}; here $GITHUB_TOKEN')
  })

  it('trigger-pipeline takes follow-downstream, log-lines, inputs and the artifacts options as flags, checked before any request', async () => {
    const { code, out } = await cli(['trigger-pipeline', '--help'])
    expect(code).toBe(0)
    for (const flag of [
      '--[no-]follow-downstream',
      '--log-lines VALUE',
      '--inputs VALUE',
      '--download-artifacts VALUE',
      '--artifacts-path VALUE',
      '--artifacts-max-size VALUE',
    ])
      expect(out).toContain(flag)
    expect(out).toMatch(/ {2}artifacts-path +Absolute path of the folder/)
    const env = { GITLAB_URL: 'http://127.0.0.1:9', CI_JOB_TOKEN: TRIGGER, GITLAB_TOKEN: 'glpat-mark-token' }
    const size = await cli(['trigger-pipeline', '--project', 'acme/app', '--artifacts-max-size', 'lots'], env)
    expect([size.code, size.err.trim()]).toEqual([
      2,
      "error: Option '--artifacts-max-size' must be a size such as 500MiB, 1GiB or 100MB (bare numbers are bytes), got 'lots'",
    ])
    const inputs = await cli(['trigger-pipeline', '--project', 'acme/app', '--inputs', '- a list'], env)
    expect([inputs.code, inputs.err.trim()]).toEqual([
      2,
      "error: Option '--inputs' must be a YAML or JSON map of input names to values",
    ])
  })

  it("bad input exits 2, names the runner's INPUT_ variables, and a network error gets network advice", async () => {
    const unknown = await cli(['trigger-pipelines'])
    expect([unknown.code, unknown.err.split('\n')[0]]).toEqual([2, "Unknown command 'trigger-pipelines'."])
    expect((await cli([])).code).toBe(2)
    const noToken = await cli(['trigger-pipeline', '--project', 'acme/app', '--no-wait'], {
      GITLAB_URL: t.baseUrl,
    })
    expect(noToken.code).toBe(2)
    expect(noToken.err).toContain("error: Option '--token' is required (or set INPUT_TOKEN or its variable)")
    // The runner's spelling works: INPUT_ACCESS-TOKEN, upper case.
    const byRunnerName = await cli(['trigger-pipeline', '--project', 'acme/app', '--json'], {
      GITLAB_URL: t.baseUrl,
      CI_JOB_TOKEN: TRIGGER,
      'INPUT_ACCESS-TOKEN': 'glpat-wrong',
    })
    expect(byRunnerName.code).toBe(1)
    expect(JSON.parse(byRunnerName.out).error).toContain("GitLab refused 'access-token' (401 Unauthorized)")
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise((r) => closed.close(r))
    const down = await cli(['trigger-pipeline', '--project', 'acme/app'], {
      GITLAB_URL: `http://127.0.0.1:${port}`,
      CI_JOB_TOKEN: TRIGGER,
      GITLAB_TOKEN: 'glpat-mark-token',
    })
    expect(down.code).toBe(1)
    expect(down.err.trim().split('\n').at(-1)).toMatch(
      /^error: Nothing was triggered: GET \S+: could not reach GitLab at .*\(ECONNREFUSED\).*check the host and port, and that GitLab is up$/,
    )
    expect(down.err).not.toContain('access-token')
  })

  it("a proxy's HTML error page is shown as its status and a short excerpt, not dumped", async () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${'<!-- padding -->'.repeat(200)}</body></html>`
    const proxy = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end(page))
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
      const r = await cli(['trigger-pipeline', '--project', 'acme/app', '--no-wait'], {
        GITLAB_URL: url,
        CI_JOB_TOKEN: TRIGGER,
      })
      expect(r.code).toBe(1)
      expect(r.err).toContain(
        `error: Triggering the pipeline failed: POST /projects/acme%2Fapp/trigger/pipeline -> 502: not GitLab's JSON but a page (a proxy's?): "502 Bad Gateway 502 Bad Gateway nginx"`,
      )
      expect(r.err).not.toContain('<')
    } finally {
      await new Promise((r) => proxy.close(r))
    }
  })
})
