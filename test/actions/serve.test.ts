/*
 * actions/serve, run as a runner runs a composite action (test/support/workflow-runner.ts): it starts
 * dist/serve/index.js in the background, the step ends, and the server keeps answering at the `url`
 * output; a bad seed fails the step at once with the seed error in the step's output and in the log.
 * Needs dist/serve/index.js (`npm run bundle`, which CI runs before the tests); built here if absent.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { runComposite } from '../support/workflow-runner.js'

const root = resolve(__dirname, '../..')
const action = join(root, 'actions/serve')
let temp: string
const started: number[] = []

beforeAll(() => {
  if (!existsSync(join(root, 'dist/serve/index.js')))
    execFileSync(process.execPath, ['scripts/bundle.mjs', 'serve'], { cwd: root })
}, 60_000)
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'gla-serve-action-'))
})
afterEach(() => {
  for (const pid of started.splice(0)) process.kill(pid, 'SIGTERM')
  rmSync(temp, { recursive: true, force: true })
})

const serveAction = async (inputs: Record<string, string>) => {
  const run = await runComposite(action, inputs, { temp, cwd: temp })
  if (run.outputs.pid) started.push(Number(run.outputs.pid))
  return run
}

describe('actions/serve', () => {
  it('starts the built-in seed in the background: ready when the step ends, url, api-url and root token set', async () => {
    const run = await serveAction({ port: '0' })
    expect(run.code === 0 ? '' : run.log).toBe('')
    const { url, token, log } = run.outputs
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(run.outputs['api-url']).toBe(`${url}/api/v4`)
    expect(token).toBe('glpat-emulator-root-token')
    expect(log).toBe(join(temp, 'gitlab-actions-serve.log'))
    expect((await fetch(`${url}/-/readiness`)).status).toBe(200)
    const res = await fetch(`${url}/api/v4/projects/demo%2Fapp/issues`, {
      headers: { 'private-token': token! },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toHaveLength(3)
    expect(readFileSync(join(temp, 'summary.md'), 'utf8')).toContain(log)
    expect(readFileSync(log!, 'utf8')).toContain('listening on')
  })

  it('on 0.0.0.0: a random root token, masked; names in allowed-hosts pass the Host check, others 403', async () => {
    const run = await serveAction({
      port: '0',
      host: '0.0.0.0',
      'allowed-hosts': 'gitlab, host.docker.internal',
    })
    expect(run.code === 0 ? '' : run.log).toBe('')
    const { url, token } = run.outputs
    expect(token).toMatch(/^glpat-[\w-]{20}$/)
    expect(run.log).toContain(`::add-mask::${token!}`)
    const status = async (host: string, privateToken = token!) => {
      const res = await request(`${url}/api/v4/user`, { headers: { host, 'private-token': privateToken } })
      await res.body.dump()
      return res.statusCode
    }
    expect(await status('gitlab:8080')).toBe(200)
    expect(await status('host.docker.internal')).toBe(200)
    expect(await status('172.17.0.1:8080')).toBe(200)
    expect(await status('evil.example')).toBe(403)
    expect(await status('gitlab', 'glpat-emulator-root-token')).toBe(401)
  })

  it('takes a seed file (relative to the workspace), the GitLab version and the edition; no token output', async () => {
    writeFileSync(
      join(temp, 'seed.yaml'),
      'users:\n  - { username: alice, admin: true, token: glpat-alice }\n',
    )
    const run = await serveAction({ port: '0', seed: 'seed.yaml', 'gitlab-version': '17.2.0', edition: 'ce' })
    expect(run.code === 0 ? '' : run.log).toBe('')
    expect(run.outputs.token).toBe('')
    const res = await fetch(`${run.outputs['api-url']}/version`, {
      headers: { 'private-token': 'glpat-alice' },
    })
    expect(await res.json()).toMatchObject({ version: '17.2.0', enterprise: false })
  })

  it('a bad seed fails the step at once, with the seed error in its output and in the log', async () => {
    writeFileSync(join(temp, 'seed.yaml'), 'projects:\n  - { path: nowhere/app }\n')
    const run = await serveAction({ port: '0', seed: 'seed.yaml', timeout: '600' })
    expect(run.code).toBe(1)
    const error = run.log.split('\n').find((l) => l.startsWith('::error'))
    expect(error).toMatch(/exited with 1 before it was ready: .*seed\.yaml: projects\[0\]/)
    expect(readFileSync(join(temp, 'gitlab-actions-serve.log'), 'utf8')).toContain('projects[0]')
    expect(run.log).toContain('::group::')
  })

  it('fails with a clear message on bad inputs, before starting anything', async () => {
    const run = await serveAction({ timeout: 'soon' })
    expect(run.code).toBe(1)
    expect(run.log).toContain(
      "::error title=gitlab-actions serve::Input 'timeout' must be a whole number of seconds, got 'soon'",
    )
  })
})
