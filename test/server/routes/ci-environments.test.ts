/*
 * Jobs' `environment:` against the real server: the name expanded when the pipeline is made, the
 * environment-scoped CI/CD variables that reach the job (the most specific scope of a key winning), the
 * `CI_ENVIRONMENT_*` variables, and GitLab's errors for a bad `environment:` entry.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'
import { eventually, hookReceiver } from '../../support/hook-receiver.js'

const MARK = 'glpat-mark-token' // maintainer
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()), allowLocalRequests: true }))

const SHOW =
  'echo "env=$CI_ENVIRONMENT_NAME slug=$CI_ENVIRONMENT_SLUG action=$CI_ENVIRONMENT_ACTION tier=$CI_ENVIRONMENT_TIER url=$CI_ENVIRONMENT_URL v=$SCOPED g=$G_SCOPED"'
const CONFIG = `
variables:
  AREA: Area
review:
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_ENVIRONMENT_SLUG.example.com
  script: ['${SHOW}']
production:
  environment: production
  script: ['${SHOW}']
staging:
  environment: { name: Staging $AREA, action: prepare, deployment_tier: other }
  script: ['${SHOW}']
plain:
  script: ['${SHOW}']
`

const trigger = () => t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
/** The line the job's script printed, by job name. */
const shown = async (pid: number) => {
  const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
  const lines: Record<string, string> = {}
  for (const job of jobs) {
    const trace = (await t.http('GET', `${APP}/jobs/${job.id as number}/trace`, { token: MARK })).text
    lines[job.name as string] = trace.split('\n').find((l) => l.startsWith('env=')) ?? trace
  }
  return lines
}

describe('jobs with an environment', () => {
  it('see the variables of the scopes that match it, the most specific winning, and CI_ENVIRONMENT_*', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    for (const [value, environment_scope] of [
      ['all', '*'],
      ['review-glob', 'review/*'],
      ['ends-in-ion', '*ion'],
      ['prod-exact', 'production'],
      ['staging-exact', 'Staging Area'],
      ['not-this', 'Staging'],
    ]) {
      const res = await t.http('POST', `${APP}/variables`, {
        token: MARK,
        json: { key: 'SCOPED', value, environment_scope },
      })
      expect(res.status).toBe(201)
    }
    const group = await t.http('POST', '/api/v4/groups/acme/variables', {
      token: ROOT,
      json: { key: 'G_SCOPED', value: 'group-review', environment_scope: 'review/*' },
    })
    expect(group.status).toBe(201)
    const res = await trigger()
    expect(res.status).toBe(201)
    await runOut(t, clock)
    expect(await shown((res.body as Json).id as number)).toEqual({
      review:
        'env=review/ci slug=review-ci-oxcorx action=start tier=development url=https://review-ci-oxcorx.example.com v=review-glob g=group-review',
      production: 'env=production slug=production action=start tier=production url= v=prod-exact g=',
      staging: 'env=Staging Area slug=staging-area-2uzqt7 action=prepare tier=other url= v=staging-exact g=',
      plain: 'env= slug= action= tier= url= v=all g=',
    })
  })

  it('shows the environment in job and pipeline hooks (GitLab’s `build_environment`, `environment_hook_attrs`)', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const receiver = await hookReceiver()
    try {
      const hook = await t.http('POST', `${APP}/hooks`, {
        token: MARK,
        json: { url: receiver.url, pipeline_events: true, job_events: true },
      })
      expect(hook.status).toBe(201)
      expect((await trigger()).status).toBe(201)
      await runOut(t, clock)
      const bodies = await eventually(
        async () => receiver.got.map((r) => r.body),
        (got) =>
          got.some((b) => b.object_kind === 'pipeline' && (b.object_attributes as Json).status === 'success'),
      )
      const jobHook = (name: string) =>
        bodies.find((b) => b.object_kind === 'build' && b.build_name === name)!.environment
      expect(jobHook('review')).toEqual({ name: 'review/ci', action: 'start' })
      expect(jobHook('staging')).toEqual({ name: 'Staging Area', action: 'prepare' })
      expect(jobHook('plain')).toBeNull()
      const builds = bodies.findLast((b) => b.object_kind === 'pipeline')!.builds as Json[]
      expect(Object.fromEntries(builds.map((b) => [b.name, b.environment]))).toEqual({
        review: { name: 'review/ci', action: 'start', deployment_tier: 'development' },
        production: { name: 'production', action: 'start', deployment_tier: 'production' },
        staging: { name: 'Staging Area', action: 'prepare', deployment_tier: 'other' },
        plain: null,
      })
    } finally {
      await receiver.close()
    }
  })

  it('fails at once a job whose expanded name is no environment name (environment_creation_failure)', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
stages: [build, deploy, cleanup]
build: { stage: build, script: [echo] }
deploy: { stage: deploy, environment: review/$NOPE, script: [echo] }
cleanup: { stage: cleanup, script: [echo] }
`,
    })
    const res = await trigger()
    expect(res.status).toBe(201)
    const pid = (res.body as Json).id as number
    const jobs = async () =>
      ((await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[])
        .map((j) => [j.name, j.status, j.failure_reason ?? null])
        .sort()
    expect(await jobs()).toEqual([
      ['build', 'created', null],
      ['cleanup', 'created', null],
      ['deploy', 'failed', 'environment_creation_failure'],
    ])
    await runOut(t, clock)
    expect(await jobs()).toEqual([
      ['build', 'success', null],
      ['cleanup', 'skipped', null],
      ['deploy', 'failed', 'environment_creation_failure'],
    ])
    const pipeline = await t.http('GET', `${APP}/pipelines/${pid}`, { token: MARK })
    expect((pipeline.body as Json).status).toBe('failed')
    // Alone in its pipeline, the pipeline fails with it.
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'deploy: { environment: $NOPE, script: [echo] }\n',
    })
    const alone = await trigger()
    expect((alone.body as Json).status).toBe('failed')
  })

  it('refuses a bad environment entry with GitLab’s error', async () => {
    const cases: [string, string][] = [
      ['[a, b]', 'jobs:job:environment config should be a hash or a string'],
      ['{ url: https://example.com }', "jobs:job:environment name can't be blank"],
      [
        'review/',
        "jobs:job:environment name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'",
      ],
      [
        '{ name: review, action: rollback }',
        'jobs:job:environment action should be start, stop, prepare, verify, or access',
      ],
      [
        '{ name: review, deployment_tier: prod }',
        'jobs:job:environment deployment tier must be one of production, staging, testing, development, other',
      ],
      ['{ name: review, color: blue }', 'jobs:job:environment config contains unknown keys: color'],
    ]
    for (const [environment, error] of cases) {
      const lint = await t.http('POST', `${APP}/ci/lint`, {
        token: MARK,
        json: { content: `job:\n  environment: ${environment}\n  script: [echo]\n` },
      })
      expect([environment, (lint.body as Json).errors]).toEqual([environment, [error]])
    }
  })
})
