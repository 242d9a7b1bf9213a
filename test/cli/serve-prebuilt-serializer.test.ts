import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { startServer, type TestServer } from '../support/server.js'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

/*
 * `serve` through the real bin writes issue records, the signed-in user (`GET /user`, an empty
 * start's first answer) and project lists with the serializers written at build time (scripts/prebuilt-serializers.mjs);
 * the in-process server compiles the same ones at run time (src/server/http/edge.ts). Both must
 * answer byte for byte alike.
 */
const root = resolve(__dirname, '../..')
const bin = resolve(root, 'bin/gitlab-actions.js')
const seedFile = resolve(root, 'examples/seed.yaml')
const TOKEN = { 'private-token': 'glpat-root-token' }
const PATHS = [
  '/projects/acme%2Fwidgets/issues?per_page=100',
  '/projects/acme%2Fwidgets/issues?with_labels_details=true&state=all',
  '/projects/acme%2Fwidgets/issues/1',
  '/issues?scope=all&per_page=100',
  '/groups/acme/issues?state=all',
  '/user',
  '/projects?per_page=100',
  '/projects?simple=true',
]

/** The body of each of PATHS under `api`, with the base URL and the times of seeding taken out. */
async function bodies(api: string): Promise<string[]> {
  const out: string[] = []
  for (const path of PATHS) {
    const res = await request(`${api}/api/v4${path}`, { headers: TOKEN })
    const text = await res.body.text()
    out.push(`${res.statusCode} ${text.replaceAll(api, 'BASE').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')}`)
  }
  return out
}

let dir: string
let server: TestServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gla-prebuilt-'))
  server = await startServer(readFileSync(seedFile, 'utf8'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("serve's prebuilt serializers", () => {
  it('are in serve.cjs, looked up by the Issue, CurrentUser and ProjectList schemas', () => {
    const bundle = readFileSync(resolve(root, 'build/cli-bundle/serve.cjs'), 'utf8')
    expect(bundle).toMatch(
      /function prebuiltSerializer\(schema\)\{if\(schema===Issue\)return require_Issue\(\);if\(schema===CurrentUser\)return require_CurrentUser\(\);if\(schema===ProjectList\)return require_ProjectList\(\)/,
    )
  })

  it('answer issue lists, reads, the signed-in user and project lists as the serializers compiled at run time do', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--seed', seedFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache') },
    })
    try {
      const api = apiBaseIn(await lineFrom(child, /listening on/))
      const fromBin = await bodies(api)
      const inProcess = await bodies(server.baseUrl.replace(/\/$/, ''))
      expect(fromBin.map((b) => b.slice(0, 3))).toEqual(Array(PATHS.length).fill('200'))
      expect(fromBin.slice(0, 5).every((b) => b.includes('"iid":1'))).toBe(true)
      expect(fromBin[5]).toContain('"username":"root"')
      expect(fromBin[6]).toContain('"path_with_namespace":"acme/widgets"')
      expect(fromBin[7]).toContain('"path_with_namespace":"acme/widgets"')
      expect(fromBin).toEqual(inProcess)
    } finally {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  })
})
