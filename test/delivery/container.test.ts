/*
 * The container (Dockerfile) without a container runtime: docker/entrypoint.sh run directly, with
 * the paths the image fixes (/app/index.js, /seed/seed.yaml, /data) pointed at temporary ones, and
 * the Dockerfile's HEALTHCHECK command run against it. Needs dist/serve/index.js (`npm run bundle`).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { parse } from 'yaml'
import { request } from 'undici'
import { join, resolve } from 'node:path'
import { apiBaseIn, lineFrom } from '../support/spawned.js'
import { aliasBombSeed } from '../support/seeds.js'

const root = resolve(__dirname, '../..')
const bundle = join(root, 'dist/serve/index.js')
let dir: string

beforeAll(() => {
  if (!existsSync(bundle)) execFileSync(process.execPath, ['scripts/bundle.mjs', 'serve'], { cwd: root })
}, 60_000)
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-container-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The entrypoint as the image runs it, with `env` (GITLAB_ACTIONS_SEED, ...) set. */
function entrypoint(env: Record<string, string> = {}) {
  return spawn(join(root, 'docker/entrypoint.sh'), [], {
    env: {
      PATH: process.env.PATH ?? '',
      GITLAB_ACTIONS_SERVER: bundle,
      GITLAB_ACTIONS_SEED_FILE: join(dir, 'seed.yaml'),
      GITLAB_ACTIONS_DATA: join(dir, 'data'),
      GITLAB_ACTIONS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

async function started(env: Record<string, string> = {}) {
  const child = entrypoint(env)
  const url = apiBaseIn(await lineFrom(child, /listening on/))
  const stop = async () => {
    child.kill('SIGTERM')
    return ((await once(child, 'exit')) as [number | null])[0]
  }
  return { child, url, stop }
}

/** The entrypoint run to its end with `GITLAB_ACTIONS_SEED` set to `seed` (one that stops it). */
const startedWithSeed = (seed: string) =>
  spawnSync(join(root, 'docker/entrypoint.sh'), [], {
    env: {
      PATH: process.env.PATH ?? '',
      GITLAB_ACTIONS_SERVER: bundle,
      GITLAB_ACTIONS_DATA: join(dir, 'data'),
      GITLAB_ACTIONS_PORT: '0',
      GITLAB_ACTIONS_SEED: seed,
    },
    encoding: 'utf8',
    timeout: 60_000,
  })

const status = async (url: string, token: string) =>
  (await fetch(`${url}/api/v4/user`, { headers: { 'private-token': token } })).status

const alice = 'users:\n  - { username: alice, admin: true, token: glpat-alice }\n'

describe('docker/entrypoint.sh', () => {
  it('seeds from GITLAB_ACTIONS_SEED, listens on 0.0.0.0, keeps the store in the data dir, exits 0 on SIGTERM', async () => {
    const server = await started({ GITLAB_ACTIONS_SEED: alice })
    expect(await status(server.url, 'glpat-alice')).toBe(200)
    expect(await status(server.url, 'glpat-emulator-root-token')).toBe(401)
    expect(readdirSync(join(dir, 'data'))).toContain('gitlab.sqlite3')
    expect(await server.stop()).toBe(0)
  })

  it('seeds from the mounted file when the variable is unset', async () => {
    writeFileSync(join(dir, 'seed.yaml'), alice)
    const server = await started()
    expect(await status(server.url, 'glpat-alice')).toBe(200)
    expect(await server.stop()).toBe(0)
  })

  it('without either, the built-in seed, with a random root token (printed) since it listens off loopback', async () => {
    const child = entrypoint()
    // Both listeners from the start: the two lines may come in one chunk.
    const [listening, seedLine] = await Promise.all([
      lineFrom(child, /listening on/),
      lineFrom(child, /default seed/),
    ])
    const url = apiBaseIn(listening)
    const token = /token (glpat-\S+)/.exec(seedLine)?.[1] ?? ''
    expect(token).toMatch(/^glpat-[\w-]{20}$/)
    expect(await status(url, token)).toBe(200)
    expect(await status(url, 'glpat-emulator-root-token')).toBe(401)
    child.kill('SIGTERM')
    expect(((await once(child, 'exit')) as [number | null])[0]).toBe(0)
  })

  it('answers the names in GITLAB_ACTIONS_ALLOWED_HOSTS (a service name), IP addresses and localhost; others 403', async () => {
    const server = await started({
      GITLAB_ACTIONS_SEED: alice,
      GITLAB_ACTIONS_ALLOWED_HOSTS: 'gitlab,emulator.ci',
    })
    const hostStatus = async (host: string) => {
      const res = await request(`${server.url}/api/v4/user`, {
        headers: { host, 'private-token': 'glpat-alice' },
      })
      await res.body.dump()
      return res.statusCode
    }
    for (const host of ['gitlab:8080', 'emulator.ci', 'localhost:8080', '172.18.0.2:8080'])
      expect(await hostStatus(host)).toBe(200)
    expect(await hostStatus('evil.example:8080')).toBe(403)
    expect(await server.stop()).toBe(0)
  })

  it('a bad seed in the variable stops it with exit 1 and the error naming GITLAB_ACTIONS_SEED', async () => {
    const run = startedWithSeed('projects:\n  - { path: nowhere/app }\n')
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/GITLAB_ACTIONS_SEED\.yaml: projects\[0\]/)
  })

  it('an alias bomb in GITLAB_ACTIONS_SEED stops it at once with exit 1, naming the limit', () => {
    const run = startedWithSeed(aliasBombSeed())
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/GITLAB_ACTIONS_SEED\.yaml: YAML aliases expand too far \(limit 100\)/)
  })
})

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')

  it('HEALTHCHECK (node, no curl) passes against a running server and fails without one', async () => {
    const cmd = JSON.parse(/HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(dockerfile)?.[1] ?? '[]') as string[]
    expect(cmd.slice(0, 2)).toEqual(['node', '-e'])
    const server = await started()
    const port = new URL(server.url).port
    const check = (env: Record<string, string>) =>
      new Promise<number | null>((done) => {
        const child = spawn(process.execPath, cmd.slice(1), {
          env: { ...process.env, ...env },
          stdio: 'ignore',
        })
        child.once('exit', done)
      })
    expect(await check({ GITLAB_ACTIONS_PORT: port })).toBe(0)
    expect(await server.stop()).toBe(0)
    expect(await check({ GITLAB_ACTIONS_PORT: port })).toBe(1)
  })

  it('runs the one-file server through the entrypoint as a non-root user, port 8080, data on a volume', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m)
    expect(dockerfile).toMatch(/^USER node$/m)
    expect(dockerfile).toMatch(/^EXPOSE 8080$/m)
    expect(dockerfile).toMatch(/^VOLUME \/data$/m)
    expect(dockerfile).toMatch(/^COPY dist\/serve\/index\.js docker\/entrypoint\.sh \/app\/$/m)
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/app\/entrypoint\.sh"\]$/m)
  })
})

describe("docs/server.md's services recipe", () => {
  it('its env starts the server, and its request answers 200, by localhost and by the service name', async () => {
    const doc = readFileSync(join(root, 'docs/server.md'), 'utf8')
    const recipe = /## In a container[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? ''
    const job = (
      parse(recipe) as { jobs: { test: { services: Record<string, unknown>; steps: { run: string }[] } } }
    ).jobs.test
    const service = job.services.gitlab as { env: Record<string, string> }
    const [, token, path] =
      /-H 'PRIVATE-TOKEN: (\S+)' http:\/\/localhost:8080(\S+)/.exec(job.steps[0]?.run ?? '') ?? []
    const server = await started(service.env)
    const res = await fetch(`${server.url}${path}`, { headers: { 'private-token': token ?? '' } })
    expect(res.status).toBe(200)
    for (const host of ['localhost:8080', 'gitlab:8080']) {
      const byName = await request(`${server.url}${path}`, {
        headers: { host, 'private-token': token ?? '' },
      })
      await byName.body.dump()
      expect(byName.statusCode).toBe(200)
    }
    expect(await server.stop()).toBe(0)
  })
})
