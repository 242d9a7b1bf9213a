/*
 * dist/serve/index.js, the one-file server that actions/serve and the container run: alone in an
 * empty folder (no package.json, no node_modules anywhere above it), on this Node 24, it serves a
 * seed and answers the API. Built by `npm run bundle` (CI runs it before the tests); built here if absent.
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

const root = resolve(__dirname, '../..')
const bundle = join(root, 'dist/serve/index.js')

let dir: string
beforeAll(() => {
  if (!existsSync(bundle)) execFileSync(process.execPath, ['scripts/bundle.mjs', 'serve'], { cwd: root })
  dir = mkdtempSync(join(tmpdir(), 'gla-one-file-'))
  copyFileSync(bundle, join(dir, 'index.js'))
  copyFileSync(join(root, 'examples/seed.yaml'), join(dir, 'seed.yaml'))
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('runs alone in an empty folder: serve --seed FILE answers with the seed, SIGTERM exits 0', async () => {
  expect(readdirSync(dir).sort()).toEqual(['index.js', 'seed.yaml'])
  const child = spawn(process.execPath, ['index.js', 'serve', '--port', '0', '--seed', 'seed.yaml'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const line = await lineFrom(child, /listening on/)
  const res = await fetch(`${apiBaseIn(line)}/api/v4/projects/acme%2Fwidgets`, {
    headers: { 'private-token': 'glpat-alice-token' },
  })
  expect(res.status).toBe(200)
  expect(((await res.json()) as { path_with_namespace: string }).path_with_namespace).toBe('acme/widgets')
  child.kill('SIGTERM')
  const [code] = (await once(child, 'exit')) as [number | null]
  expect(code).toBe(0)
})

it('a bad seed stops it at once with the seed error and exit 1', () => {
  const run = () =>
    execFileSync(process.execPath, ['index.js', 'serve', '--port', '0', '--seed', 'missing.yaml'], {
      cwd: dir,
      stdio: 'pipe',
    })
  expect(run).toThrow(/missing\.yaml/)
})
