import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, type AddressInfo } from 'node:net'
import { startServer, type TestServer } from '../support/server.js'
import { manualClock } from '../support/pipeline-seed.js'
import { runBundle, whileRunning } from '../support/action-run.js'
import { commitFiles } from '../support/ci-files.js'
import { inspectDb } from '../../src/server/store/inspect.js'

const tok = (n: string) => `glptt-${n.repeat(40 / n.length)}`
const T = { app: tok('a1'), failing: tok('b2'), canceled: tok('c3'), manual: tok('d4') }
const MARK = 'glpat-mark-token'
const RITA = 'glpat-rita-reporter-token'
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: ${MARK} }
  - { username: gus, token: glpat-gus-token }
  - { username: rita, token: ${RITA} }
groups:
  - { path: acme, visibility: private, members: { mark: maintainer, gus: guest, rita: reporter } }
projects:
  - { path: acme/app, refs: [main, develop], ci_jobs: [build, test], triggers: [ { description: d, owner: mark, token: ${T.app} } ] }
  - { path: acme/failing, ci_outcome: failed, ci_jobs: [build, test, deploy], triggers: [ { description: d, owner: mark, token: ${T.failing} } ] }
  - { path: acme/canceled, ci_outcome: canceled, triggers: [ { description: d, owner: mark, token: ${T.canceled} } ] }
  - { path: acme/manual, ci_outcome: manual, ci_jobs: [build, release], triggers: [ { description: d, owner: mark, token: ${T.manual} } ] }
`
type Json = Record<string, unknown>
let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(seed, { clock })
})
afterEach(() => t.close())

const base = (project: string, token: string, more: Record<string, string> = {}) => ({
  'gitlab-url': t.baseUrl,
  project,
  token,
  'access-token': MARK,
  'poll-interval': '50ms',
  ...more,
})
/** Moves the server's clock on while the action waits, so pipelines progress without sleeping. */
const pump = (child: ChildProcess) => whileRunning(child, () => clock.advance(400))
const pipelineOf = async (project: string, id: string) =>
  (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/pipelines/${id}`, { token: MARK }))
    .body as Json
/** The log as the runner shows it: `::add-mask::` commands are consumed by the runner, never printed. */
const shown = (log: string) =>
  log
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')
const expectNoSecrets = (log: string) => {
  for (const secret of [...Object.values(T), MARK]) expect(shown(log)).not.toContain(secret)
}

describe('trigger-pipeline bundle', () => {
  it('triggers with variables, waits for success, sets every output and writes a summary', async () => {
    const run = await runBundle(
      'trigger-pipeline',
      base('acme/app', T.app, { ref: 'develop', variables: 'DEPLOY_ENV=staging\nNOTE=a=b' }),
      { during: pump },
    )
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'success', 'pipeline-iid': '1' })
    expect(Object.keys(run.outputs).sort()).toEqual([
      'pipeline-id',
      'pipeline-iid',
      'sha',
      'status',
      'web-url',
    ])
    const p = await pipelineOf('acme/app', run.outputs['pipeline-id'] as string)
    expect(p).toMatchObject({
      status: 'success',
      ref: 'develop',
      sha: run.outputs.sha,
      web_url: run.outputs['web-url'],
    })
    const vars = await t.http('GET', `/api/v4/projects/acme%2Fapp/pipelines/${p.id}/variables`, {
      token: MARK,
    })
    expect(vars.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'DEPLOY_ENV', value: 'staging' }),
        expect.objectContaining({ key: 'NOTE', value: 'a=b' }),
      ]),
    )
    expect(run.log).toMatch(/\[\d+(ms|s)\] pipeline \d+: running/)
    expect(run.log).toContain('with variables DEPLOY_ENV, NOTE')
    expect(run.log).not.toContain('staging')
    expect(run.summary).toContain(`<a href="${run.outputs['web-url']}">`)
    expect(run.summary).toContain('success')
    expectNoSecrets(run.log)
    expect(run.summary).not.toContain(T.app)
  })

  it('never sends a token in a URL: the request log shows every call it made, none with a query holding one', async () => {
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app), { during: pump })
    expect(run.code).toBe(0)
    const log = await t.http('GET', '/-/emulator/requests', {
      token: 'glpat-root-token',
      query: 'limit=1000',
    })
    const calls = log.body as { method: string; route: string; query: string | null; status: number }[]
    // The trigger, then the waits on the pipeline.
    expect(calls).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        route: '/api/v4/projects/:id/trigger/pipeline',
        status: 201,
      }),
    )
    expect(
      calls.filter((c) => c.route === '/api/v4/projects/:id/pipelines/:pipeline_id').length,
    ).toBeGreaterThan(0)
    for (const call of calls) {
      // The log writes a secret query parameter's value `[FILTERED]`: neither it nor a token may show.
      expect([call.route, call.query]).toEqual([call.route, expect.not.stringMatching(/FILTERED|token|glp/i)])
      expect(String(call.query)).not.toContain(T.app)
    }
  })

  it("rides out GitLab's rate limit, nginx's 502 page and a dropped connection while it triggers and waits", async () => {
    const rules = [
      {
        method: 'POST',
        route: '/api/v4/projects/:id/trigger/pipeline',
        action: 'status',
        status: 429,
        retry_after: 1,
        times: 1,
      },
      { route: '/api/v4/projects/:id/pipelines/:pipeline_id', action: 'status', status: 502, times: 1 },
      { route: '/api/v4/projects/:id/pipelines/:pipeline_id', action: 'reset', times: 1 },
    ]
    expect(
      (await t.http('POST', '/-/emulator/faults', { token: 'glpat-root-token', json: rules })).status,
    ).toBe(201)
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app), { during: pump })
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('success')
    const log = await t.http('GET', '/-/emulator/requests', {
      token: 'glpat-root-token',
      query: 'limit=1000',
    })
    const faulted = (
      log.body as { method: string; status: number | null; fault: { action: string } | null }[]
    )
      .filter((e) => e.fault)
      .map((e) => [e.method, e.status, e.fault?.action])
    expect(faulted).toEqual([
      ['POST', 429, 'status'],
      ['GET', 502, 'status'],
      ['GET', null, 'reset'],
    ])
    // The trigger was sent again after the 429 (GitLab did nothing), and made one pipeline.
    expect((await t.http('GET', '/api/v4/projects/acme%2Fapp/pipelines', { token: MARK })).body).toHaveLength(
      1,
    )
  })

  it('with wait: false returns right after triggering, without an access token', async () => {
    const inputs: Record<string, string> = {
      ...base('acme/app', T.app, { wait: 'false', variables: '{"A": 1}' }),
    }
    delete inputs['access-token']
    const run = await runBundle('trigger-pipeline', inputs)
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('created')
    expect((await pipelineOf('acme/app', run.outputs['pipeline-id'] as string)).status).toBe('created')
  })

  it("over http, loads neither HTTP/2 nor TLS (undici's HTTP/2 client, never enabled, requires http2 at load)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-modules-'))
    try {
      const list = join(dir, 'modules.txt')
      const preload = join(dir, 'record.mjs')
      writeFileSync(
        preload,
        `import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')))\n`,
      )
      const run = await runBundle('trigger-pipeline', base('acme/app', T.app, { wait: 'false' }), {
        env: { NODE_OPTIONS: `--import=${preload}` },
      })
      expect(run.code).toBe(0)
      expect(run.outputs.status).toBe('created')
      const modules = readFileSync(list, 'utf8').split('\n')
      expect(modules).toContain('NativeModule http')
      for (const unused of ['http2', 'tls'])
        expect([unused, modules.includes(`NativeModule ${unused}`)]).toEqual([unused, false])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("loads the YAML parser only for variables written as YAML, never TypeBox's value checker, the toolkit's summary module or undici's fetch body", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-modules-'))
    try {
      // Every file the bundle loads (its entry and the chunks it imports), written out at exit.
      const list = join(dir, 'files.txt')
      const preload = join(dir, 'record.mjs')
      writeFileSync(
        preload,
        `import { registerHooks } from 'node:module'\nimport { writeFileSync } from 'node:fs'\nconst files = []\n` +
          `registerHooks({ load(url, context, next) { if (url.startsWith('file:')) files.push(url); return next(url, context) } })\n` +
          `process.on('exit', () => writeFileSync(${JSON.stringify(list)}, files.join('\\n')))\n`,
      )
      /** Whether some file the bundle loaded holds each of `marks`. */
      const loaded = async (variables: string, marks: string[], env: Record<string, string> = {}) => {
        const run = await runBundle(
          'trigger-pipeline',
          base('acme/app', T.app, { wait: 'false', variables }),
          {
            env: { NODE_OPTIONS: `--import=${preload}`, ...env },
          },
        )
        expect(run.code).toBe(0)
        expect(run.summary).toContain('acme/app')
        const files = readFileSync(list, 'utf8')
          .split('\n')
          .filter((f) => f.includes('/dist/'))
        expect(files.length).toBeGreaterThan(0)
        const texts = files.map((f) => readFileSync(new URL(f), 'utf8'))
        return marks.map((mark) => [mark, texts.some((text) => text.includes(mark))])
      }
      // yaml's YAMLMap class; TypeBox's ValueErrorIterator (its checker's errors: only `validate` uses
      // it); @actions/core's summary module (markdownSummary), whose fs.promises the summary does without
      expect(await loaded('A=1\nB=two', ['YAMLMap', 'ValueErrorIterator', 'markdownSummary'])).toEqual([
        ['YAMLMap', false],
        ['ValueErrorIterator', false],
        ['markdownSummary', false],
      ])
      expect(await loaded('A: 1\nB: two', ['YAMLMap'])).toEqual([['YAMLMap', true]])
      // undici's fetch body (and WebIDL, llhttp without SIMD) wait in lazy-modules.cjs
      // (scripts/lazy-modules.mjs), loaded by a path that needs one: JEST_WORKER_ID makes undici
      // take its llhttp without SIMD.
      const body = 'Response body object should not be disturbed or locked'
      expect(await loaded('A=1', [body])).toEqual([[body, false]])
      expect(await loaded('A=1', [body], { JEST_WORKER_ID: '1' })).toEqual([[body, true]])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('fails on a failed pipeline, naming the failed job and its reason', async () => {
    const run = await runBundle('trigger-pipeline', base('acme/failing', T.failing), { during: pump })
    expect(run.code).toBe(1)
    expect(run.outputs.status).toBe('failed')
    expect(run.log).toMatch(/::error::Pipeline \d+ failed: job 'deploy' \(script_failure\)/)
    expect(run.summary).toContain('<th>Failed job</th>')
    expectNoSecrets(run.log)
  })

  it('fails on a canceled pipeline', async () => {
    const run = await runBundle('trigger-pipeline', base('acme/canceled', T.canceled), { during: pump })
    expect(run.code).toBe(1)
    expect(run.outputs.status).toBe('canceled')
    expect(run.log).toMatch(/::error::Pipeline \d+ was canceled on GitLab/)
  })

  it('on-manual: fail fails, pass passes', async () => {
    const fail = await runBundle('trigger-pipeline', base('acme/manual', T.manual), { during: pump })
    expect(fail.code).toBe(1)
    expect(fail.outputs.status).toBe('manual')
    expect(fail.log).toContain("stopped at a manual job and waits for someone to run it ('on-manual: fail')")
    const pass = await runBundle('trigger-pipeline', base('acme/manual', T.manual, { 'on-manual': 'pass' }), {
      during: pump,
    })
    expect(pass.code).toBe(0)
    expect(pass.outputs.status).toBe('manual')
  })

  it('stops at the timeout, cancels the pipeline, and says so', async () => {
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app, { timeout: '1s' }))
    expect(run.code).toBe(1)
    expect(run.log).toMatch(
      /::error::Pipeline \d+ was still created after 1s \('timeout'\); pipeline \d+ was canceled \('cancel-on-abort'\)/,
    )
    expect(run.outputs.status).toBe('canceled')
    expect((await pipelineOf('acme/app', run.outputs['pipeline-id'] as string)).status).toBe('canceled')
    expect(run.summary).toContain('canceled (timeout)')
  })

  it('a bad access-token triggers nothing, and says which token failed and why', async () => {
    const before = await t.http('GET', '/api/v4/projects/acme%2Fapp/pipelines', { token: MARK })
    const run = await runBundle(
      'trigger-pipeline',
      base('acme/app', T.app, { 'access-token': 'glpat-wrong' }),
    )
    expect(run.code).toBe(1)
    expect(shown(run.log)).toContain(
      "::error::Nothing was triggered: GitLab refused 'access-token' (401 Unauthorized): it is wrong, expired or revoked. Waiting for the pipeline and cancelling it need 'access-token'",
    )
    const after = await t.http('GET', '/api/v4/projects/acme%2Fapp/pipelines', { token: MARK })
    expect(after.body).toEqual(before.body)
    // The 401 is named once, not as '401 401 Unauthorized'.
    expect(run.log).not.toContain('401 401')
  })

  it('GitLab unreachable: the error names the URL and what to check', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise((r) => closed.close(r))
    const run = await runBundle('trigger-pipeline', {
      ...base('acme/app', T.app),
      'gitlab-url': `http://127.0.0.1:${port}`,
    })
    expect(run.code).toBe(1)
    expect(run.log).toContain(
      `could not reach GitLab at http://127.0.0.1:${port}/api/v4 (ECONNREFUSED): the connection was refused: check the host and port, and that GitLab is up`,
    )
  })

  it('refuses a bad trigger token and a missing project with a message to act on', async () => {
    const bad = await runBundle('trigger-pipeline', base('acme/app', tok('ff')))
    expect(bad.code).toBe(1)
    expect(bad.log).toContain("::error::GitLab answered 404 to the trigger: project 'acme/app' on")
    expect(bad.outputs).toEqual({})
    expectNoSecrets(bad.log)
    expect(shown(bad.log)).not.toContain(tok('ff'))
    const missing = await runBundle('trigger-pipeline', base('acme/nope', T.app))
    expect(missing.code).toBe(1)
    expect(missing.log).toContain(
      "::error::Nothing was triggered: 'access-token' cannot read pipelines of project 'acme/nope' (404",
    )
  })

  it('checks inputs before calling GitLab', async () => {
    const yes = await runBundle('trigger-pipeline', base('acme/app', T.app, { wait: 'yes' }))
    expect(yes.code).toBe(1)
    expect(yes.log).toContain("::error::Input 'wait' must be true or false, got 'yes'")
    const noRead = await runBundle('trigger-pipeline', base('acme/app', T.app, { 'access-token': '' }))
    expect(noRead.log).toContain("::error::Input 'access-token' is required when 'wait' is true")
    const none = await runBundle('trigger-pipeline', { 'gitlab-url': t.baseUrl, project: 'acme/app' })
    expect(none.log).toContain('::error::Input required and not supplied: token')
    const pipelines = await t.http('GET', '/api/v4/projects/acme%2Fapp/pipelines', { token: MARK })
    expect(pipelines.body).toEqual([])
  })

  it('an action that fails before triggering still writes a job summary saying why', async () => {
    const bad = await runBundle('trigger-pipeline', base('acme/app', T.app, { wait: 'yes' }))
    expect(bad.code).toBe(1)
    expect(bad.summary).toBe(
      '<h2>❌ trigger-pipeline failed</h2>\n<p>Input &#39;wait&#39; must be true or false, got &#39;yes&#39;</p>\n',
    )
    const refused = await runBundle(
      'trigger-pipeline',
      base('acme/app', T.app, { 'access-token': 'glpat-wrong' }),
    )
    expect(refused.summary).toContain('<h2>❌ trigger-pipeline failed</h2>')
    expect(refused.summary).toContain(
      '<p>Nothing was triggered: GitLab refused &#39;access-token&#39; (401 Unauthorized)',
    )
    expectNoSecrets(refused.summary)
  })

  it("a Reporter's access-token, which cannot cancel, triggers nothing while 'cancel-on-abort' holds", async () => {
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app, { 'access-token': RITA }))
    expect(run.code).toBe(1)
    expect(run.log).toContain(
      "::error::Nothing was triggered: 'access-token' is Reporter on project 'acme/app': it can follow the pipeline but not cancel it, which 'cancel-on-abort' needs when the job is cancelled (Developer or higher). Give the token's user Developer, or set 'cancel-on-abort: false'",
    )
    expect(run.summary).toContain('is Reporter on project')
    const pipelines = await t.http('GET', '/api/v4/projects/acme%2Fapp/pipelines', { token: MARK })
    expect(pipelines.body).toEqual([])
    // Without 'cancel-on-abort' a Reporter follows the pipeline; an administrator needs no membership.
    for (const more of [
      { 'access-token': RITA, 'cancel-on-abort': 'false' } as Record<string, string>,
      { 'access-token': 'glpat-root-token' },
    ]) {
      const ok = await runBundle('trigger-pipeline', base('acme/app', T.app, more), { during: pump })
      expect([ok.code, ok.outputs.status]).toEqual([0, 'success'])
    }
  })

  it('reports an access token that cannot read the pipeline', async () => {
    const run = await runBundle(
      'trigger-pipeline',
      base('acme/app', T.app, { 'access-token': 'glpat-nobody' }),
    )
    expect(run.code).toBe(1)
    expect(run.log).toContain("::error::Nothing was triggered: GitLab refused 'access-token' (401")
  })

  const untilStarted = (child: ChildProcess, log: () => string) =>
    whileRunning(
      child,
      () => undefined,
      20,
      () => /pipeline \d+: created/.test(log()),
    )

  it('cancels the GitLab pipeline on SIGTERM while waiting', async () => {
    let seen = ''
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app), {
      during: async (child) => {
        child.stdout?.on('data', (d: Buffer) => (seen += d.toString()))
        await untilStarted(child, () => seen)
        child.kill('SIGTERM')
      },
    })
    expect(run.code).toBe(1)
    expect(run.log).toContain('Received SIGTERM: stopping')
    expect(run.log).toMatch(/Canceled GitLab pipeline \d+ \('cancel-on-abort'\)/)
    expect((await pipelineOf('acme/app', run.outputs['pipeline-id'] as string)).status).toBe('canceled')
    expect(run.outputs.status).toBe('canceled')
  })

  it('cancels the pipeline when the job is cancelled while the trigger request is still under way', async () => {
    // A slow link: GitLab has created the pipeline, its answer (about 1 KB) is still on the way for a
    // second or so (a server fault), well within the action's grace for it.
    const slow = await t.http('POST', '/-/emulator/faults', {
      token: 'glpat-root-token',
      json: { route: '/api/v4/projects/:id/trigger/pipeline', action: 'slow_body', bytes_per_second: 1000 },
    })
    expect(slow.status).toBe(201)
    const count = () =>
      inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM pipelines').pluck().get() as number
    const before = count()
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app), {
      during: async (child) => {
        await whileRunning(
          child,
          () => undefined,
          10,
          () => count() > before,
        )
        child.kill('SIGINT')
      },
    })
    expect(run.log).toContain('Received SIGINT: stopping')
    expect(run.log).toMatch(/Canceled GitLab pipeline \d+ \('cancel-on-abort'\)/)
    expect(run.code).toBe(1)
    expect((await pipelineOf('acme/app', run.outputs['pipeline-id'] as string)).status).toBe('canceled')
  })

  it('leaves the pipeline running on SIGINT with cancel-on-abort: false', async () => {
    let seen = ''
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app, { 'cancel-on-abort': 'false' }), {
      during: async (child) => {
        child.stdout?.on('data', (d: Buffer) => (seen += d.toString()))
        await untilStarted(child, () => seen)
        child.kill('SIGINT')
      },
    })
    expect(run.code).toBe(1)
    expect(run.log).toContain("keeps running on GitLab ('cancel-on-abort: false')")
    expect((await pipelineOf('acme/app', run.outputs['pipeline-id'] as string)).status).toBe('created')
  })
})

describe('trigger-pipeline bundle: the values of its variables', () => {
  /** A deploy key's shape: GitLab could mask it (no whitespace, 8 characters or more). */
  const KEY = 'c2VjcmV0LWRlcGxveS1rZXk+/=@:.~-'
  /** A job that echoes the variables it was given, then fails: its log tail comes home. */
  const echoing = () =>
    commitFiles(t, 'acme/app', 'main', {
      '.gitlab-ci.yml':
        'deploy:\n  script:\n    - echo "key=$DEPLOY_KEY env=$DEPLOY_ENV note=$NOTE"\n    - exit 1\n',
    })
  // `staging` is too short to mask, `two words` has a space: GitLab could mask neither.
  const variables = `DEPLOY_KEY=${KEY}\nDEPLOY_ENV=staging\nNOTE=two words`

  it('registers each value GitLab could mask before logging, and masks it in the log tail and the summary', async () => {
    await echoing()
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app, { variables }), { during: pump })
    expect(run.code).toBe(1)
    const masks = run.log.split('\n').filter((l) => l.startsWith('::add-mask::'))
    expect(masks).toContain(`::add-mask::${KEY}`)
    expect(masks.filter((l) => /staging|two words/.test(l))).toEqual([])
    expect(run.log.indexOf(`::add-mask::${KEY}`)).toBeLessThan(run.log.indexOf('Triggering a pipeline'))
    // The job did echo it: the tail shows it masked, in the log and in the summary alike.
    expect(shown(run.log)).toContain('key=*** env=staging note=two words')
    expect(run.summary).toContain('key=*** env=staging note=two words')
    expect(shown(run.log)).not.toContain(KEY)
    expect(run.summary).not.toContain(KEY)
    // The summary names the variables, never their values.
    expect(run.summary).toContain('DEPLOY_KEY, DEPLOY_ENV, NOTE')
  })

  it("masks them in GitLab's error message too, in the log and the summary", async () => {
    // A configuration GitLab refuses with an error naming a stage spelled as the key.
    await commitFiles(t, 'acme/app', 'main', {
      '.gitlab-ci.yml': `deploy:\n  stage: "${KEY}"\n  script: [exit 0]\n`,
    })
    const run = await runBundle('trigger-pipeline', base('acme/app', T.app, { variables }), { during: pump })
    expect(run.code).toBe(1)
    expect(shown(run.log)).toContain('deploy job: chosen stage *** does not exist')
    expect(run.summary).toContain('deploy job: chosen stage *** does not exist')
    expect(shown(run.log)).not.toContain(KEY)
    expect(run.summary).not.toContain(KEY)
  })

  it("'mask-variables: false' leaves the values as the job printed them", async () => {
    await echoing()
    const run = await runBundle(
      'trigger-pipeline',
      base('acme/app', T.app, { variables, 'mask-variables': 'false' }),
      { during: pump },
    )
    expect(run.code).toBe(1)
    expect(run.log).not.toContain(`::add-mask::${KEY}`)
    expect(run.summary).toContain(`key=${KEY} env=staging`)
  })
})
