import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { aliasBombSeed } from '../support/seeds.js'

/*
 * The `serve` contract, through the real bin as users run it (`npx gitlab-actions serve`):
 * `npm test` builds first (pretest), so build/ is current.
 */
const root = resolve(__dirname, '../..')
const bin = resolve(root, 'bin/gitlab-actions.js')
const seedFile = resolve(root, 'examples/seed.yaml')

type Run = { child: ChildProcess; stdout: () => string; stderr: () => string }

function run(args: string[]): Run {
  return watch(spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }))
}

function watch(child: ChildProcess): Run {
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  return { child, stdout: () => out, stderr: () => err }
}

const urlIn = (line: string) => (/http:\/\/[^\s)]+/.exec(line) as RegExpExecArray)[0]

async function get(url: string, token: string) {
  const res = await request(url, { headers: { 'private-token': token } })
  return { status: res.statusCode, body: (await res.body.json()) as unknown }
}

/** Resolves once `port` can be bound again: nothing holds it any more. */
async function portFreed(port: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    const free = await new Promise<boolean>((done) => {
      const probe = createServer()
      probe.once('error', () => done(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)))
    })
    if (free) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return false
}

async function waitForLine(get: () => string, child: ChildProcess): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const line = get()
      .split('\n')
      .find((l) => /http:\/\/[^\s)]+/.test(l))
    if (line) return line
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('no URL line printed')
}

describe('gitlab-actions serve', () => {
  it('--port 0 prints one line with its base URL, answers GitLab calls, and stops cleanly on SIGTERM', async () => {
    const proc = run(['serve', '--port', '0', '--seed', seedFile])
    const line = await waitForLine(proc.stdout, proc.child)
    const baseUrl = urlIn(line)
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(line).toContain(`(API at ${baseUrl}/api/v4)`)
    const res = await request(`${baseUrl}/api/v4/projects/acme%2Fwidgets/issues`, {
      headers: { 'private-token': 'glpat-root-token' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json')
    expect(((await res.body.json()) as unknown[]).length).toBeGreaterThan(0)
    proc.child.kill('SIGTERM')
    const [code] = await once(proc.child, 'exit')
    expect(code).toBe(0)
    expect(proc.stdout().trim().split('\n')).toHaveLength(1)
    expect(await portFreed(Number(new URL(baseUrl).port))).toBe(true)
  })

  it("with no --seed loads the built-in seed and prints root's token on the next line", async () => {
    const proc = run(['serve', '--port', '0'])
    const baseUrl = urlIn(await waitForLine(proc.stdout, proc.child))
    try {
      const second = () => proc.stdout().split('\n')[1] ?? ''
      while (!second().endsWith(')')) await once(proc.child.stdout!, 'data')
      const token = /token (glpat-\S+)/.exec(second())?.[1]
      expect(token).toBe('glpat-emulator-root-token')
      expect(await get(`${baseUrl}/api/v4/user`, token!)).toMatchObject({
        status: 200,
        body: { username: 'root' },
      })
      const issues = await get(`${baseUrl}/api/v4/projects/demo%2Fapp/issues`, token!)
      expect(issues.body).toHaveLength(3)
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })

  it("with no --seed prints demo/app's trigger token on the third line, and it triggers a pipeline", async () => {
    const proc = run(['serve', '--port', '0'])
    const baseUrl = urlIn(await waitForLine(proc.stdout, proc.child))
    try {
      const third = () => proc.stdout().split('\n')[2] ?? ''
      // Bounded, so that a missing line fails the test rather than leaving the server running.
      for (let i = 0; i < 100 && !/glptt-\w+$/.test(third()); i++) await new Promise((r) => setTimeout(r, 50))
      const token = /trigger token (glptt-[0-9a-f]{40})$/.exec(third())?.[1]
      expect(third()).toContain('project demo/app')
      const res = await request(`${baseUrl}/api/v4/projects/demo%2Fapp/trigger/pipeline`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, ref: 'main' }),
      })
      expect(res.statusCode).toBe(201)
      expect(await res.body.json()).toMatchObject({ ref: 'main', source: 'trigger' })
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })

  it('--seed none starts as a fresh GitLab: root alone, its token printed and accepted', async () => {
    const proc = run(['serve', '--port', '0', '--seed', 'none'])
    const baseUrl = urlIn(await waitForLine(proc.stdout, proc.child))
    try {
      // Bounded, so that a missing line fails the test rather than leaving the server running.
      for (let i = 0; i < 100 && !proc.stdout().includes('token'); i++)
        await new Promise((r) => setTimeout(r, 50))
      const lines = proc.stdout().trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(lines[1]).toBe(
        'gitlab-actions serve: empty instance: administrator root, token glpat-emulator-root-token',
      )
      expect(await get(`${baseUrl}/api/v4/user`, 'glpat-emulator-root-token')).toMatchObject({
        status: 200,
        body: { username: 'root', is_admin: true },
      })
      expect(await get(`${baseUrl}/api/v4/projects`, 'glpat-emulator-root-token')).toMatchObject({
        status: 200,
        body: [],
      })
      expect((await get(`${baseUrl}/api/v4/user`, 'glpat-emulator-alice-token')).status).toBe(401)
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })

  it('--host 0.0.0.0 prints the address it is bound to, and the API URL its links use', async () => {
    const proc = run(['serve', '--port', '0', '--host', '0.0.0.0', '--seed', seedFile])
    const line = await waitForLine(proc.stdout, proc.child)
    try {
      const bound = urlIn(line)
      expect(bound).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
      const port = new URL(bound).port
      expect(line).toContain(`(API at http://127.0.0.1:${port}/api/v4)`)
      const project = await get(`http://127.0.0.1:${port}/api/v4/projects/acme%2Fwidgets`, 'glpat-root-token')
      expect(project.body).toMatchObject({ web_url: `http://127.0.0.1:${port}/acme/widgets` })
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })

  it('--host 0.0.0.0 with the built-in seed prints a random token for root, which works; the known one does not', async () => {
    const proc = run(['serve', '--port', '0', '--host', '0.0.0.0'])
    const port = new URL(urlIn(await waitForLine(proc.stdout, proc.child))).port
    try {
      const second = () => proc.stdout().split('\n')[1] ?? ''
      while (!second().endsWith(')')) await once(proc.child.stdout!, 'data')
      const token = /token (glpat-\S+)/.exec(second())?.[1]
      expect(token).toMatch(/^glpat-[\w-]{20}$/)
      expect(await get(`http://127.0.0.1:${port}/api/v4/user`, token!)).toMatchObject({
        status: 200,
        body: { username: 'root' },
      })
      expect((await get(`http://127.0.0.1:${port}/api/v4/user`, 'glpat-emulator-root-token')).status).toBe(
        401,
      )
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })

  it('a --data directory keeps its data and says on stderr that --seed is not applied again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-data-'))
    try {
      for (const expected of ['', `--seed ${seedFile} not applied: ${dir} already holds data`]) {
        const proc = run(['serve', '--port', '0', '--data', dir, '--seed', seedFile])
        await waitForLine(proc.stdout, proc.child)
        proc.child.kill('SIGTERM')
        await once(proc.child, 'exit')
        if (expected === '') expect(proc.stderr()).toBe('')
        else expect(proc.stderr().trim().split('\n')).toEqual([expect.stringContaining(expected)])
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('warns on stderr when a data dir with the well-known root token is served off loopback', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-data-'))
    try {
      const stderrOf = async (args: string[]) => {
        const proc = run(['serve', '--port', '0', '--data', dir, ...args])
        await waitForLine(proc.stdout, proc.child)
        proc.child.kill('SIGTERM')
        await once(proc.child, 'exit')
        return proc.stderr()
      }
      expect(await stderrOf([])).toBe('')
      expect(await stderrOf(['--host', '0.0.0.0'])).toContain(
        `warning: ${dir} holds the well-known token glpat-emulator-root-token and the server listens on 0.0.0.0, off loopback`,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('--ready-file writes the base URL once it listens, whole; an unwritable one stops it with exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-ready-'))
    const file = join(dir, 'url')
    const proc = run(['serve', '--port', '0', '--seed', 'none', '--ready-file', file])
    try {
      const baseUrl = urlIn(await waitForLine(proc.stdout, proc.child))
      expect(readFileSync(file, 'utf8')).toBe(`${baseUrl}\n`)
      expect(readdirSync(dir)).toEqual(['url'])
      const res = await request(`${baseUrl}/-/readiness`)
      expect(res.statusCode).toBe(200)
      await res.body.dump()
      const bad = run([
        'serve',
        '--port',
        '0',
        '--seed',
        'none',
        '--ready-file',
        join(dir, 'no/such/dir/url'),
      ])
      const [code] = await once(bad.child, 'exit')
      expect(code).toBe(1)
      expect(bad.stderr()).toMatch(/^--ready-file: cannot write .*no\/such\/dir\/url \(ENOENT\)\n$/)
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('npx gitlab-actions serve stops on SIGTERM to npx and frees its port', async () => {
    // A project that depends on gitlab-actions, as a user's does: npx runs the bin under `sh -c`.
    const project = mkdtempSync(join(tmpdir(), 'gla-npx-'))
    let npx: Run | undefined
    try {
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
      writeFileSync(join(project, 'package.json'), '{"name":"user-project","private":true}')
      symlinkSync(root, join(project, 'node_modules', 'gitlab-actions'))
      symlinkSync(
        '../gitlab-actions/bin/gitlab-actions.js',
        join(project, 'node_modules', '.bin', 'gitlab-actions'),
      )
      npx = watch(
        spawn('npx', ['--offline', 'gitlab-actions', 'serve', '--port', '0', '--seed', 'none'], {
          cwd: project,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      )
      const port = Number(new URL(urlIn(await waitForLine(npx.stdout, npx.child))).port)
      npx.child.kill('SIGTERM')
      await once(npx.child, 'exit')
      expect(await portFreed(port)).toBe(true)
    } finally {
      // An orphaned server would keep these pipes, and Jest, open.
      npx?.child.stdout?.destroy()
      npx?.child.stderr?.destroy()
      rmSync(project, { recursive: true, force: true })
    }
  })

  it('a bad seed stops start-up with a message naming the file, the entry and the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-seed-'))
    try {
      const file = join(dir, 'bad.yaml')
      writeFileSync(
        file,
        'users:\n  - username: root\nprojects:\n  - path: root/x\n    issues:\n      - title: t\n        state: sleeping\n',
      )
      const proc = run(['serve', '--port', '0', '--seed', file])
      const [code] = await once(proc.child, 'exit')
      expect(code).not.toBe(0)
      expect(proc.stderr()).toContain('bad.yaml')
      expect(proc.stderr()).toContain('projects[0].issues[0].state')
      expect(proc.stdout()).toBe('')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a --seed alias bomb stops start-up at once, exit 1, naming the file and the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-seed-'))
    try {
      const file = join(dir, 'bomb.yaml')
      writeFileSync(file, aliasBombSeed())
      const proc = run(['serve', '--port', '0', '--seed', file])
      const [code] = await once(proc.child, 'exit')
      expect(code).toBe(1)
      expect(proc.stderr()).toContain(`${file}: YAML aliases expand too far (limit 100)`)
      expect(proc.stdout()).toBe('')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('--version prints the package version', async () => {
    const proc = run(['--version'])
    const [code] = await once(proc.child, 'exit')
    expect(code).toBe(0)
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    expect(proc.stdout()).toBe(`${version}\n`)
  })

  it('--help lists the options', async () => {
    const proc = run(['serve', '--help'])
    const [code] = await once(proc.child, 'exit')
    expect(code).toBe(0)
    expect(proc.stdout()).toContain('--allow-local-requests')
    expect(proc.stdout()).toContain('--allowed-host H')
    expect(proc.stdout()).toContain('--request-log-size N')
    expect(proc.stdout()).toContain('--log-bodies')
    expect(proc.stdout()).toContain('--faults FILE')
    expect(proc.stdout()).toContain('--clock frozen:ISO')
  })

  it('--allowed-host (repeatable) adds names the Host header may carry; others get 403', async () => {
    const proc = run(['serve', '--port', '0', '--allowed-host', 'emulator.internal', '--allowed-host', 'gl'])
    try {
      const line = await waitForLine(proc.stdout, proc.child)
      const baseUrl = (/http:\/\/[^\s)]+/.exec(line) as RegExpExecArray)[0]
      const status = async (host: string) => {
        const res = await request(`${baseUrl}/api/v4/version`, { headers: { host } })
        await res.body.dump()
        return res.statusCode
      }
      expect([await status('emulator.internal'), await status('gl:80'), await status('localhost')]).toEqual([
        401, 401, 401,
      ])
      expect(await status('evil.example')).toBe(403)
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })
})

describe('gitlab-actions serve: the request log and faults', () => {
  it('--faults FILE puts its rules in force; --request-log-size and --log-bodies shape the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-faults-'))
    try {
      const file = join(dir, 'faults.yaml')
      writeFileSync(file, '- { route: /api/v4/version, action: status, status: 503, times: 1 }\n')
      const proc = run([
        'serve',
        '--port',
        '0',
        '--seed',
        seedFile,
        '--faults',
        file,
        '--request-log-size',
        '2',
        '--log-bodies',
      ])
      const baseUrl = urlIn(await waitForLine(proc.stdout, proc.child))
      const version = () =>
        request(`${baseUrl}/api/v4/version`, { headers: { 'private-token': 'glpat-root-token' } })
      const refused = await version()
      expect(refused.statusCode).toBe(503)
      expect(await refused.body.text()).toContain('<center>nginx</center>')
      const answered = await version()
      expect(answered.statusCode).toBe(200)
      await answered.body.dump()
      await (await version()).body.dump() // the third pushes the first out of a ring of 2
      const log = await get(`${baseUrl}/-/emulator/requests`, 'glpat-root-token')
      expect(log.status).toBe(200)
      const entries = log.body as { status: number; fault: unknown; response_body: string }[]
      expect(entries.map((e) => [e.status, e.fault])).toEqual([
        [200, null],
        [200, null],
      ])
      expect(JSON.parse(entries[0]?.response_body as string)).toHaveProperty('version')
      proc.child.kill('SIGTERM')
      expect((await once(proc.child, 'exit'))[0]).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a bad --faults FILE or --request-log-size stops start-up, exit 1, naming the option and the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-faults-'))
    try {
      const file = join(dir, 'faults.json')
      writeFileSync(file, '[{ "action": "reset" }, { "action": "delay" }]')
      for (const [args, message] of [
        [['--faults', file], `--faults ${file}: faults[1].ms is missing (action delay)`],
        [['--faults', join(dir, 'none.yaml')], `--faults ${join(dir, 'none.yaml')}: cannot read it (ENOENT)`],
        [['--request-log-size', 'many'], '--request-log-size must be a whole number, got many'],
      ] as const) {
        const proc = run(['serve', '--port', '0', ...args])
        const [code] = await once(proc.child, 'exit')
        expect([code, proc.stdout()]).toEqual([1, ''])
        expect(proc.stderr()).toContain(message)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('gitlab-actions serve --clock', () => {
  it('frozen:ISO starts the clock frozen there: the Date header and /-/emulator/clock say so', async () => {
    const proc = run(['serve', '--port', '0', '--seed', seedFile, '--clock', 'frozen:2030-01-01T00:00:00Z'])
    try {
      const baseUrl = urlIn(await waitForLine(proc.stdout, proc.child))
      const res = await request(`${baseUrl}/-/emulator/clock`, {
        headers: { 'private-token': 'glpat-root-token' },
      })
      expect(res.headers.date).toBe('Tue, 01 Jan 2030 00:00:00 GMT')
      expect(await res.body.json()).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true })
    } finally {
      proc.child.kill('SIGTERM')
      await once(proc.child, 'exit')
    }
  })

  it.each(['now', 'frozen:2030-01-01', 'frozen:tomorrow'])(
    '--clock %s stops start-up, exit 1',
    async (value) => {
      const proc = run(['serve', '--port', '0', '--clock', value])
      const [code] = await once(proc.child, 'exit')
      expect([code, proc.stdout()]).toEqual([1, ''])
      expect(proc.stderr()).toContain(`--clock must be frozen:TIME, an ISO 8601 time with a zone`)
      expect(proc.stderr()).toContain(`got ${value}`)
    },
  )
})
