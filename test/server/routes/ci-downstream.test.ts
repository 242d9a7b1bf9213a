import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commitFiles } from '../../support/ci-files.js'
import { fileServer } from '../../support/file-server.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

const MARK = 'glpat-mark-token'
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
/** Besides the pipeline seed: a public and a private project of a group mark is no member of. */
const seed = pipelineSeed
  .replace(
    'aliases:',
    `  - { path: outside/public-lib, visibility: public }
  - { path: outside/secret, visibility: private }
aliases:`,
  )
  .replace('groups:\n', 'groups:\n  - { path: outside, visibility: public }\n')
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(seed, { clock })
})
afterEach(() => t.close())

const trigger = async () => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
const run = async (ms: number) => {
  for (let left = ms; left > 0; left -= 500) clock.advance(Math.min(500, left))
  await t.http('GET', `${APP}/pipelines`, { token: MARK })
}
const statuses = (pipelineId: number, on = t) =>
  Object.fromEntries(on.server.store.pipelines.jobs(pipelineId).map((j) => [j.name, j.status]))
const listed = async (project: string, query = '') =>
  (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/pipelines`, { token: MARK, query }))
    .body as Json[]

const PARENT = `
build: { stage: build, script: echo build }
child:
  stage: test
  variables: { GREETING: hello }
  trigger:
    include: ci/child.yml
    strategy: depend
after: { stage: deploy, script: echo after }
`

describe('child pipelines (trigger: include)', () => {
  it('starts a parent_pipeline child of the same commit; a depend bridge follows it; the bridge is no job', async () => {
    const sha = await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': PARENT,
      'ci/child.yml': 'child-job:\n  script: echo $GREETING\n',
    })
    const parent = await trigger()
    const jobs = (await t.http('GET', `${APP}/pipelines/${parent}/jobs`, { token: MARK })).body as Json[]
    expect(jobs.map((j) => j.name).sort()).toEqual(['after', 'build'])
    await run(4000)
    const [child] = await listed('acme/app', 'source=parent_pipeline')
    expect(child).toMatchObject({ source: 'parent_pipeline', ref: 'ci', sha })
    const childId = child?.id as number
    expect(t.server.store.pipelines.byId(childId)).toMatchObject({ upstream_pipeline_id: parent })
    const bridge = t.server.store.pipelines.jobs(parent).find((j) => j.name === 'child')
    expect(t.server.store.ciProcessables.bridges(parent)).toEqual([
      expect.objectContaining({ build_id: bridge?.id, downstream_pipeline_id: childId }),
    ])
    expect(statuses(parent)).toMatchObject({ build: 'success', child: 'running', after: 'created' })
    // The bridge's variables go down to the child (forward:yaml_variables).
    const vars = (await t.http('GET', `${APP}/pipelines/${childId}/variables`, { token: MARK }))
      .body as Json[]
    expect(vars).toEqual([{ variable_type: 'env_var', key: 'GREETING', value: 'hello' }])
    await run(30_000)
    expect(statuses(childId)).toEqual({ 'child-job': 'success' })
    expect(statuses(parent)).toEqual({ build: 'success', child: 'success', after: 'success' })
    const shown = (await t.http('GET', `${APP}/pipelines/${parent}`, { token: MARK })).body as Json
    expect(shown.status).toBe('success')
  })

  it('a failing child fails a depend bridge, which skips what follows and fails the parent', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': PARENT,
      'ci/child.yml': 'child-job: { script: exit 1 }\n',
    })
    const parent = await trigger()
    await run(4000)
    const childId = (await listed('acme/app', 'source=parent_pipeline'))[0]?.id as number
    const job = t.server.store.pipelines.jobs(childId)[0]
    if (job) t.server.store.pipelines.setJob({ ...job, outcome: 'failed' })
    await run(30_000)
    expect(statuses(childId)).toEqual({ 'child-job': 'failed' })
    expect(statuses(parent)).toEqual({ build: 'success', child: 'failed', after: 'skipped' })
    expect(t.server.store.pipelines.byId(parent)?.status).toBe('failed')
  })

  it("the emulator's forced status of a child moves its depend bridge and the parent", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': PARENT,
      'ci/child.yml': 'child-job: { script: x }\n',
    })
    const parent = await trigger()
    await run(4000)
    const childId = (await listed('acme/app', 'source=parent_pipeline'))[0]?.id as number
    const forced = await t.http('PUT', `/-/emulator/projects/acme%2Fapp/pipelines/${childId}`, {
      token: 'glpat-root-token',
      json: { status: 'failed' },
    })
    expect(forced.status).toBe(200)
    expect(statuses(parent)).toEqual({ build: 'success', child: 'failed', after: 'skipped' })
    expect(t.server.store.pipelines.byId(parent)?.status).toBe('failed')
  })

  it.each([
    ['does not exist', undefined, 'Local file `ci/child.yml` does not exist!'],
    [
      'is invalid',
      'child-job: { script: x, bogus: 1 }\n',
      'jobs:child-job config contains unknown keys: bogus',
    ],
    [
      'includes a remote file it may not fetch',
      'include: http://127.0.0.1/ci.yml\nchild-job: { script: x }\n',
      'Remote file could not be fetched because URL is blocked: Requests to localhost are not allowed!',
    ],
  ])(
    'a child config that %s fails the bridge (downstream_pipeline_creation_failed) and leaves a failed child with yaml_errors',
    async (_, child, message) => {
      await commitFiles(t, 'acme/app', 'ci', {
        '.gitlab-ci.yml': PARENT,
        ...(child === undefined ? {} : { 'ci/child.yml': child }),
      })
      const parent = await trigger()
      await run(30_000)
      // A remote include is fetched after the bridge's turn: settle waits for the child.
      expect((await t.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
      const bridge = t.server.store.pipelines.jobs(parent).find((j) => j.name === 'child')
      expect(bridge).toMatchObject({
        status: 'failed',
        failure_reason: 'downstream_pipeline_creation_failed',
      })
      expect(statuses(parent)).toEqual({ build: 'success', child: 'failed', after: 'skipped' })
      // GitLab persists the child it could not configure (`Chain::Config::Process` drops it with
      // `config_error`), linked to the bridge, with no jobs.
      const children = await listed('acme/app', 'source=parent_pipeline')
      expect(children).toEqual([
        expect.objectContaining({ status: 'failed', source: 'parent_pipeline', ref: 'ci' }),
      ])
      const childId = children[0]?.id as number
      expect(t.server.store.pipelines.byId(childId)).toMatchObject({ upstream_pipeline_id: parent })
      expect(t.server.store.pipelines.jobs(childId)).toEqual([])
      expect((await listed('acme/app', 'yaml_errors=true')).map((p) => p.id)).toEqual([childId])
      const shown = (await t.http('GET', `${APP}/pipelines/${childId}`, { token: MARK })).body as Json
      expect(shown).toMatchObject({ status: 'failed', yaml_errors: message })
      const bridges = (await t.http('GET', `${APP}/pipelines/${parent}/bridges`, { token: MARK }))
        .body as Json[]
      expect(bridges).toEqual([
        expect.objectContaining({
          name: 'child',
          status: 'failed',
          failure_reason: 'downstream_pipeline_creation_failed',
          downstream_pipeline: expect.objectContaining({ id: childId, status: 'failed' }),
        }),
      ])
    },
  )
})

describe('a child pipeline including project and remote files', () => {
  it('reads the project files as the upstream user, fetches the remote ones, then starts the child', async () => {
    const web = await fileServer(
      {
        '/ci/parent_pipeline.yml': 'include: { local: ci/local.yml }\nremote-job: { script: echo remote }\n',
      },
      100,
    )
    const local = await startServer(seed, { clock: manualClock(), allowLocalRequests: true })
    try {
      await commitFiles(local, 'acme/other', 'main', { 'ci/shared.yml': 'shared-job: { script: x }\n' })
      await commitFiles(local, 'acme/app', 'ci', {
        '.gitlab-ci.yml': `build: { stage: build, script: x }
child:
  stage: test
  trigger:
    include:
      - { project: acme/other, file: ci/shared.yml }
      - { remote: "${web.base}/ci/$CI_PIPELINE_SOURCE.yml" }
    strategy: depend
`,
        'ci/local.yml': 'local-job: { script: x }\n',
      })
      const res = await local.http('POST', `${APP}/trigger/pipeline`, {
        form: `ref=ci&token=${MARK_TRIGGER}`,
      })
      expect(res.status).toBe(201)
      const parent = (res.body as Json).id as number
      const settled = await local.http('POST', '/-/emulator/settle', { token: ROOT })
      expect(settled.status).toBe(200)
      // Its variables expanded in the location: the child's source.
      expect(web.requests).toEqual(['/ci/parent_pipeline.yml'])
      const bridge = local.server.store.pipelines.jobs(parent).find((j) => j.name === 'child')
      expect(bridge?.status).toBe('success')
      const childId = local.server.store.ciProcessables.get(bridge?.id as number)?.downstream_pipeline_id
      const jobs = local.server.store.pipelines.jobs(childId as number).map((j) => [j.name, j.status])
      expect(jobs.sort()).toEqual([
        ['local-job', 'success'],
        ['remote-job', 'success'],
        ['shared-job', 'success'],
      ])
      expect(local.server.store.pipelines.byId(parent)?.status).toBe('success')
    } finally {
      await local.close()
      await web.close()
    }
  })
})

describe('a child canceled while its remote includes are fetched', () => {
  it('keeps nothing of them: after a reset, a bridge with the same id fetches the file anew', async () => {
    const files = { '/child.yml': 'old-job: { script: x }\n' }
    const web = await fileServer(files, 100)
    const own = manualClock()
    const local = await startServer(seed, { clock: own, allowLocalRequests: true })
    const parentConfig = `build: { stage: build, script: x }
child:
  stage: test
  trigger: { include: [ { remote: "${web.base}/child.yml" } ], strategy: depend }
`
    /** A parent pipeline whose bridge is waiting for the child's remote file. */
    const waitingBridge = async () => {
      await commitFiles(local, 'acme/app', 'ci', { '.gitlab-ci.yml': parentConfig })
      const res = await local.http('POST', `${APP}/trigger/pipeline`, {
        form: `ref=ci&token=${MARK_TRIGGER}`,
      })
      const parent = (res.body as Json).id as number
      const bridge = () => local.server.store.pipelines.jobs(parent).find((j) => j.name === 'child')
      for (let i = 0; i < 60 && bridge()?.status !== 'pending'; i++) {
        own.advance(500)
        await local.http('GET', `${APP}/pipelines`, { token: MARK })
      }
      expect(bridge()?.status).toBe('pending')
      return { parent, bridgeId: bridge()?.id as number }
    }
    try {
      const first = await waitingBridge()
      // The pipeline's cancel reaches its bridge (the job route finds builds only, `find_build!`).
      const canceled = await local.http('POST', `${APP}/pipelines/${first.parent}/cancel`, { token: ROOT })
      expect(canceled.status).toBe(200)
      expect(local.server.store.pipelines.job(first.bridgeId)?.status).toBe('canceled')
      // The fetch ends after the cancel; the bridge does not start.
      expect((await local.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
      expect(web.requests).toEqual(['/child.yml'])
      expect(local.server.store.ciProcessables.get(first.bridgeId)?.downstream_pipeline_id).toBeNull()
      expect((await local.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
      files['/child.yml'] = 'new-job: { script: x }\n'
      const second = await waitingBridge()
      expect(second.bridgeId).toBe(first.bridgeId)
      expect((await local.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
      expect(web.requests).toEqual(['/child.yml', '/child.yml'])
      const childId = local.server.store.ciProcessables.get(second.bridgeId)?.downstream_pipeline_id
      expect(local.server.store.pipelines.jobs(childId as number).map((j) => j.name)).toEqual(['new-job'])
    } finally {
      await local.close()
      await web.close()
    }
  })
})

describe('a snapshot saved while a bridge waited for its remote includes', () => {
  it('asks the bridge again once restored: its files are fetched anew and settle waits for the child', async () => {
    const files = { '/child.yml': 'first-job: { script: x }\n' }
    const web = await fileServer(files, 100)
    const own = manualClock()
    const local = await startServer(seed, { clock: own, allowLocalRequests: true })
    try {
      await commitFiles(local, 'acme/app', 'ci', {
        '.gitlab-ci.yml': `build: { stage: build, script: x }
child:
  stage: test
  trigger: { include: [ { remote: "${web.base}/child.yml" } ], strategy: depend }
`,
      })
      const res = await local.http('POST', `${APP}/trigger/pipeline`, {
        form: `ref=ci&token=${MARK_TRIGGER}`,
      })
      const parent = (res.body as Json).id as number
      const bridge = () => local.server.store.pipelines.jobs(parent).find((j) => j.name === 'child')
      for (let i = 0; i < 60 && bridge()?.status !== 'pending'; i++) {
        own.advance(500)
        await local.http('GET', `${APP}/pipelines`, { token: MARK })
      }
      expect(bridge()?.status).toBe('pending')
      const saved = await local.http('POST', '/-/emulator/snapshots/waiting', { token: ROOT })
      expect(saved.status).toBe(201)
      expect((await local.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
      expect(bridge()?.status).toBe('success')
      files['/child.yml'] = 'second-job: { script: x }\n'
      const restored = await local.http('POST', '/-/emulator/snapshots/waiting/restore', { token: ROOT })
      expect(restored.status).toBe(200)
      expect(bridge()?.status).toBe('pending')
      expect((await local.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
      expect(web.requests).toEqual(['/child.yml', '/child.yml'])
      expect(statuses(parent, local)).toEqual({ build: 'success', child: 'success' })
      const childId = local.server.store.ciProcessables.get(bridge()?.id as number)?.downstream_pipeline_id
      expect(statuses(childId as number, local)).toEqual({ 'second-job': 'success' })
    } finally {
      await local.close()
      await web.close()
    }
  })
})

describe('a child waiting for its remote includes across a restart (--data)', () => {
  it('is asked again: its remote files are fetched anew and the child starts', async () => {
    // The first run's fetch never gets an answer; the next run's does.
    let answering = false
    const requests: string[] = []
    const web = createServer((req, res) => {
      requests.push(req.url ?? '')
      if (answering) res.writeHead(200, { 'content-type': 'text/plain' }).end('remote-job: { script: x }\n')
    })
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
    const dir = mkdtempSync(join(tmpdir(), 'gla-child-'))
    const own = manualClock()
    const options = { data: dir, clock: own, allowLocalRequests: true }
    try {
      const first = await startServer(seed, options)
      await commitFiles(first, 'acme/app', 'ci', {
        '.gitlab-ci.yml': `build: { stage: build, script: x }
child:
  stage: test
  trigger: { include: [ { remote: "${base}/child.yml" } ], strategy: depend }
`,
      })
      const res = await first.http('POST', `${APP}/trigger/pipeline`, {
        form: `ref=ci&token=${MARK_TRIGGER}`,
      })
      const parent = (res.body as Json).id as number
      for (let i = 0; i < 60 && requests.length === 0; i++) {
        own.advance(500)
        await first.http('GET', `${APP}/pipelines`, { token: MARK })
      }
      expect(requests).toEqual(['/child.yml'])
      expect(statuses(parent, first)).toEqual({ build: 'success', child: 'pending' })
      await first.close()
      answering = true
      const second = await startServer(seed, options)
      try {
        expect((await second.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
        expect(requests).toEqual(['/child.yml', '/child.yml'])
        expect(statuses(parent, second)).toEqual({ build: 'success', child: 'success' })
        const bridge = second.server.store.pipelines.jobs(parent).find((j) => j.name === 'child')
        const childId = second.server.store.ciProcessables.get(bridge?.id as number)?.downstream_pipeline_id
        expect(statuses(childId as number, second)).toEqual({ 'remote-job': 'success' })
      } finally {
        await second.close()
      }
    } finally {
      web.closeAllConnections()
      await new Promise<void>((resolve) => web.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('multi-project pipelines (trigger: project)', () => {
  it("keeps the other project's pipeline failed when its configuration is invalid, linked to the failed bridge", async () => {
    await commitFiles(t, 'acme/other', 'main', { '.gitlab-ci.yml': 'deploy: { script: x, bogus: 1 }\n' })
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'downstream:\n  trigger: { project: acme/other, branch: main, strategy: depend }\n',
    })
    const parent = await trigger()
    await run(2000)
    const [down] = await listed('acme/other')
    expect(down).toMatchObject({ status: 'failed', source: 'pipeline', ref: 'main' })
    const bridges = (await t.http('GET', `${APP}/pipelines/${parent}/bridges`, { token: MARK }))
      .body as Json[]
    expect(bridges).toEqual([
      expect.objectContaining({
        status: 'failed',
        failure_reason: 'downstream_pipeline_creation_failed',
        downstream_pipeline: expect.objectContaining({ id: down?.id, project_id: down?.project_id }),
      }),
    ])
    const shown = (
      await t.http('GET', `/api/v4/projects/acme%2Fother/pipelines/${down?.id as number}`, { token: MARK })
    ).body as Json
    expect(shown.yaml_errors).toBe('jobs:deploy config contains unknown keys: bogus')
  })

  it("starts a `pipeline` in the other project's branch for the upstream user; without depend the bridge succeeds at once", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
downstream:
  trigger: { project: acme/other, branch: main }
missing:
  trigger: acme/nowhere
`,
    })
    const parent = await trigger()
    await run(2000)
    const [down] = await listed('acme/other')
    expect(down).toMatchObject({ source: 'pipeline', ref: 'main' })
    expect(t.server.store.pipelines.byId(down?.id as number)).toMatchObject({ upstream_pipeline_id: parent })
    expect(statuses(parent)).toEqual({ downstream: 'success', missing: 'failed' })
    const missing = t.server.store.pipelines.jobs(parent).find((j) => j.name === 'missing')
    expect(missing?.failure_reason).toBe('downstream_bridge_project_not_found')
  })

  it('needs Developer in the downstream project: one it sees is insufficient_bridge_permissions, a hidden one not found', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'visible:\n  trigger: outside/public-lib\nhidden:\n  trigger: outside/secret\n',
    })
    const parent = await trigger()
    await run(2000)
    const reasons = Object.fromEntries(
      t.server.store.pipelines.jobs(parent).map((j) => [j.name, [j.status, j.failure_reason]]),
    )
    expect(reasons).toEqual({
      visible: ['failed', 'insufficient_bridge_permissions'],
      hidden: ['failed', 'downstream_bridge_project_not_found'],
    })
    expect(await listed('outside/public-lib')).toEqual([])
  })
})
