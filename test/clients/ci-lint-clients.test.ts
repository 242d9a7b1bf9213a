/*
 * The CI Lint API through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md): `ci_lint.create`,
 * `ci_lint.get` and `ci_lint.validate`, which raises on an invalid configuration; and through gitbeaker's
 * `Lint.lint` and `Lint.check`.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Gitlab } from '@gitbeaker/rest'
import { commitFiles } from '../support/ci-files.js'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const run = promisify(execFile)
const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

describe('python-gitlab project.ci_lint', () => {
  it('creates, gets the project file at a ref, and validate raises with the errors; warnings do not', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'variables: [1]\nbuild: { script: make }\n' })
    const { stdout } = await run('/usr/bin/python3', [join(__dirname, 'python_gitlab_ci_lint.py')], {
      env: { ...process.env, GITLAB_URL: t.baseUrl, GITLAB_TOKEN: 'glpat-mark-token' },
      timeout: 60_000,
    })
    expect(JSON.parse(stdout)).toEqual({
      created: { valid: true, jobs: ['build'], yaml: '---\nbuild:\n  script: make\n' },
      got: {
        valid: false,
        errors: ['variables config should be a hash of key value pairs, value can be a hash'],
      },
      refusal:
        'build job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post',
      warned: {
        valid: true,
        warnings: [
          'jobs:build may allow multiple pipelines to run for a single action due to `rules:when` clause with no `workflow:rules` - read more: https://docs.gitlab.com/ee/ci/jobs/job_troubleshooting.html#job-may-allow-multiple-pipelines-to-run-for-a-single-action-warning',
        ],
      },
    })
  })
})

describe('gitbeaker Lint', () => {
  it('lints content with its jobs, and checks the project file with a dry run of a ref', async () => {
    const api = new Gitlab({ host: t.baseUrl, token: 'glpat-mark-token' })
    const linted = await api.Lint.lint('acme/app', 'build: { script: make }', { includeJobs: true })
    expect(linted).toMatchObject({ valid: true, errors: [], jobs: [{ name: 'build', stage: 'test' }] })
    await commitFiles(t, 'acme/app', 'main', {
      '.gitlab-ci.yml': 'build: { script: make, rules: [{ if: \'$CI_COMMIT_BRANCH == "develop"\' }] }\n',
    })
    // The default branch's file, simulated for the branch `ref` names.
    const develop = await api.Lint.check('acme/app', { dryRun: true, ref: 'develop', includeJobs: true })
    expect(develop).toMatchObject({ valid: true, jobs: [{ name: 'build' }] })
    expect(await api.Lint.check('acme/app', { dryRun: true })).toMatchObject({
      valid: false,
      errors: [
        'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
      ],
    })
  })
})
