/*
 * Environments and deployments through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md):
 * `project.environments` made (with a description and `auto_stop_setting`), edited, stopped (its `on_stop`
 * job played) and deleted,
 * `project.deployments` recorded and moved, and `project.hooks` with `deployment_events`.
 */
import { join } from 'node:path'
import { commitFiles } from '../support/ci-files.js'
import { eventually, hookReceiver } from '../support/hook-receiver.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../support/pipeline-seed.js'
import { runPythonGitlab } from '../support/python-gitlab.js'
import { serverEach } from '../support/server.js'

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()), allowLocalRequests: true }))

it('python-gitlab: project.environments and project.deployments', async () => {
  const out = await runPythonGitlab(join(__dirname, 'python_gitlab_environments.py'), {
    GITLAB_URL: t.baseUrl,
    GITLAB_TOKEN: 'glpat-mark-token',
  })
  expect(out).toEqual({
    stopped: ['review/py', 'stopped', 'https://py2.example.com'],
    deployment: [1, 'success'],
    environments: ['py-kept', 'production'],
    last: true,
    refused: [400, { name: ['has already been taken'] }],
    kept: ['available', 'Edited by python', 'with_action'],
    cleared: null,
    null_setting: [400, 'auto_stop_setting does not have a valid value'],
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

it('python-gitlab: environment.stop() plays the on_stop job of the last deployment', async () => {
  const APP = '/api/v4/projects/acme%2Fapp'
  await commitFiles(t, 'acme/app', 'ci', {
    '.gitlab-ci.yml': `
deploy:
  environment: { name: review/$CI_COMMIT_REF_SLUG, on_stop: close, auto_stop_in: 2 days }
  script: [echo]
close:
  environment: { name: review/$CI_COMMIT_REF_SLUG, action: stop }
  when: manual
  script: [echo]
`,
  })
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  await runOut(t, clock, { steps: 20 })
  const out = await runPythonGitlab(join(__dirname, 'python_gitlab_environment_stops.py'), {
    GITLAB_URL: t.baseUrl,
    GITLAB_TOKEN: 'glpat-dana-token',
  })
  expect(out).toEqual({ before: ['available', true], after: 'stopping', stopping: ['review/ci'] })
  await runOut(t, clock, { steps: 20 })
  const env = await t.http('GET', `${APP}/environments?name=review/ci`, { token: 'glpat-mark-token' })
  expect((env.body as Record<string, unknown>[]).map((e) => e.state)).toEqual(['stopped'])
})
