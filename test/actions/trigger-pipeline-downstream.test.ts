/*
 * trigger-pipeline's committed bundle against the real server with a .gitlab-ci.yml that hands its
 * tests to a child pipeline (`strategy: depend`) whose job fails: the step fails as GitLab fails the
 * parent, the summary draws the tree and shows the failed job's log tail, no token shows anywhere,
 * and the build job's artifacts land in the folder.
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
    commitFiles(t, 'acme/app', 'main', CI)
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
    commitFiles(t, 'acme/app', 'main', CI)
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
})
