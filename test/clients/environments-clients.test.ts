/*
 * Environments and deployments through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md):
 * `project.environments` made, edited, stopped and deleted, `project.deployments` recorded and moved,
 * and `project.hooks` with `deployment_events`.
 */
import { join } from 'node:path'
import { eventually, hookReceiver } from '../support/hook-receiver.js'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { runPythonGitlab } from '../support/python-gitlab.js'
import { serverEach } from '../support/server.js'

const t = serverEach(pipelineSeed, () => ({ clock: manualClock(), allowLocalRequests: true }))

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

it('python-gitlab: project.hooks with deployment_events hear project.deployments', async () => {
  const receiver = await hookReceiver()
  try {
    const out = (await runPythonGitlab(join(__dirname, 'python_gitlab_deployment_hooks.py'), {
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-mark-token',
      RECEIVER_URL: receiver.url,
    })) as { deployment: number }
    expect(out).toEqual({ made: true, listed: [true], edited: false, deployment: expect.any(Number) })
    const sent = await eventually(
      async () => receiver.got.filter((r) => r.headers['x-gitlab-event'] === 'Deployment Hook'),
      (got) => got.length >= 2,
    )
    expect(sent.map((r) => [r.body.deployment_id, r.body.status])).toEqual([
      [out.deployment, 'running'],
      [out.deployment, 'success'],
    ])
  } finally {
    await receiver.close()
  }
})
