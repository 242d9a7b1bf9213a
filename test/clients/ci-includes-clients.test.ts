/*
 * Includes through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md): a pipeline made with another
 * project's file (named with the pipeline's variables), GitLab's refusal of a project the user may not read
 * as the client raises it, and a dynamic child pipeline made from a job's artifact.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { commitFiles } from '../support/ci-files.js'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const run = promisify(execFile)
const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

it('python-gitlab creates a pipeline with include: project (its location with variables), and gets the access refusal', async () => {
  await commitFiles(t, 'acme/other', 'main', { 'ci/shared.yml': 'shared: { script: echo shared }\n' })
  await commitFiles(t, 'acme/app', 'ci', {
    '.gitlab-ci.yml': 'include: { project: acme/other, file: ci/shared.yml }\nown: { script: x }\n',
  })
  await commitFiles(t, 'acme/app', 'vars', {
    '.gitlab-ci.yml':
      'include: { project: "$CI_PROJECT_NAMESPACE/other", file: "ci/${SHARED}.yml" }\nown: { script: x }\n',
  })
  await commitFiles(t, 'acme/app', 'denied', {
    '.gitlab-ci.yml': 'include: { project: root/hidden, file: ci.yml }\nown: { script: x }\n',
  })
  const { stdout } = await run('/usr/bin/python3', [join(__dirname, 'python_gitlab_ci_includes.py')], {
    env: { ...process.env, GITLAB_URL: t.baseUrl, GITLAB_TOKEN: 'glpat-mark-token' },
    timeout: 60_000,
  })
  expect(JSON.parse(stdout)).toEqual({
    status: 'created',
    jobs: ['own', 'shared'],
    expanded: ['own', 'shared'],
    refusal: {
      status: 400,
      message: {
        base: [
          'Project `root/hidden` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.',
        ],
      },
    },
  })
})

it('python-gitlab lists a dynamic child pipeline (trigger: include: artifact) and its jobs', async () => {
  await commitFiles(t, 'acme/app', 'ci', {
    '.gitlab-ci.yml': `generate:
  stage: build
  script:
    - 'echo "from-artifact: { script: x }" > child.yml'
  artifacts: { paths: [child.yml] }
child:
  stage: test
  needs: [generate]
  trigger: { include: [ { artifact: child.yml, job: generate } ], strategy: depend }
`,
  })
  const script = join(__dirname, 'python_gitlab_ci_artifact_includes.py')
  const { stdout } = await run('/usr/bin/python3', [script], {
    env: {
      ...process.env,
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-mark-token',
      ROOT_TOKEN: 'glpat-root-token',
    },
    timeout: 60_000,
  })
  expect(JSON.parse(stdout)).toEqual({
    jobs: ['generate'],
    bridge: ['child', 'success'],
    child: ['parent_pipeline', 'success'],
    child_jobs: [['from-artifact', 'success']],
  })
})
