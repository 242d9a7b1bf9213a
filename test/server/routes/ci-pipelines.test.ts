import { createClient } from '../../../src/api/client.js'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach, startServer } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // not a member
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const trigger = (ref = 'ci', extra = '') =>
  t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=${ref}&token=${MARK_TRIGGER}${extra}` })
const jobs = async (pipelineId: number, project = APP) =>
  (
    (await t.http('GET', `${project}/pipelines/${pipelineId}/jobs`, { token: MARK, query: 'per_page=100' }))
      .body as Json[]
  )
    .map((j) => [String(j.name), j.stage, j.status] as const)
    .sort((a, b) => a[0].localeCompare(b[0]))
const pipeline = async (id: number, project = APP) =>
  (await t.http('GET', `${project}/pipelines/${id}`, { token: MARK })).body as Json
/** Moves the clock in small steps (the runner applies every move due), as a polling client would. */
const run = async (ms: number) => {
  for (let left = ms; left > 0; left -= 500) clock.advance(Math.min(500, left))
  await t.http('GET', `${APP}/pipelines`, { token: MARK })
}
/** What a job's script emulation decides: here the job named `name` of `pipelineId` fails. */
const failing = (pipelineId: number, name: string) => {
  const store = t.server.store
  const job = store.pipelines.jobs(pipelineId).find((j) => j.name === name)
  if (job) store.pipelines.setJob({ ...job, outcome: 'failed' })
}

const STAGES = `
stages: [build, test, deploy]
build:
  stage: build
  script: echo build
unit:
  stage: test
  script: echo unit
lint:
  stage: test
  needs: []
  script: echo lint
deploy:
  stage: deploy
  script: echo deploy
  when: manual
cleanup:
  stage: .post
  when: always
  script: echo cleanup
`

describe('pipelines from the committed .gitlab-ci.yml', () => {
  it('creates its jobs in stages; needs: [] starts at once; an optional manual job leaves the pipeline successful', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': STAGES })
    const res = await trigger()
    expect(res.status).toBe(201)
    const id = (res.body as Json).id as number
    expect(await jobs(id)).toEqual([
      ['build', 'build', 'created'],
      ['cleanup', '.post', 'created'],
      ['deploy', 'deploy', 'created'],
      ['lint', 'test', 'created'],
      ['unit', 'test', 'created'],
    ])
    await run(1000)
    const early = Object.fromEntries((await jobs(id)).map(([n, , s]) => [n, s]))
    expect(early).toMatchObject({ build: 'running', lint: 'running', unit: 'created' })
    await run(20_000)
    expect(await jobs(id)).toEqual([
      ['build', 'build', 'success'],
      ['cleanup', '.post', 'success'],
      ['deploy', 'deploy', 'manual'],
      ['lint', 'test', 'success'],
      ['unit', 'test', 'success'],
    ])
    expect(await pipeline(id)).toMatchObject({ status: 'success', source: 'trigger', ref: 'ci' })
  })

  it('a failure skips later on_success jobs and runs on_failure and always ones; allow_failure lets the pipeline pass', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
build: { stage: build, script: exit 1 }
flaky: { stage: build, script: exit 1, allow_failure: true }
test: { stage: test, script: echo test }
notify: { stage: deploy, script: echo bad, when: on_failure }
always: { stage: deploy, script: echo done, when: always }
`,
    })
    const id = ((await trigger()).body as Json).id as number
    failing(id, 'build')
    failing(id, 'flaky')
    await run(30_000)
    expect(await jobs(id)).toEqual([
      ['always', 'deploy', 'success'],
      ['build', 'build', 'failed'],
      ['flaky', 'build', 'failed'],
      ['notify', 'deploy', 'success'],
      ['test', 'test', 'skipped'],
    ])
    expect((await pipeline(id)).status).toBe('failed')

    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml':
        'flaky: { stage: build, script: exit 1, allow_failure: true }\nnext: { script: echo next }\n',
    })
    const passing = ((await trigger()).body as Json).id as number
    failing(passing, 'flaky')
    await run(30_000)
    expect(await jobs(passing)).toEqual([
      ['flaky', 'build', 'failed'],
      ['next', 'test', 'success'],
    ])
    expect((await pipeline(passing)).status).toBe('success')
  })

  it('a blocking manual job holds the stages after it; a delayed job is scheduled for its start_in', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
approve: { stage: build, script: echo ok, when: manual, allow_failure: false }
ship: { stage: deploy, script: echo ship }
`,
    })
    const held = ((await trigger()).body as Json).id as number
    await run(30_000)
    expect(await jobs(held)).toEqual([
      ['approve', 'build', 'manual'],
      ['ship', 'deploy', 'created'],
    ])
    expect((await pipeline(held)).status).toBe('manual')

    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'later: { script: echo later, when: delayed, start_in: 1 minute }\n',
    })
    const delayed = ((await trigger()).body as Json).id as number
    await run(2000)
    expect(await jobs(delayed)).toEqual([['later', 'test', 'scheduled']])
    expect((await pipeline(delayed)).status).toBe('scheduled')
    await run(57_000)
    expect(await jobs(delayed)).toEqual([['later', 'test', 'scheduled']])
    await run(10_000)
    expect(await jobs(delayed)).toEqual([['later', 'test', 'success']])
  })

  it('evaluates rules and workflow:rules on trigger variables and $CI_PIPELINE_SOURCE', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "push"
      when: never
    - when: always
always: { script: echo hi }
deploy:
  script: echo deploy
  rules:
    - if: $DEPLOY == "yes" && $CI_PIPELINE_SOURCE == "trigger"
    - if: $CI_COMMIT_BRANCH =~ /^c/
      when: manual
`,
    })
    const asked = ((await trigger('ci', '&variables[DEPLOY]=yes')).body as Json).id as number
    expect(await jobs(asked)).toEqual([
      ['always', 'test', 'created'],
      ['deploy', 'test', 'created'],
    ])
    await run(20_000)
    expect((await jobs(asked)).map(([n, , s]) => [n, s])).toEqual([
      ['always', 'success'],
      ['deploy', 'success'],
    ])
    const manual = ((await trigger()).body as Json).id as number
    await run(20_000)
    // A manual job from rules does not allow failure: it blocks the pipeline.
    expect((await jobs(manual)).map(([n, , s]) => [n, s])).toEqual([
      ['always', 'success'],
      ['deploy', 'manual'],
    ])
    expect((await pipeline(manual)).status).toBe('manual')

    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'workflow: { rules: [{ if: $RUN }] }\njob: { script: x }\n',
    })
    const filtered = await trigger()
    expect(filtered.status).toBe(400)
    expect(filtered.body).toEqual({ message: { base: ['Pipeline filtered out by workflow rules.'] } })
  })
})

describe('configuration errors', () => {
  const count = () => t.server.store.pipelines.count({ projectId: 1, order: 'id', sort: 'asc' })

  it("a trigger keeps a failed pipeline for an invalid config and answers 422 with GitLab's error", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'build:\n  script: x\n  foo: 1\n' })
    const before = count()
    const res = await trigger()
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: { base: ['jobs:build config contains unknown keys: foo'] } })
    expect(count()).toBe(before + 1)
    const [latest] = (await t.http('GET', `${APP}/pipelines`, { token: MARK })).body as Json[]
    expect(latest).toMatchObject({ status: 'failed', ref: 'ci' })
    expect(await jobs(latest?.id as number)).toEqual([])
    const withErrors = (await t.http('GET', `${APP}/pipelines`, { token: MARK, query: 'yaml_errors=true' }))
      .body
    expect((withErrors as Json[]).map((p) => p.id)).toEqual([latest?.id])
    const without = (await t.http('GET', `${APP}/pipelines`, { token: MARK, query: 'yaml_errors=false' }))
      .body
    expect((without as Json[]).map((p) => p.id)).not.toContain(latest?.id)
  })

  it('POST /pipeline answers 400 and keeps nothing; YAML errors in Psych words', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': '.hidden:\n  script: x\n' })
    const before = count()
    const res = await t.http('POST', `${APP}/pipeline`, { token: MARK, json: { ref: 'ci' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { base: ['jobs config should contain at least one visible job'] } })
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'job:\n  script: x\n  foo\nbar: 1\n' })
    const yaml = await t.http('POST', `${APP}/pipeline`, { token: MARK, json: { ref: 'ci' } })
    expect(yaml.body).toEqual({
      message: {
        base: ["(<unknown>): could not find expected ':' while scanning a simple key at line 3 column 3"],
      },
    })
    expect(count()).toBe(before)
  })

  it('a project without the file and without the seed shortcut is `Missing CI config file`', async () => {
    const res = await t.http('POST', '/api/v4/projects/acme%2Fnocfg/pipeline', {
      token: MARK,
      json: { ref: 'main' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { base: ['Missing CI config file'] } })
  })

  it('a project made through the API has no shortcut: `Missing CI config file` until a `.gitlab-ci.yml` is committed', async () => {
    const made = await t.http('POST', '/api/v4/projects', {
      token: MARK,
      json: { name: 'fresh', initialize_with_readme: true },
    })
    expect(made.status).toBe(201)
    const path = (made.body as Json).path_with_namespace as string
    const P = `/api/v4/projects/${encodeURIComponent(path)}`
    const trigger = await t.http('POST', `${P}/triggers`, { token: MARK, json: { description: 'x' } })
    const token = (trigger.body as Json).token as string
    const triggered = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${token}` })
    expect([triggered.status, triggered.body]).toEqual([
      400,
      { message: { base: ['Missing CI config file'] } },
    ])
    const api = await t.http('POST', `${P}/pipeline`, { token: MARK, json: { ref: 'main' } })
    expect([api.status, api.body]).toEqual([400, { message: { base: ['Missing CI config file'] } }])
    // Nothing kept: no pipeline, not even a failed one.
    expect((await t.http('GET', `${P}/pipelines`, { token: MARK })).body).toEqual([])
    await commitFiles(t, path, 'main', { '.gitlab-ci.yml': 'build:\n  script: echo build\n' })
    const again = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${token}` })
    expect(again.status).toBe(201)
    expect(await jobs((again.body as Json).id as number, P)).toEqual([['build', 'test', 'created']])
  })
})

describe('POST /projects/:id/pipeline', () => {
  it.each([
    ['17.10.0', 'echo deploy to staging'],
    ['17.11.0', 'echo deploy to production'],
  ])(
    "GitLab %s uses the request's inputs only where ci_inputs_for_pipelines is on by default",
    async (version, script) => {
      const old = await startServer(pipelineSeed, { clock: manualClock(), gitlabVersion: version })
      try {
        await commitFiles(old, 'acme/app', 'ci', {
          '.gitlab-ci.yml':
            'spec:\n  inputs:\n    target: { default: staging }\n---\ndeploy:\n  script: echo deploy to $[[ inputs.target ]]\n',
        })
        for (const how of ['api', 'trigger'] as const) {
          const res =
            how === 'api'
              ? await old.http('POST', `${APP}/pipeline`, {
                  token: MARK,
                  json: { ref: 'ci', inputs: { target: 'production' } },
                })
              : await old.http('POST', `${APP}/trigger/pipeline`, {
                  json: { ref: 'ci', token: MARK_TRIGGER, inputs: { target: 'production' } },
                })
          expect(res.status).toBe(201)
          const [job] = old.server.store.pipelines.jobs((res.body as Json).id as number)
          expect(old.server.store.jobDefinitions.get(job?.id as number)?.script).toEqual([script])
        }
      } finally {
        await old.close()
      }
    },
  )

  it('creates an api pipeline with variables and inputs from the config', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `spec:
  inputs:
    target: { options: [staging, production] }
    replicas: { type: number, default: 1 }
---
deploy:
  script: echo deploy to $[[ inputs.target ]] x$[[ inputs.replicas ]]
  rules:
    - if: $CI_PIPELINE_SOURCE == "api" && $GO == "1"
`,
    })
    const res = await t.http('POST', `${APP}/pipeline`, {
      token: MARK,
      json: {
        ref: 'ci',
        variables: [{ key: 'GO', value: '1' }],
        inputs: { target: 'production', replicas: 3 },
      },
    })
    expect(res.status).toBe(201)
    const made = res.body as Json
    expect(made).toMatchObject({ source: 'api', ref: 'ci', status: 'created' })
    const [job] = t.server.store.pipelines.jobs(made.id as number)
    expect(t.server.store.jobDefinitions.get(job?.id as number)?.script).toEqual([
      'echo deploy to production x3',
    ])
    const vars = await t.http('GET', `${APP}/pipelines/${made.id}/variables`, { token: MARK })
    expect(vars.body).toEqual([{ variable_type: 'env_var', key: 'GO', value: '1' }])

    const bad = await t.http('POST', `${APP}/pipeline`, {
      token: MARK,
      json: { ref: 'ci', inputs: { target: 'qa' } },
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      message: {
        base: ['`target` input: `qa` cannot be used because it is not in the list of the allowed options'],
      },
    })
  })

  it("is the typed client's pipelines.create, which throws GitLab's refusal", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'job: { script: echo hi }\n' })
    const api = createClient({
      baseUrl: t.baseUrl,
      token: MARK,
      retry: { sleep: async () => undefined, maxRetries: 0 },
    })
    const made = await api.pipelines.create('acme/app', { ref: 'ci', variables: [{ key: 'A', value: '1' }] })
    expect(made).toMatchObject({ source: 'api', ref: 'ci', status: 'created' })
    await expect(api.pipelines.create('acme/app', { ref: 'nope' })).rejects.toMatchObject({ status: 400 })
  })

  it('refuses what GitLab refuses: no ref, an unknown ref, a guest, an outsider', async () => {
    expect((await t.http('POST', `${APP}/pipeline`, { token: MARK, json: {} })).body).toEqual({
      error: 'ref is missing',
    })
    const unknown = await t.http('POST', `${APP}/pipeline`, { token: MARK, json: { ref: 'nope' } })
    expect([unknown.status, unknown.body]).toEqual([400, { message: { base: ['Reference not found'] } }])
    const guest = await t.http('POST', `${APP}/pipeline`, { token: GUS, json: { ref: 'main' } })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const outsider = await t.http('POST', `${APP}/pipeline`, { token: OTTO, json: { ref: 'main' } })
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Project Not Found' }])
    const anonymous = await t.http('POST', `${APP}/pipeline`, { json: { ref: 'main' } })
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
  })
})

describe('retry of a planned pipeline', () => {
  it('replaces the failed job, keeps its definition, and runs the skipped ones after it by stages', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml':
        'build: { stage: build, script: echo build }\ntest: { stage: test, script: echo test }\n',
    })
    const id = ((await trigger()).body as Json).id as number
    // The first run is made to fail; the retried job runs its script, which succeeds.
    failing(id, 'build')
    await run(30_000)
    expect(await jobs(id)).toEqual([
      ['build', 'build', 'failed'],
      ['test', 'test', 'skipped'],
    ])
    const retried = await t.http('POST', `${APP}/pipelines/${id}/retry`, { token: MARK })
    expect(retried.status).toBe(201)
    const fresh = t.server.store.pipelines.jobs(id).find((j) => j.name === 'build' && j.retried === 0)
    expect(t.server.store.jobDefinitions.get(fresh?.id as number)?.script).toEqual(['echo build'])
    expect(await jobs(id)).toEqual([
      ['build', 'build', 'pending'],
      ['test', 'test', 'created'],
    ])
    await run(30_000)
    expect(await jobs(id)).toEqual([
      ['build', 'build', 'success'],
      ['test', 'test', 'success'],
    ])
    expect((await pipeline(id)).status).toBe('success')
  })
})
