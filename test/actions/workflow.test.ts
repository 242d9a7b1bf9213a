/*
 * .github/workflows/ci.yml, job `actions`: the actions as users call them (`uses: ./actions/<name>`
 * and the root `uses: ./`), through their composite action.yml files and committed bundles, against
 * the reference server that the job starts with ./actions/serve (examples/seed.yaml) on a free port.
 * Needs dist/serve/index.js (`npm run bundle`, which CI runs before the tests); built here if absent.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { evaluate, runJob, type StepRun } from '../support/workflow-runner.js'

const root = resolve(__dirname, '../..')
const started: number[] = []
beforeAll(() => {
  if (!existsSync(resolve(root, 'dist/serve/index.js')))
    execFileSync(process.execPath, ['scripts/bundle.mjs', 'serve'], { cwd: root })
}, 60_000)
afterAll(() => {
  for (const pid of started) process.kill(pid, 'SIGTERM')
})

/** Runs a job whose first step starts the server with actions/serve; the server is stopped after the tests. */
async function runServedJob(workflowPath: string, job: string) {
  const steps = await runJob(root, workflowPath, job, { GITLAB_PORT: '0' })
  const pid = steps[0]?.outputs.pid
  if (pid) started.push(Number(pid))
  const failed = steps.find((s: StepRun) => s.code !== 0)
  return { steps, failed: failed ? `${failed.label}:\n${failed.log}` : '' }
}

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
  it('starts the server, triggers and waits, exports, imports and dispatches through the root action: every step passes', async () => {
    const { steps, failed } = await runServedJob('.github/workflows/ci.yml', 'actions')
    expect(failed).toBe('')
    expect(steps.map((s) => s.label)).toEqual([
      'Start the reference server (examples/seed.yaml)',
      'trigger',
      'test "$STATUS" = success',
      'export',
      'test -s "$ARCHIVE"',
      'import',
      'test "$STATUS" = finished',
      'The root action, dispatching on command',
      'test -n "$PIPELINE_ID"',
    ])
    const [served, trigger, , exported, , imported, , dispatched] = steps
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
    const restored = await fetch(`${served?.outputs['api-url']}/projects/alice%2Fwidgets-restored`, {
      headers: { 'private-token': 'glpat-alice-token' },
    })
    expect(restored.status).toBe(200)
  }, 60_000)
})

describe("docs/actions.md's recipe for testing workflows", () => {
  it("runs as written, with the repository's actions in place of owner/gitlab-actions", async () => {
    const doc = readFileSync(resolve(root, 'docs/actions.md'), 'utf8')
    const recipe = /## Testing your workflows[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? ''
    expect(recipe).toContain('uses: owner/gitlab-actions/actions/serve@v1')
    const workflow = recipe.replace(/owner\/gitlab-actions\/(actions\/[\w-]+)@v1/g, './$1')
    mkdirSync(resolve(root, 'build'), { recursive: true })
    writeFileSync(resolve(root, 'build/readme-workflow.yml'), workflow)
    const { steps, failed } = await runServedJob('build/readme-workflow.yml', 'test')
    expect(failed).toBe('')
    expect(steps.map((s) => s.label)).toEqual(['gitlab', './actions/trigger-pipeline'])
    expect(steps[1]?.outputs.status).toBe('success')
  }, 60_000)
})
