import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'

/*
 * The `serve` contract of DESIGN.md, through the real bin as users run it (`npx gitlab-actions serve`):
 * `npm test` builds first (pretest), so build/ is current.
 */
const bin = resolve(__dirname, '../../bin/gitlab-actions.js')
const seedFile = resolve(__dirname, '../../examples/seed.yaml')

function run(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  return { child, stdout: () => out, stderr: () => err }
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
    const baseUrl = (/http:\/\/[^\s)]+/.exec(line) as RegExpExecArray)[0]
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
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

  it('--help lists the options', async () => {
    const proc = run(['serve', '--help'])
    const [code] = await once(proc.child, 'exit')
    expect(code).toBe(0)
    expect(proc.stdout()).toContain('--allow-local-requests')
    expect(proc.stdout()).toContain('--allowed-host H')
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
