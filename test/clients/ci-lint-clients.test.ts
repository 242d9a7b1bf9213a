/*
 * The CI Lint API through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md): `ci_lint.create`,
 * `ci_lint.get` and `ci_lint.validate`, which raises on an invalid configuration.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { commitFiles } from '../support/ci-files.js'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const run = promisify(execFile)
const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

describe('python-gitlab project.ci_lint', () => {
  it('creates, gets the project file at a ref, and validate raises with the errors', async () => {
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
    })
  })
})
