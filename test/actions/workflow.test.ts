/*
 * .github/workflows/ci.yml, job `actions`: the actions as users call them (`uses: ./actions/<name>`
 * and the root `uses: ./`), through their composite action.yml files and committed bundles, against
 * the reference server seeded with examples/seed.yaml, as the workflow starts it on GitHub.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { startServer, type TestServer } from '../support/server.js'
import { evaluate, runJob } from '../support/workflow-runner.js'

const root = resolve(__dirname, '../..')
let t: TestServer
beforeAll(async () => {
  t = await startServer(readFileSync(resolve(root, 'examples/seed.yaml'), 'utf8'))
})
afterAll(() => t.close())

describe('the workflow runner', () => {
  it("evaluates GitHub's expression operators as GitHub does", () => {
    const scope = { inputs: { command: 'Import-Project', name: '', dir: 'x' } }
    expect(evaluate("inputs.command == 'import-project' && (inputs.name != '')", scope)).toBe(false)
    expect(evaluate("inputs.command == 'import-project' && (inputs.dir != '')", scope)).toBe(true)
    expect(evaluate("inputs.name || 'gitlab-exports'", scope)).toBe('gitlab-exports')
    expect(evaluate("inputs.dir || 'gitlab-exports'", scope)).toBe('x')
    expect(evaluate("!inputs.name && inputs.missing == ''", scope)).toBe(true)
  })
})

describe('.github/workflows/ci.yml, job actions', () => {
  it('triggers and waits, exports, imports and dispatches through the root action: every step passes', async () => {
    const steps = await runJob(root, '.github/workflows/ci.yml', 'actions', { GITLAB_URL: t.baseUrl })
    const failed = steps.find((s) => s.code !== 0)
    expect(failed ? `${failed.label}:\n${failed.log}` : '').toBe('')
    expect(steps.map((s) => s.label)).toEqual([
      'trigger',
      'test "$STATUS" = success',
      'export',
      'test -s "$ARCHIVE"',
      'import',
      'test "$STATUS" = finished',
      'The root action, dispatching on command',
      'test -n "$PIPELINE_ID"',
    ])
    const [trigger, , exported, , imported, , dispatched] = steps
    expect(trigger?.outputs).toMatchObject({
      status: 'success',
      'pipeline-iid': expect.stringMatching(/^\d+$/),
    })
    expect(exported?.outputs['export-status']).toBe('finished')
    expect(imported?.outputs).toMatchObject({
      'project-path': 'alice/widgets-restored',
      'import-status': 'finished',
    })
    expect(dispatched?.outputs).toMatchObject({
      status: 'created',
      'pipeline-id': expect.stringMatching(/^\d+$/),
    })
    // What the actions did is in the store, not only in their outputs.
    const restored = await t.http('GET', '/api/v4/projects/alice%2Fwidgets-restored', {
      token: 'glpat-alice-token',
    })
    expect(restored.status).toBe(200)
  }, 60_000)
})
