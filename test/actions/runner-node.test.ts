/*
 * The actions on every kind of runner, through their composite action.yml files and committed
 * bundles against the reference server: each `run:` line goes through actions/node.sh, which takes
 * a Node >= 24 from PATH, else the runner's own node24 (`<runner>/externals/node24/bin/node`, found
 * from the Runner.Worker process that starts the step), else fails with one sentence. And the root
 * action passes the workflow's token to sync-issues as actions/sync-issues does.
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFakeGitHub } from '../support/fake-github.js'
import { startServer, type TestServer } from '../support/server.js'
import { runComposite } from '../support/workflow-runner.js'

const root = resolve(__dirname, '../..')
const TRIGGER = 'glptt-89afb65ccbd38a36957b51b04b10e21005c7c8dc'
let t: TestServer
let dir: string
beforeEach(async () => {
  t = await startServer(readFileSync(resolve(root, 'examples/seed.yaml'), 'utf8'))
  dir = mkdtempSync(join(tmpdir(), 'gla-node-'))
})
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true })
  await t.close()
})

/** A PATH directory holding only bash and what node.sh calls, plus `extra` programs. */
function pathDir(name: string, extra: Record<string, string> = {}) {
  const bin = join(dir, name)
  mkdirSync(bin)
  for (const tool of ['bash', 'readlink', 'ps', 'tr']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool))
  for (const [file, target] of Object.entries(extra)) symlinkSync(target, join(bin, file))
  return bin
}
const pipelines = async () =>
  (
    (await t.http('GET', '/api/v4/projects/acme%2Fwidgets/pipelines', { token: 'glpat-alice-token' }))
      .body as unknown[]
  ).length
const trigger = (env: Record<string, string>, launcher?: string) =>
  runComposite(
    join(root, 'actions/trigger-pipeline'),
    { 'gitlab-url': t.baseUrl, project: 'acme/widgets', token: TRIGGER, wait: 'false' },
    { temp: dir, cwd: dir, env, launcher },
  )

describe('actions/node.sh picks the Node that runs the bundle', () => {
  it('a Node 24 on PATH runs the action', async () => {
    const r = await trigger({ PATH: pathDir('bin', { node: process.execPath }) })
    expect(r.log).not.toContain('::error::')
    expect([r.code, r.outputs.status]).toEqual([0, 'created'])
    expect(await pipelines()).toBe(1)
  })

  it('without node on PATH (and no runner node24) the step fails with one sentence, triggering nothing', async () => {
    const r = await trigger({ PATH: pathDir('bin') })
    expect(r.code).toBe(1)
    expect(r.log.trim()).toBe(
      "::error::gitlab-actions needs Node.js 24 or later: put it on PATH (actions/setup-node with node-version: 24), or set GITLAB_ACTIONS_NODE to its path; the runner's own node24 was not found either; there is no node on PATH",
    )
    expect(await pipelines()).toBe(0)
  })

  it('an old node on PATH is named in the error, not run', async () => {
    const old = join(dir, 'node18')
    writeFileSync(old, '#!/usr/bin/bash\necho v18.20.4\n')
    chmodSync(old, 0o755)
    const bin = pathDir('bin', { node: old })
    const r = await trigger({ PATH: bin })
    expect(r.code).toBe(1)
    expect(r.log).toContain(`the node on PATH is v18.20.4 (${join(bin, 'node')})`)
    expect(await pipelines()).toBe(0)
  })

  it('GITLAB_ACTIONS_NODE that is missing, not executable, or too old is named for what it is', async () => {
    const old = join(dir, 'node18')
    writeFileSync(old, '#!/usr/bin/bash\necho v18.20.4\n')
    chmodSync(old, 0o755)
    const plain = join(dir, 'plain-file')
    writeFileSync(plain, 'not a program')
    const PATH = pathDir('bin', { node: process.execPath })
    const cases: [string, string][] = [
      [join(dir, 'missing/node'), 'was not found: set it to the path of a Node.js 24 or later'],
      [plain, 'is not an executable file: set it to the path of a Node.js 24 or later'],
      [old, 'is not a Node.js 24 or later: it says v18.20.4'],
    ]
    for (const [node, why] of cases) {
      const r = await trigger({ PATH, GITLAB_ACTIONS_NODE: node })
      expect([r.code, r.log.trim()]).toEqual([1, `::error::GITLAB_ACTIONS_NODE (${node}) ${why}`])
    }
    expect(await pipelines()).toBe(0)
  })

  it("with an old node on PATH, the runner's externals/node24 runs the action", async () => {
    const old = join(dir, 'node18')
    writeFileSync(old, '#!/usr/bin/bash\necho v18.20.4\n')
    chmodSync(old, 0o755)
    const runner = join(dir, 'actions-runner')
    mkdirSync(join(runner, 'bin'), { recursive: true })
    mkdirSync(join(runner, 'externals/node24/bin'), { recursive: true })
    // The runner's worker process: a copy of bash under the runner's bin/ that starts the step.
    copyFileSync('/usr/bin/bash', join(runner, 'bin/Runner.Worker'))
    chmodSync(join(runner, 'bin/Runner.Worker'), 0o755)
    symlinkSync(process.execPath, join(runner, 'externals/node24/bin/node'))
    const r = await trigger({ PATH: pathDir('bin', { node: old }) }, join(runner, 'bin/Runner.Worker'))
    expect(r.log).not.toContain('::error::')
    expect([r.code, r.outputs.status]).toEqual([0, 'created'])
    expect(await pipelines()).toBe(1)
  })
})

describe('the root action.yml', () => {
  it("runs sync-issues with the workflow's token when github-token is not given", async () => {
    const gh = await startFakeGitHub('acme', 'widgets', 'sync-bot')
    try {
      gh.addIssue({ title: 'Crash', body: 'Steps' })
      const r = await runComposite(
        root,
        {
          command: 'sync-issues',
          'gitlab-url': t.baseUrl,
          token: 'glpat-alice-token',
          project: 'acme/widgets',
          repository: 'acme/widgets',
        },
        {
          temp: dir,
          cwd: dir,
          github: { token: 'ghs_workflow-token' },
          env: { GITHUB_API_URL: gh.url, GITHUB_EVENT_NAME: 'schedule', GITHUB_ACTIONS: 'true' },
        },
      )
      expect(r.log).not.toContain('::error::')
      expect([r.code, r.outputs.created]).toEqual([0, '1'])
      expect(gh.tokens).toEqual(new Set(['token ghs_workflow-token']))
    } finally {
      await gh.close()
    }
  })
})
