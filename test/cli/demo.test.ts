import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { resolve } from 'node:path'

/** `npm run demo` is the project's main job: it must run green from a fresh build. */
describe('gitlab-actions demo', () => {
  it('walks through the API against the in-process server and exits 0', async () => {
    const child = spawn(process.execPath, [resolve(__dirname, '../../bin/gitlab-actions.js'), 'demo'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const [code] = await once(child, 'exit')
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(out).toContain('carol gets: GET /projects/acme%2Fwidgets/issues/1 -> 404: 404 Project Not Found')
    expect(out).not.toContain('glpat-')
    expect(out.trim().endsWith('== Done')).toBe(true)
  }, 120_000)
})
