/*
 * Environments and deployments through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md):
 * `project.environments` made, edited, stopped and deleted, `project.deployments` recorded and moved.
 */
import { join } from 'node:path'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { runPythonGitlab } from '../support/python-gitlab.js'
import { serverEach } from '../support/server.js'

const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

it('python-gitlab: project.environments and project.deployments', async () => {
  const out = await runPythonGitlab(join(__dirname, 'python_gitlab_environments.py'), {
    GITLAB_URL: t.baseUrl,
    GITLAB_TOKEN: 'glpat-mark-token',
  })
  expect(out).toEqual({
    stopped: ['review/py', 'stopped', 'https://py2.example.com'],
    deployment: [1, 'success'],
    environments: ['production'],
    last: true,
    refused: [400, { name: ['has already been taken'] }],
  })
})
