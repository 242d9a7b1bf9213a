import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

/*
 * What `serve` loads before its first answer (start-up time, issue 21), through the real bin:
 * Node's own modules as `process.moduleLoadList` names them when the process exits.
 */
const root = resolve(__dirname, '../..')
const bin = resolve(root, 'bin/gitlab-actions.js')
const seedFile = resolve(root, 'examples/seed.yaml')

/** Node's modules a `serve` loaded up to its first answer (and its stop on SIGTERM). */
async function modulesOfFirstAnswer(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gla-startup-'))
  try {
    const list = join(dir, 'modules.txt')
    const preload = join(dir, 'record.mjs')
    writeFileSync(
      preload,
      `import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')))\n`,
    )
    const child = spawn(
      process.execPath,
      ['--import', preload, bin, 'serve', '--port', '0', '--seed', seedFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const api = apiBaseIn(await lineFrom(child, /listening on/))
    const res = await request(`${api}/api/v4/projects/acme%2Fwidgets/issues`, {
      headers: { 'private-token': 'glpat-root-token' },
    })
    await res.body.dump()
    expect(res.statusCode).toBe(200)
    child.kill('SIGTERM')
    await once(child, 'exit')
    return readFileSync(list, 'utf8').split('\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('gitlab-actions serve start-up', () => {
  it('answers without loading TLS or HTTP/2 (Fastify requires them for options serve never sets)', async () => {
    const modules = await modulesOfFirstAnswer()
    expect(modules).toContain('NativeModule http')
    for (const unused of ['https', 'http2', 'tls'])
      expect([unused, modules.includes(`NativeModule ${unused}`)]).toEqual([unused, false])
  })
})
