import { spawn } from 'node:child_process'
import { once } from 'node:events'
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
        "error: Input 'concurrency' must be a whole number of at least 1, got '0'",
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
