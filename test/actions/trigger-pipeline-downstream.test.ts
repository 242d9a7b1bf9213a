/*
 * trigger-pipeline's committed bundle against the real server with a .gitlab-ci.yml (committed through
 * `POST /repository/commits`) that hands its tests to a child pipeline (`strategy: depend`) whose job
 * fails: the step fails as GitLab fails the parent, the summary draws the tree and shows the failed
 * job's log tail, no token shows anywhere, and the build job's artifacts land in the folder.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { runBundle, whileRunning } from '../support/action-run.js'
import { commitFiles } from '../support/ci-files.js'
import { manualClock } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

const TRIGGER = `glptt-${'c9'.repeat(20)}`
const MARK = 'glpat-mark-token-0123456789'
/** A token a job prints into its log: the action was never given it, and masks it by its shape. */
const LEAKED = 'glcbt-64_leaked0123456789abcdef'
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: ${MARK} }
groups:
  - { path: acme, visibility: private, members: { mark: maintainer } }
projects:
  - { path: acme/app, triggers: [ { description: d, owner: mark, token: ${TRIGGER} } ] }
  - { path: acme/docs }
`
const CI = {
  '.gitlab-ci.yml': `
stages: [build, test, docs]
build:
  stage: build
  script:
    - echo built > out.txt
    - echo '<testsuite/>' > reports/unit.xml
  artifacts:
    paths: [out.txt, reports/]
tests:
  stage: test
  trigger:
    include: ci/tests.yml
    strategy: depend
`,
  'ci/tests.yml': `
unit:
  script:
    - echo "\\e[32mcompiling\\e[0m"
    - echo "token ${TRIGGER} and ${MARK} and ${LEAKED}"
    - echo "expected 2, got 3"
    - exit 1
lint:
  script: [echo fine]
`,
}

let t: TestServer
let clock: ReturnType<typeof manualClock>
let work: string
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(seed, { clock })
  work = mkdtempSync(join(tmpdir(), 'gla-trigger-down-'))
})
afterEach(async () => {
  await t.close()
  rmSync(work, { recursive: true, force: true })
})

const pump = (child: ChildProcess) => whileRunning(child, () => clock.advance(400))
const inputs = (more: Record<string, string> = {}) => ({
  'gitlab-url': t.baseUrl,
  project: 'acme/app',
  token: TRIGGER,
  'access-token': MARK,
  'poll-interval': '50ms',
  'artifacts-path': join(work, 'artifacts'),
  ...more,
})
const shown = (log: string) =>
  log
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')

describe('trigger-pipeline bundle with a child pipeline', () => {
  it('fails as GitLab fails the parent, names the child, shows the failing log tail, masks tokens, downloads artifacts', async () => {
    await commitFiles(t, 'acme/app', 'main', CI, MARK)
    const run = await runBundle(
      'trigger-pipeline',
      inputs({ 'download-artifacts': 'build', 'log-lines': '6' }),
      {
        during: pump,
      },
    )
    expect(run.code).toBe(1)
    expect(run.outputs.status).toBe('failed')
    // The tree: the bridge, the child pipeline and GitLab's verdict.
    expect(run.summary).toContain('<h3>Downstream pipelines</h3>')
    expect(run.summary).toMatch(
      /bridge <code>tests<\/code> \(failed\) → ❌ <a href="[^"]+">child pipeline \d+<\/a>: failed \(fails the parent\)/,
    )
    // The failing job's log tail, folded, named by the child, with its link.
    expect(run.summary).toMatch(
      /<details><summary>❌ unit \(test\) in child pipeline \d+ \(via &#39;tests&#39;\): last \d+ lines<\/summary><pre>/,
    )
    expect(run.summary).toContain('expected 2, got 3')
    expect(run.summary).toContain('token *** and *** and ***')
    expect(run.summary).toMatch(/ERROR: Job failed: exit code 1/)
    expect(run.summary).not.toContain('\x1b')
    expect(run.log).toContain("Last lines of job 'unit' (test) in child pipeline")
    expect(run.log).toMatch(
      /::error::.*Pipeline \d+ failed: child pipeline \d+ \(via 'tests'\) failed: job 'unit' \(script_failure\)\. http/,
    )
    // The token the job printed is registered with the runner's masking too (the runner consumes the command).
    expect(run.log).toContain(`::add-mask::${LEAKED}\n`)
    for (const secret of [TRIGGER, MARK, LEAKED]) {
      expect(shown(run.log)).not.toContain(secret)
      expect(run.summary).not.toContain(secret)
    }
    // The build job's artifacts, extracted into the folder, the folder as an output.
    expect(run.outputs['artifacts-path']).toBe(join(work, 'artifacts'))
    expect(readFileSync(join(work, 'artifacts', 'build', 'out.txt'), 'utf8')).toBe('built\n')
    expect(readFileSync(join(work, 'artifacts', 'build', 'reports', 'unit.xml'), 'utf8')).toBe(
      '<testsuite/>\n',
    )
    expect(run.summary).toContain('<h3>Artifacts</h3>')
  })

  it('keeps only what a job:glob line selects, warns for a job that is not there, and can leave the tree alone', async () => {
    await commitFiles(t, 'acme/app', 'main', CI, MARK)
    const run = await runBundle(
      'trigger-pipeline',
      inputs({
        'download-artifacts': 'build:reports/*.xml\nnope',
        'follow-downstream': 'false',
        'log-lines': '0',
      }),
      { during: pump },
    )
    expect(run.code).toBe(1)
    expect(existsSync(join(work, 'artifacts', 'build', 'reports', 'unit.xml'))).toBe(true)
    expect(existsSync(join(work, 'artifacts', 'build', 'out.txt'))).toBe(false)
    expect(run.log).toContain("::warning::No job 'nope' in the pipeline or its downstream pipelines.")
    expect(run.summary).not.toContain('Downstream pipelines')
    expect(run.summary).not.toContain('<details>')
  })

  it('a failed multi-project pipeline without strategy: depend is a warning, not a failure', async () => {
    await commitFiles(t, 'acme/docs', 'main', { '.gitlab-ci.yml': 'publish:\n  script: [exit 1]\n' }, MARK)
    await commitFiles(
      t,
      'acme/app',
      'main',
      {
        '.gitlab-ci.yml':
          'build:\n  script: [echo ok]\ndocs:\n  trigger: { project: acme/docs, branch: main }\n',
      },
      MARK,
    )
    const run = await runBundle('trigger-pipeline', inputs(), { during: pump })
    expect([run.code, run.outputs.status]).toEqual([0, 'success'])
    expect(run.summary).toMatch(
      /bridge <code>docs<\/code> \(success\) → ❌ <a href="[^"]+\/acme\/docs\/-\/pipelines\/\d+">multi-project pipeline \d+<\/a>: failed \(does not fail the parent: no strategy: depend\)/,
    )
    expect(run.log).toMatch(
      /::warning::multi-project pipeline \d+ \(via 'docs'\) failed, which does not fail pipeline \d+/,
    )
    // Its failed job's log comes home too, named by the pipeline it ran in.
    expect(run.summary).toMatch(/❌ publish \(test\) in multi-project pipeline \d+ \(via &#39;docs&#39;\)/)
  })
})

describe('trigger-pipeline bundle with pipeline inputs', () => {
  const SPEC = {
    '.gitlab-ci.yml': `spec:
  inputs:
    environment: { options: [staging, production] }
    replicas: { type: number, default: 1 }
---
deploy:
  script:
    - echo "deploying to $[[ inputs.environment ]] x$[[ inputs.replicas ]]"
`,
  }
  const traceOf = async (pipelineId: string) => {
    const jobs = await t.http('GET', `/api/v4/projects/acme%2Fapp/pipelines/${pipelineId}/jobs`, {
      token: MARK,
    })
    const [job] = jobs.body as { id: number }[]
    return (await t.http('GET', `/api/v4/projects/acme%2Fapp/jobs/${job?.id}/trace`, { token: MARK })).text
  }

  it('sends typed inputs to a GitLab that takes them', async () => {
    await commitFiles(t, 'acme/app', 'main', SPEC, MARK)
    const run = await runBundle(
      'trigger-pipeline',
      inputs({ inputs: '{"environment": "staging", "replicas": 3}' }),
      {
        during: pump,
      },
    )
    expect([run.code, run.outputs.status]).toEqual([0, 'success'])
    expect(run.log).toContain('with inputs environment, replicas')
    expect(run.summary).toContain('<th>Inputs</th><td>environment, replicas</td>')
    expect(await traceOf(run.outputs['pipeline-id'] as string)).toContain('deploying to staging x3')
  })

  it('refuses them before triggering anything on a GitLab older than 17.11, saying why', async () => {
    await t.close()
    t = await startServer(seed, { clock, gitlabVersion: '17.9.0' })
    await commitFiles(t, 'acme/app', 'main', SPEC, MARK)
    const run = await runBundle('trigger-pipeline', inputs({ inputs: 'environment: staging' }), {
      during: pump,
    })
    expect(run.code).toBe(1)
    expect(run.log).toContain(
      "::error::Nothing was triggered: input 'inputs' needs GitLab 17.11 or later (pipeline inputs through the trigger API; generally available in 18.1), and this GitLab runs 17.9.0",
    )
    const calls = await t.http('GET', '/-/emulator/requests', {
      token: 'glpat-root-token',
      query: 'limit=1000',
    })
    const routes = (calls.body as { method: string; route: string }[]).map((c) => `${c.method} ${c.route}`)
    expect(routes).toContain('GET /api/v4/version')
    expect(routes.filter((r) => r.includes('trigger'))).toEqual([])
    expect((await t.http('GET', '/api/v4/projects/acme%2Fapp/pipelines', { token: MARK })).body).toEqual([])
  })
})
