import type { Clock } from '../../src/server/domain/clock.js'
import type { TestServer } from './server.js'

/** A clock that only moves when a test moves it: pipelines progress without sleeping. */
export function manualClock(start = '2026-03-01T10:00:00.000Z') {
  let now = Date.parse(start)
  const clock: Clock & { advance(ms: number): void } = {
    now: () => new Date(now),
    advance: (ms: number) => void (now += ms),
  }
  return clock
}

export const MARK_TRIGGER = `glptt-${'ab12'.repeat(10)}`

/** Maintainers mark and maya, developer dana, guest gus, outsider otto; projects per CI outcome. */
export const pipelineSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: mark, name: Mark Maintainer, token: glpat-mark-token }
  - { username: maya, name: Maya Maintainer, token: glpat-maya-token }
  - { username: dana, name: Dana Developer, token: glpat-dana-token }
  - { username: gus, name: Gus Guest, token: glpat-gus-token }
  - { username: otto, name: Otto Outsider, token: glpat-otto-token }
groups:
  - path: acme
    visibility: private
    members: { mark: maintainer, maya: maintainer, dana: developer, gus: guest }
projects:
  - path: acme/app
    refs: [main, develop, feature/x]
    ci_jobs: [build, test]
    ci_job_duration: 2s
    triggers: [ { description: deploy, owner: mark, token: ${MARK_TRIGGER} } ]
  - { path: acme/failing, ci_outcome: failed, ci_jobs: [build, test, deploy] }
  - { path: acme/canceled, ci_outcome: canceled }
  - { path: acme/manual, ci_outcome: manual, ci_jobs: [build, release] }
  - path: acme/nocfg
    ci_config: false
    triggers: [ { description: x, owner: mark, token: glptt-${'ef56'.repeat(10)} } ]
  - { path: acme/other, triggers: [ { description: other, owner: mark, token: glptt-${'cd34'.repeat(10)} } ] }
  - { path: acme/public, visibility: public }
aliases: [ { name: app, project: acme/app } ]
`

/** Starts a pipeline on `main` of `project` with a trigger token (201 expected); its id. */
export async function triggerPipeline(t: TestServer, project: string, token = MARK_TRIGGER): Promise<number> {
  const res = await t.http('POST', `/api/v4/projects/${encodeURIComponent(project)}/trigger/pipeline`, {
    form: `ref=main&token=${token}`,
  })
  expect(res.status).toBe(201)
  return (res.body as { id: number }).id
}

/**
 * Protects `branch` (default `main`, which the seed protects fully) of `project` again with
 * `merge_access_level` Developer (push stays Maintainers'): a Developer may then update the branch
 * (`can_update_branch?`) and so create, cancel and retry its pipelines and play, retry and cancel their jobs.
 */
export async function developersMerge(t: TestServer, project: string, branch = 'main'): Promise<void> {
  const path = `/api/v4/projects/${encodeURIComponent(project)}/protected_branches`
  const token = 'glpat-root-token'
  expect((await t.http('DELETE', `${path}/${encodeURIComponent(branch)}`, { token })).status).toBe(204)
  const res = await t.http('POST', path, { token, json: { name: branch, merge_access_level: 30 } })
  expect(res.status).toBe(201)
}

/**
 * Moves `clock` `steps` seconds (40 unless told), a second at a time, reading `project`'s pipelines after
 * each step: the runner moves every job a step, so pipelines of a few short jobs run to their end.
 */
export async function runOut(
  t: TestServer,
  clock: ReturnType<typeof manualClock>,
  { project = 'acme/app', token = 'glpat-mark-token', steps = 40 } = {},
): Promise<void> {
  for (let i = 0; i < steps; i++) {
    clock.advance(1000)
    await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/pipelines`, { token })
  }
}

/**
 * Starts a pipeline of `project` with the seed's trigger and moves `clock` a second: its first job runs.
 * That job's CI/CD job token, and the pipeline's id; throws when no job is running.
 */
export async function runningJobToken(
  t: TestServer,
  clock: ReturnType<typeof manualClock>,
  project = 'acme/app',
): Promise<{ token: string; pipelineId: number }> {
  const pipelineId = await triggerPipeline(t, project)
  clock.advance(1000)
  const view = await t.http(
    'GET',
    `/-/emulator/projects/${encodeURIComponent(project)}/pipelines/${pipelineId}`,
    {
      token: 'glpat-root-token',
    },
  )
  const token = (view.body as { jobs: { status: string; token: string | null }[] }).jobs.find(
    (j) => j.status === 'running',
  )?.token
  if (!token) throw new Error('no running job')
  return { token, pipelineId }
}
