import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os, { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { FormData, request } from 'undici'
import { startServer, type TestServer } from '../support/server.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../support/pipeline-seed.js'
import { filesDump, storeDump } from '../support/store-dump.js'
import { hookReceiver } from '../support/hook-receiver.js'
import { inspectDb } from '../../src/server/store/inspect.js'
import { createClient } from '../../src/api/client.js'
import type { ServerOptions } from '../../src/server/start/build-server.js'
import { exportSettled, importFile, settled as importSettled } from '../support/imports.js'

/*
 * A reset returns the store to its snapshot: an in-memory store rolls back the transaction it has
 * held since (src/server/store/snapshot.ts), one with a data directory undoes the rows changed
 * since (src/server/store/undo-log.ts). After every kind of write the server has, the store (every
 * table, rowids, sqlite_sequence) and the files (of the data directory, or the temporary folders of
 * an in-memory store) are again as they were right after the snapshot, and a suite run again
 * answers the same ids, iids, times and orders.
 */
const examples = readFileSync(join(__dirname, '../../examples/seed.yaml'), 'utf8')
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

let t: TestServer
/** The data directory, or for an in-memory store the TMPDIR its temporary folders are made in. */
let data: string
let persistent: boolean

/** Starts a server on `seed` over the test's storage. */
const open = async (
  seed = examples,
  options: Omit<ServerOptions, 'seed'> = { clock: manualClock('2026-12-01T10:00:00.000Z') },
) => {
  t = await startServer(seed, persistent ? { ...options, data } : options)
}

/** Each test of the block on a fresh server: with a data directory, or in memory. */
function onStorage(withData: boolean) {
  beforeEach(async () => {
    persistent = withData
    data = mkdtempSync(join(tmpdir(), 'reset-undo-'))
    // The in-memory store's temporary folders (uploads, transfers) are made here, to be compared.
    if (!withData) jest.spyOn(os, 'tmpdir').mockReturnValue(data)
    await open()
  })
  afterEach(async () => {
    await t.close()
    jest.restoreAllMocks()
    rmSync(data, { recursive: true, force: true })
  })
}

const reset = async () =>
  expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
const ok = async (method: string, path: string, options: Parameters<TestServer['http']>[2] = {}) => {
  const res = await t.http(method, path, { token: ROOT, ...options })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body as Json
}
/** Runs `suite` after a reset, and again after another: the two runs' answers. */
const twice = async <T>(suite: () => Promise<T>): Promise<[T, T]> => {
  await reset()
  const first = await suite()
  await reset()
  return [first, await suite()]
}
/** The store and the files under `data` (a data directory's database and key file aside). */
const state = () => ({
  store: storeDump(t.server.store),
  files: filesDump(
    data,
    (path) => path.startsWith('gitlab.sqlite3') || (!path.includes('/') && path.startsWith('.')),
  ),
})

async function until(what: string, check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function uploadMetricImage(iid: number) {
  const form = new FormData()
  form.append('file', new Blob([Buffer.from('PNG bytes')]), 'graph.png')
  form.append('url_text', 'Graph')
  const res = await request(`${t.baseUrl}${P}/issues/${iid}/metric_images`, {
    method: 'POST',
    body: form,
    headers: { 'private-token': ROOT },
  })
  expect(res.statusCode).toBe(201)
  await res.body.dump()
}

/** One write or more through each route family that writes. */
async function writeEverything() {
  // Issues and their sub-resources, notes (with quick actions), time tracking.
  const issue = await ok('POST', `${P}/issues`, { json: { title: 'Made by a test', labels: 'bug,docs' } })
  await ok('PUT', `${P}/issues/1`, {
    json: { title: 'Renamed', add_labels: 'feature', state_event: 'close' },
  })
  await ok('POST', `${P}/issues/1/notes`, { json: { body: 'A note\n/spend 1h' } })
  await ok('POST', `${P}/issues/${issue.iid}/notes`, { json: { body: 'On the new issue' } })
  await ok('POST', `${P}/issues/1/time_estimate`, { json: { duration: '2h' } })
  await ok('POST', `${P}/issues/2/add_spent_time`, { json: { duration: '30m' } })
  await ok('POST', `${P}/issues/2/reset_spent_time`)
  await ok('POST', `${P}/issues/2/award_emoji`, { json: { name: 'thumbsup' } })
  await ok('POST', `${P}/issues/2/links`, {
    json: { target_project_id: 'acme/widgets', target_issue_iid: 1 },
  })
  await ok('POST', `${P}/issues/2/unsubscribe`, { token: ALICE })
  await ok('POST', `${P}/issues/2/todo`)
  await ok('DELETE', `${P}/issues/${issue.iid}`)
  await ok('POST', `${P}/issues`, { json: { title: 'After a delete' } })
  // Labels (a deleted one takes its issues' links with it) and milestones.
  await ok('POST', `${P}/labels`, { json: { name: 'new', color: '#123456' } })
  await ok('PUT', `${P}/labels/bug`, { json: { new_name: 'defect' } })
  await ok('DELETE', `${P}/labels/docs`)
  const milestone = await ok('POST', `${P}/milestones`, { json: { title: 'v3.0' } })
  await ok('PUT', `${P}/milestones/${milestone.id}`, { json: { state_event: 'close' } })
  const milestones = (await ok('GET', `${P}/milestones`)) as unknown as Json[]
  await ok('DELETE', `${P}/milestones/${milestones.find((m) => m.title === 'v1.0')!.id}`)
  // Metric images (EE; the file lands in the data directory).
  const incident = await ok('POST', `${P}/issues`, { json: { title: 'Outage', issue_type: 'incident' } })
  await uploadMetricImage(incident.iid as number)
  // Triggers and the pipelines they start, one cancelled, one deleted.
  const trigger = await ok('POST', `${P}/triggers`, { json: { description: 'nightly' } })
  const pipeline = await ok('POST', `${P}/trigger/pipeline`, {
    token: undefined,
    form: `token=${trigger.token}&ref=main`,
  })
  await ok('POST', `${P}/pipelines/${pipeline.id}/cancel`)
  const deleted = await ok('POST', `${P}/trigger/pipeline`, {
    token: undefined,
    form: `token=${trigger.token}&ref=main`,
  })
  await ok('DELETE', `${P}/pipelines/${deleted.id}`)
  // Commit statuses: one on the triggered pipeline's commit (which moves it), one moved on.
  await ok('POST', `${P}/statuses/${pipeline.sha}`, { json: { state: 'running', ref: 'main', name: 'ext' } })
  await ok('POST', `${P}/statuses/${pipeline.sha}`, { json: { state: 'success', ref: 'main', name: 'ext' } })
  // CI/CD variables: made, edited, one deleted.
  await ok('POST', `${P}/variables`, { json: { key: 'KEEP', value: 'kept-value', masked: true } })
  await ok('POST', `${P}/variables`, { json: { key: 'GONE', value: 'x', environment_scope: 'review/*' } })
  await ok('PUT', `${P}/variables/KEEP`, { json: { value: 'changed-value', protected: true } })
  await ok('DELETE', `${P}/variables/GONE`)
  // Pipeline schedules: made, edited, played (a pipeline linked to it), a variable kept, one deleted.
  const schedule = await ok('POST', `${P}/pipeline_schedules`, {
    json: { description: 'nightly', ref: 'main', cron: '0 1 * * *' },
  })
  const S = `${P}/pipeline_schedules/${schedule.id}`
  await ok('PUT', S, { json: { cron: '30 2 * * *', cron_timezone: 'Europe/Paris' } })
  await ok('POST', `${S}/variables`, { json: { key: 'NIGHTLY', value: 'sealed-value' } })
  await ok('POST', `${S}/variables`, { json: { key: 'GONE', value: 'x' } })
  await ok('DELETE', `${S}/variables/GONE`)
  await ok('POST', `${S}/play`)
  const dropped = await ok('POST', `${P}/pipeline_schedules`, {
    json: { description: 'dropped', ref: 'main', cron: '* * * * *' },
  })
  await ok('DELETE', `${P}/pipeline_schedules/${dropped.id}`)
  // The job token scope: the limit turned off and on, a project and a group allowlisted, one taken off.
  const widgets = (await ok('GET', P)).id as number
  const api = (await ok('GET', '/api/v4/projects/acme%2Fplatform%2Fapi')).id as number
  await ok('PATCH', `${P}/job_token_scope`, { json: { enabled: false } })
  await ok('PATCH', `${P}/job_token_scope`, { json: { enabled: true } })
  await ok('POST', `/api/v4/projects/${widgets}/job_token_scope/allowlist`, {
    json: { target_project_id: api },
  })
  const acme = (await ok('GET', '/api/v4/groups/acme')).id as number
  await ok('POST', `/api/v4/projects/${widgets}/job_token_scope/groups_allowlist`, {
    json: { target_group_id: acme },
  })
  await ok('DELETE', `/api/v4/projects/${widgets}/job_token_scope/groups_allowlist/${acme}`)
  await ok('POST', `/api/v4/projects/${widgets}/job_token_scope/groups_allowlist`, {
    json: { target_group_id: acme },
  })
  // Aliases (EE, administrators).
  await ok('POST', '/api/v4/project_aliases', { json: { project_id: 'acme/widgets', name: 'widgets-alias' } })
  // Users and tokens.
  const user = await ok('POST', '/api/v4/users', {
    json: { username: 'dora', name: 'Dora', email: 'dora@example.com', password: 'a-long-password-1' },
  })
  await ok('PUT', `/api/v4/users/${user.id}`, { json: { bio: 'Tester' } })
  const pat = await ok('POST', `/api/v4/users/${user.id}/personal_access_tokens`, {
    json: { name: 'ci', scopes: ['api'] },
  })
  await ok('POST', `/api/v4/personal_access_tokens/${pat.id}/rotate`)
  await ok('POST', `/api/v4/users/${user.id}/block`)
  // An export, whose archive lands in the data directory.
  await ok('POST', `${P}/export`)
  await until('the export', async () => (await ok('GET', `${P}/export`)).export_status === 'finished')
  // The seed endpoint.
  await ok('POST', '/-/emulator/seed', { json: { users: [{ username: 'erin', token: 'glpat-erin-token' }] } })
}

/** The route families `writeEverything` leaves out: projects, forks, groups, members, runners, discussions, webhooks, imports. */
async function writeTheRest() {
  // Projects and groups, their members, labels, milestones and access tokens.
  const project = await ok('POST', '/api/v4/projects', {
    json: { name: 'Walk', description: 'Made by a test' },
  })
  await ok('PUT', `/api/v4/projects/${project.id}`, { json: { description: 'Edited' } })
  // Forks: the seeded project forked (refs, commits and a protected default branch copied), the
  // relation removed and linked again; a fork of a fork joins the same network, and its source goes.
  const fork = await ok('POST', `${P}/fork`, {
    json: { path: 'widgets-fork', name: 'Widgets fork', namespace_path: 'acme' },
  })
  await ok('DELETE', `/api/v4/projects/${fork.id}/fork`)
  await ok('POST', `/api/v4/projects/${fork.id}/fork/${project.id}`)
  await ok('POST', `/api/v4/projects/${fork.id}/fork`, { json: { path: 'walk-fork', name: 'Walk fork' } })
  // The middle fork deleted for good: its row cascades, its own fork stays with no source.
  await ok('DELETE', `/api/v4/projects/${fork.id}`)
  const marked = `acme/widgets-fork-deletion_scheduled-${String(fork.id)}`
  await ok(
    'DELETE',
    `/api/v4/projects/${fork.id}?permanently_remove=true&full_path=${encodeURIComponent(marked)}`,
  )
  await ok('POST', `/api/v4/projects/${project.id}/members`, { json: { user_id: 2, access_level: 30 } })
  await ok('POST', `/api/v4/projects/${project.id}/access_tokens`, {
    json: { name: 'bot', scopes: ['api'], access_level: 30 },
  })
  const group = await ok('POST', '/api/v4/groups', { json: { name: 'Walkers', path: 'walkers' } })
  await ok('PUT', `/api/v4/groups/${group.id}`, { json: { description: 'A group' } })
  await ok('POST', `/api/v4/groups/${group.id}/members`, { json: { user_id: 3, access_level: 20 } })
  await ok('POST', `/api/v4/groups/${group.id}/labels`, { json: { name: 'group-label', color: '#abcdef' } })
  await ok('POST', `/api/v4/groups/${group.id}/milestones`, { json: { title: 'Group milestone' } })
  await ok('POST', `/api/v4/groups/${group.id}/variables`, { json: { key: 'G_KEEP', value: 'group-value' } })
  await ok('POST', `/api/v4/groups/${group.id}/variables`, { json: { key: 'G_GONE', value: 'x' } })
  await ok('PUT', `/api/v4/groups/${group.id}/variables/G_KEEP`, {
    json: { masked: true, value: 'masked-value' },
  })
  await ok('DELETE', `/api/v4/groups/${group.id}/variables/G_GONE`)
  await ok('PUT', `/api/v4/projects/${project.id}/members/2`, { json: { access_level: 40 } })
  // Runners: created, edited, enabled in the imported-from project, one reset and verified, one deleted.
  const runner = await ok('POST', '/api/v4/user/runners', {
    json: { runner_type: 'project_type', project_id: project.id, tag_list: 'docker' },
  })
  await ok('PUT', `/api/v4/runners/${runner.id}`, { json: { paused: true, description: 'walked' } })
  await ok('POST', `${P}/runners`, { json: { runner_id: runner.id } })
  const reset = await ok('POST', `/api/v4/runners/${runner.id}/reset_authentication_token`)
  await ok('POST', '/api/v4/runners/verify', { json: { token: reset.token } })
  const gone = await ok('POST', '/api/v4/user/runners', { json: { runner_type: 'instance_type' } })
  await ok('DELETE', `/api/v4/runners/${gone.id}`)
  // Discussions: a thread and a reply.
  const thread = await ok('POST', `${P}/issues/1/discussions`, { json: { body: 'A thread' } })
  await ok('POST', `${P}/issues/1/discussions/${thread.id}/notes`, { json: { body: 'A reply' } })
  // Webhooks (push events only: nothing here delivers).
  const hook = await ok('POST', `${P}/hooks`, { json: { url: 'https://hooks.example.com/a' } })
  await ok('PUT', `${P}/hooks/${hook.id}`, { json: { url: 'https://hooks.example.com/b' } })
  const other = await ok('POST', `${P}/hooks`, { json: { url: 'https://hooks.example.com/c' } })
  await ok('DELETE', `${P}/hooks/${other.id}`)
  // An export imported as a new project: its archive and the import's files land in the data directory.
  await ok('POST', `${P}/export`)
  await exportSettled(t, P, ROOT)
  const download = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
  const archive = join(data, '..', `${data.split('/').pop()}-export.tar.gz`)
  writeFileSync(archive, Buffer.from(await download.body.arrayBuffer()))
  try {
    const imported = await importFile(
      t,
      archive,
      { path: 'widgets-copy', namespace: 'acme' },
      ROOT,
      'x.tar.gz',
    )
    expect(imported.status).toBe(201)
    expect(await importSettled(t, imported.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
  } finally {
    rmSync(archive, { force: true })
  }
}

const APP = '/api/v4/projects/acme%2Fapp'
const MARK = 'glpat-mark-token'
/** A build with an artifact, a failing test and a manual deploy. */
const CI = `
stages: [build, test, deploy]
build:
  stage: build
  script: [echo hi > out.txt]
  artifacts: { paths: [out.txt] }
unit:
  stage: test
  environment: review/$CI_COMMIT_REF_SLUG
  script: [exit 1]
  allow_failure: true
release:
  stage: deploy
  environment: { name: production, url: https://example.com, auto_stop_in: 1 day }
  script: [echo released]
  when: manual
`

/**
 * On pipelineSeed's acme/app: a webhook for pushes, jobs, pipelines and deployments (to `hookUrl`), commits and
 * files (one with a `.gitlab-ci.yml`, which makes a push pipeline), branches and an annotated tag,
 * jobs played, retried, cancelled and erased (a build's artifacts with it), the environments and
 * deployments they made and some made through the API, a triggered pipeline then deleted, and a relation import of an export of the project into itself.
 */
async function writeRepositoryAndCi(hookUrl: string) {
  const settle = async () => {
    const res = await t.http('POST', '/-/emulator/settle', { token: ROOT, json: {} })
    expect(res.status).toBe(200)
  }
  await ok('POST', `${APP}/hooks`, {
    token: MARK,
    json: {
      url: hookUrl,
      push_events: true,
      job_events: true,
      pipeline_events: true,
      deployment_events: true,
    },
  })
  await ok('POST', `${APP}/repository/commits`, {
    token: MARK,
    json: {
      branch: 'develop',
      commit_message: 'CI',
      actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }],
    },
  })
  await ok('POST', `${APP}/repository/files/docs%2Fa.md`, {
    token: MARK,
    json: { branch: 'develop', content: 'A file', commit_message: 'Docs' },
  })
  await ok('POST', `${APP}/repository/branches`, { token: MARK, json: { branch: 'topic', ref: 'develop' } })
  await ok('POST', `${APP}/repository/tags`, {
    token: MARK,
    json: { tag_name: 'v1.0', ref: 'develop', message: 'Release' },
  })
  await ok('DELETE', `${APP}/repository/branches/feature%2Fx`, { token: MARK })
  await settle()
  const pushed = (await ok('GET', `${APP}/pipelines`, {
    token: MARK,
    query: 'source=push',
  })) as unknown as Json[]
  const jobs = (await ok('GET', `${APP}/pipelines/${pushed.at(-1)!.id}/jobs`, {
    token: MARK,
  })) as unknown as Json[]
  const job = (name: string) => jobs.find((j) => j.name === name)!.id as number
  expect((await t.http('GET', `${APP}/jobs/${job('build')}/artifacts/out.txt`, { token: MARK })).text).toBe(
    'hi\n',
  )
  await ok('POST', `${APP}/jobs/${job('unit')}/retry`, { token: MARK })
  await ok('POST', `${APP}/jobs/${job('release')}/play`, { token: MARK })
  await settle()
  await ok('POST', `${APP}/jobs/${job('build')}/erase`, { token: MARK })
  const triggered = await ok('POST', `${APP}/trigger/pipeline`, {
    token: undefined,
    form: `token=${MARK_TRIGGER}&ref=develop`,
  })
  const [first] = (await ok('GET', `${APP}/pipelines/${triggered.id}/jobs`, {
    token: MARK,
  })) as unknown as Json[]
  await ok('POST', `${APP}/jobs/${first!.id as number}/cancel`, { token: MARK })
  await settle()
  // Environments and deployments through the API (the jobs above made and moved theirs).
  const env = await ok('POST', `${APP}/environments`, { token: MARK, json: { name: 'staging' } })
  await ok('PUT', `${APP}/environments/${env.id}`, { token: MARK, json: { tier: 'testing' } })
  await ok('POST', `${APP}/environments/${env.id}/stop`, { token: MARK })
  await ok('DELETE', `${APP}/environments/${env.id}`, { token: MARK })
  const develop = await ok('GET', `${APP}/repository/branches/develop`, { token: MARK })
  const deployment = await ok('POST', `${APP}/deployments`, {
    token: MARK,
    json: {
      environment: 'canary',
      sha: (develop.commit as Json).id,
      ref: 'develop',
      tag: false,
      status: 'running',
    },
  })
  await ok('PUT', `${APP}/deployments/${deployment.id}`, { token: MARK, json: { status: 'success' } })
  // A pipeline deleted (an administrator's right), its jobs and their traces with it.
  await ok('DELETE', `${APP}/pipelines/${triggered.id}`, { token: ROOT })
  // The project exported, and its issues imported into it again as a relation import.
  await ok('POST', `${APP}/export`, { token: MARK })
  await exportSettled(t, APP, MARK)
  const download = await request(`${t.baseUrl}${APP}/export/download`, { headers: { 'private-token': MARK } })
  const archive = join(data, '..', `${data.split('/').pop()}-app.tar.gz`)
  writeFileSync(archive, Buffer.from(await download.body.arrayBuffer()))
  try {
    const client = createClient({ baseUrl: t.baseUrl, token: ROOT })
    const started = await client.projectImports.importRelation(archive, {
      path: 'acme/app',
      relation: 'issues',
    })
    const done = await client.projectImports.waitForRelationImport(started, { intervalMs: 10 })
    expect(done.tracker.status).toBe('finished')
  } finally {
    rmSync(archive, { force: true })
  }
  await settle()
}

describe.each([
  { storage: 'with a data directory (its undo log)', withData: true, restored: 'undo' },
  { storage: 'in memory (its held transaction rolled back)', withData: false, restored: 'rollback' },
] as const)('a reset $storage', ({ withData, restored }) => {
  onStorage(withData)

  it('returns the store and the files to the snapshot after projects, groups, members, discussions, webhooks and imports', async () => {
    await reset()
    const snapshot = state()
    await writeTheRest()
    expect(state().store).not.toEqual(snapshot.store)
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe(restored)
    expect(state()).toEqual(snapshot)
    // And with everything else on top, twice.
    for (let i = 0; i < 2; i++) {
      await writeEverything()
      await writeTheRest()
      await reset()
      expect(t.server.store.snapshot.lastRestore).toBe(restored)
      expect(state()).toEqual(snapshot)
    }
  })

  it('returns the store and the files to the snapshot after a write through every route family', async () => {
    await reset()
    const snapshot = state()
    await writeEverything()
    const written = state()
    expect(written.store).not.toEqual(snapshot.store)
    expect(Object.keys(written.files).length).toBeGreaterThan(Object.keys(snapshot.files).length)
    // The writes recorded events (issues opened and closed, comments) for the reset to take back.
    expect(written.store.events!.length).toBeGreaterThan(snapshot.store.events!.length)
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe(restored)
    expect(state()).toEqual(snapshot)
    // Twice in a row: the log was emptied and logs again.
    await writeEverything()
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe(restored)
    expect(state()).toEqual(snapshot)
    // A reset with nothing written since (but what requests themselves may record) changes nothing.
    await reset()
    expect(state()).toEqual(snapshot)
  })

  it('returns the store and the files to the snapshot after repository, CI, job, push hook and relation import writes', async () => {
    const receiver = await hookReceiver()
    try {
      // Another seed, on a data directory of its own.
      await t.close()
      rmSync(data, { recursive: true })
      mkdirSync(data)
      await open(pipelineSeed, { clock: manualClock(), allowLocalRequests: true })
      await reset()
      const snapshot = state()
      await writeRepositoryAndCi(receiver.url)
      expect(receiver.got.map((r) => r.headers['x-gitlab-event'])).toEqual(
        expect.arrayContaining(['Push Hook', 'Deployment Hook']),
      )
      const written = state().store
      const changed = Object.keys(written).filter(
        (table) => JSON.stringify(written[table]) !== JSON.stringify(snapshot.store[table]),
      )
      expect(changed).toEqual(
        expect.arrayContaining([
          'annotated_tags',
          'ci_builds',
          'ci_job_artifacts',
          'ci_job_states',
          'ci_job_traces',
          'deployments',
          'environments',
          'events',
          'git_objects',
          'job_environments',
          'pipelines',
          'project_commits',
          'project_refs',
          'push_event_payloads',
          'relation_import_trackers',
          'web_hook_logs',
          'web_hooks',
        ]),
      )
      await reset()
      expect(t.server.store.snapshot.lastRestore).toBe(restored)
      expect(state()).toEqual(snapshot)
      // The same writes again give the same ids, and undo as well.
      await writeRepositoryAndCi(receiver.url)
      await reset()
      expect(state()).toEqual(snapshot)
    } finally {
      await receiver.close()
    }
  })

  it('gives a suite run twice with a reset between the same answers (ids, iids, created_at, list orders)', async () => {
    const suite = async () => {
      const answers: unknown[] = []
      for (let i = 0; i < 3; i++)
        answers.push(await ok('POST', `${P}/issues`, { json: { title: `Suite ${i}`, labels: 'bug' } }))
      answers.push(await ok('POST', `${P}/issues/1/notes`, { json: { body: 'Suite note' } }))
      answers.push(await ok('POST', `${P}/labels`, { json: { name: 'suite', color: '#00ff00' } }))
      answers.push(await ok('POST', `${P}/milestones`, { json: { title: 'Suite milestone' } }))
      const user = await ok('POST', '/api/v4/users', {
        json: { username: 'suite', name: 'Suite', email: 'suite@example.com', password: 'a-long-password-1' },
      })
      answers.push(user)
      const { token: _secret, ...pat } = await ok('POST', `/api/v4/users/${user.id}/personal_access_tokens`, {
        json: { name: 'suite', scopes: ['api'] },
      })
      answers.push(pat)
      answers.push(await ok('GET', `${P}/issues`, { query: 'order_by=created_at&sort=desc&per_page=100' }))
      answers.push(await ok('GET', '/api/v4/users', { query: 'per_page=100' }))
      return answers
    }
    const [first, second] = await twice(suite)
    expect(second).toEqual(first)
    expect((first[0] as Json).iid).toBe(((first[1] as Json).iid as number) - 1)
  })

  it('under a frozen clock, a suite run twice with a reset between answers the same bodies, times and headers', async () => {
    await t.close()
    await open(examples, { frozenAt: new Date('2030-01-01T00:00:00Z') })
    const FROZEN = '2030-01-01T00:00:00.000Z'
    // Headers that name the request rather than the answer are left out.
    const answer = (res: Awaited<ReturnType<TestServer['http']>>) => {
      const { date: _date, 'x-request-id': _id, 'x-runtime': _runtime, ...headers } = res.headers
      return { status: res.status, headers, body: res.body }
    }
    const suite = async () => {
      const answers: unknown[] = []
      const call = async (method: string, path: string, options: Parameters<TestServer['http']>[2] = {}) => {
        const res = await t.http(method, path, { token: ROOT, ...options })
        answers.push(answer(res))
        return res.body as Json
      }
      // A list read first fills the response cache; the writes must not find it answered again.
      await call('GET', `${P}/issues`, { query: 'per_page=2' })
      const issue = await call('POST', `${P}/issues`, { json: { title: 'Frozen', labels: 'bug' } })
      expect(issue.created_at).toBe(FROZEN)
      await call('POST', `${P}/issues/${issue.iid}/notes`, { json: { body: 'Frozen note' } })
      // A discussion's id is random, as GitLab's (`SecureRandom.hex` in `Discussion.build_discussion_id`).
      const thread = await call('POST', `${P}/issues/1/discussions`, { json: { body: 'Frozen thread' } })
      expect(thread.id).toMatch(/^[0-9a-f]{40}$/)
      thread.id = '(random)'
      const project = await call('POST', '/api/v4/projects', { json: { name: 'Frozen project' } })
      await call('POST', `/api/v4/projects/${project.id}/issues`, { json: { title: 'In the new project' } })
      await call('POST', '/api/v4/groups', { json: { name: 'Frozen group', path: 'frozen-group' } })
      await call('POST', `${P}/hooks`, { json: { url: 'https://hooks.example.com/frozen' } })
      // The clock moved within the suite: the reset takes it back.
      await call('POST', '/-/emulator/clock', { json: { action: 'advance', seconds: 3600 } })
      await call('POST', `${P}/issues`, { json: { title: 'An hour later' } })
      await call('GET', `${P}/issues`, { query: 'order_by=created_at&sort=desc&per_page=3&page=2' })
      await call('GET', '/api/v4/projects', { query: 'order_by=id&per_page=100' })
      await call('GET', '/-/emulator/clock')
      return answers
    }
    const [first, second] = await twice(suite)
    expect(second).toEqual(first)
    expect((first[first.length - 1] as { body: Json }).body).toEqual({
      now: '2030-01-01T01:00:00.000Z',
      frozen: true,
    })
    expect(t.server.store.snapshot.lastRestore).toBe(restored)
  })

  it('undoes what SQL alone can do: AUTOINCREMENT counters, INSERT OR REPLACE, a moved key, WITHOUT ROWID rows, cascades', async () => {
    const db = inspectDb(t.server.store)
    // A table made before the snapshot is in it, whichever migration (or branch) made it.
    db.exec('CREATE TABLE counted (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE)')
    db.prepare("INSERT INTO counted (name) VALUES ('kept')").run()
    await reset()
    const snapshot = state()
    expect(snapshot.store.sqlite_sequence).toEqual([{ '(rowid)': 1, name: 'counted', seq: 1 }])
    db.prepare("INSERT INTO counted (name) VALUES ('a'), ('b')").run()
    db.prepare("INSERT OR REPLACE INTO counted (id, name) VALUES (1, 'replaced')").run()
    db.prepare("UPDATE counted SET id = 10 WHERE name = 'a'").run()
    db.prepare("INSERT INTO git_objects (sha, type, body) VALUES ('f00', 'tree', x'00')").run()
    db.prepare("UPDATE git_objects SET body = x'01' WHERE sha IN (SELECT sha FROM git_objects LIMIT 1)").run()
    db.prepare('DELETE FROM labels WHERE id = (SELECT MIN(label_id) FROM issue_labels)').run()
    db.prepare("UPDATE users SET name = 'Renamed' WHERE username = 'alice'").run()
    expect(state().store).not.toEqual(snapshot.store)
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe(restored)
    expect(state()).toEqual(snapshot)
    expect(db.prepare("INSERT INTO counted (name) VALUES ('next') RETURNING id").pluck().get()).toBe(2)
  })
})

describe('a reset with a data directory: the undo log', () => {
  onStorage(true)

  it('restores exactly through the full copy-back when the log overflows its bound', async () => {
    await reset()
    const snapshot = state()
    t.server.store.snapshot.setLogBound(5)
    await writeEverything()
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    expect(state()).toEqual(snapshot)
    // Back to logging: a later reset undoes again.
    t.server.store.snapshot.setLogBound(100_000)
    await ok('POST', `${P}/issues`, { json: { title: 'One more' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('undo')
    expect(state()).toEqual(snapshot)
  })

  it('copies everything back over a partial undo when a delete cascades into a row the log never saw', async () => {
    await reset()
    const snapshot = state()
    const db = inspectDb(t.server.store)
    const { id } = await ok('POST', `${P}/issues`, { json: { title: 'Made since' } })
    await ok('PUT', `${P}/issues/1`, { json: { title: 'Edited since' } })
    // A note written past the log: deleting the new issue cascades into it.
    db.exec('UPDATE undo."undo state" SET logging = 0')
    db.prepare(
      "INSERT INTO notes (issue_id, author_id, body, created_at, updated_at) SELECT ?, 1, 'unlogged', '2026-12-01', '2026-12-01'",
    ).run(id)
    db.exec('UPDATE undo."undo state" SET logging = 1')
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    expect(state()).toEqual(snapshot)
    await ok('POST', `${P}/issues`, { json: { title: 'Logged again' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('undo')
    expect(state()).toEqual(snapshot)
  })

  it('surveys a table only after a delete, a moved key or a changed indexed column, and then puts it back', async () => {
    await reset()
    const snapshot = state()
    const db = inspectDb(t.server.store)
    const label = 'SELECT rowid FROM issue_labels ORDER BY rowid LIMIT 1'
    // Each write alone since the snapshot, after an edit of a column no index reads (which alone
    // needs no survey): a table the undo did not survey would keep it.
    const writes: [string, () => unknown][] = [
      ['an indexed column (state)', () => ok('PUT', `${P}/issues/1`, { json: { state_event: 'close' } })],
      [
        'an indexed column (SQL)',
        () => db.prepare('UPDATE issues SET relative_position = 999 WHERE iid = 1').run(),
      ],
      [
        'a moved key',
        () => db.prepare(`UPDATE issue_labels SET rowid = rowid + 1000 WHERE rowid = (${label})`).run(),
      ],
      ['a deleted row', () => db.prepare(`DELETE FROM issue_labels WHERE rowid = (${label})`).run()],
      [
        'a replaced row',
        () =>
          db
            .prepare(
              `INSERT OR REPLACE INTO issue_labels (issue_id, label_id) SELECT issue_id, label_id FROM issue_labels WHERE rowid = (${label})`,
            )
            .run(),
      ],
    ]
    for (const [kind, write] of writes) {
      await ok('PUT', `${P}/issues/1`, { json: { title: `Before ${kind}` } })
      db.prepare(
        'UPDATE issue_labels SET rowid = rowid WHERE rowid = (SELECT max(rowid) FROM issue_labels)',
      ).run()
      await write()
      expect([kind, state().store]).not.toEqual([kind, snapshot.store])
      await reset()
      expect([kind, t.server.store.snapshot.lastRestore]).toEqual([kind, 'undo'])
      expect([kind, state()]).toEqual([kind, snapshot])
    }
  })

  it('takes the snapshot again when a table was made after it', async () => {
    await reset()
    const issues = (await ok('GET', `${P}/issues`)) as unknown as Json[]
    await ok('POST', `${P}/issues`, { json: { title: 'Before the new table' } })
    inspectDb(t.server.store).exec("CREATE TABLE late (x); INSERT INTO late VALUES ('gone at the reset')")
    await reset()
    // Seeded again (sealed secrets get new nonces): the seed's rows, and the new table empty.
    const retaken = state()
    expect(retaken.store.late).toEqual([])
    expect(await ok('GET', `${P}/issues`)).toEqual(issues)
    await ok('POST', `${P}/issues`, { json: { title: 'After' } })
    inspectDb(t.server.store).exec("INSERT INTO late VALUES ('logged too')")
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('undo')
    expect(state()).toEqual(retaken)
  })

  it('undoes a world built through the API (projects, issues, members, tokens) with foreign keys on or off', async () => {
    const db = inspectDb(t.server.store)
    const { snapshot: control } = t.server.store
    await reset()
    const snapshot = state()
    const world = async (projects: number, issues: number) => {
      const group = await ok('POST', '/api/v4/groups', { json: { name: 'World', path: 'world' } })
      await ok('POST', `/api/v4/groups/${group.id}/members`, { json: { user_id: 2, access_level: 30 } })
      for (let p = 0; p < projects; p++) {
        const project = await ok('POST', '/api/v4/projects', {
          json: { name: `w${p}`, namespace_id: group.id },
        })
        const at = `/api/v4/projects/${project.id}`
        await ok('POST', `${at}/members`, { json: { user_id: 3, access_level: 40 } })
        await ok('POST', `${at}/access_tokens`, { json: { name: 'bot', scopes: ['api'], access_level: 30 } })
        for (let i = 0; i < issues; i++) {
          const issue = await ok('POST', `${at}/issues`, { json: { title: `w${p}-${i}`, labels: 'world' } })
          await ok('POST', `${at}/issues/${issue.iid}/notes`, { json: { body: 'A note' } })
        }
      }
      // Rows of the seed changed too, to point at rows made since.
      await ok('PUT', `${P}/issues/1`, { json: { title: 'Edited', labels: 'world' } })
      await ok('POST', '/api/v4/users/2/personal_access_tokens', { json: { name: 'world', scopes: ['api'] } })
      expect(state().store).not.toEqual(snapshot.store)
    }
    // The default weighs the deletes: this world (a few hundred foreign key actions) keeps them on.
    await world(3, 4)
    await reset()
    expect([control.lastRestore, control.lastUnchecked]).toEqual(['undo', false])
    expect(state()).toEqual(snapshot)
    // The same world undone with them off ends in the same valid store.
    control.setUncheckedAbove(0)
    try {
      await world(3, 4)
      await reset()
      expect([control.lastRestore, control.lastUnchecked]).toEqual(['undo', true])
      expect(state()).toEqual(snapshot)
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
      expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1)
    } finally {
      control.setUncheckedAbove(10_000)
    }
    // A small reset after it keeps them on again.
    await ok('POST', `${P}/issues`, { json: { title: 'Small' } })
    await reset()
    expect([control.lastRestore, control.lastUnchecked]).toEqual(['undo', false])
    expect(state()).toEqual(snapshot)
  })

  it("leaves the WAL's checkpoint its commit would run for idle time; a kill before it loses nothing", async () => {
    await reset()
    const db = inspectDb(t.server.store)
    // Every commit that leaves a frame in the WAL is due a checkpoint: so is the reset's.
    db.exec('PRAGMA wal_autocheckpoint = 1')
    await ok('POST', `${P}/issues`, { json: { title: 'Made since' } })
    await ok('PUT', `${P}/issues/1`, { json: { title: 'Edited since' } })
    const file = join(data, 'gitlab.sqlite3')
    const checkpointed = readFileSync(file)
    t.server.reset()
    // The reset's commit wrote the WAL only: the database file is as the last checkpoint left it.
    expect(readFileSync(file).equals(checkpointed)).toBe(true)
    // The files a kill would leave now (no -shm: SQLite rebuilds it from the WAL) hold the reset.
    const killed = mkdtempSync(join(tmpdir(), 'reset-undo-killed-'))
    try {
      for (const name of ['gitlab.sqlite3', 'gitlab.sqlite3-wal'])
        writeFileSync(join(killed, name), readFileSync(join(data, name)))
      const copy = new DatabaseSync(join(killed, 'gitlab.sqlite3'))
      const issues = 'SELECT rowid, * FROM issues ORDER BY rowid'
      try {
        expect(copy.prepare(issues).all()).toEqual(
          db
            .prepare(issues)
            .all()
            .map((row) => ({ ...(row as Json) })),
        )
      } finally {
        copy.close()
      }
    } finally {
      rmSync(killed, { recursive: true, force: true })
    }
    // At idle time the checkpoint copies the reset into the database file.
    await new Promise((done) => setImmediate(done))
    expect(readFileSync(file).equals(checkpointed)).toBe(false)
    expect(db.prepare('PRAGMA wal_autocheckpoint').pluck().get()).toBe(1)
  })

  it('undoes on a second connection with foreign keys off; the caches read the rows it put back', async () => {
    await reset()
    const snapshot = state()
    const db = inspectDb(t.server.store)
    const project = await ok('POST', '/api/v4/projects', { json: { name: 'Made since' } })
    await ok('PUT', '/api/v4/groups/acme', { json: { description: 'Edited since' } })
    // Read once each: the project and the group are cached rows now.
    await ok('GET', `/api/v4/projects/${String(project.id)}`)
    expect((await ok('GET', '/api/v4/groups/acme')).description).toBe('Edited since')
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('undo')
    expect(t.server.store.snapshot.lastUndoConnection).toBe(true)
    expect(state()).toEqual(snapshot)
    // Written by the other connection, which the store connection's caches hear of.
    expect((await t.http('GET', `/api/v4/projects/${String(project.id)}`, { token: ROOT })).status).toBe(404)
    expect((await ok('GET', '/api/v4/groups/acme')).description).not.toBe('Edited since')
    // The store's own connection keeps foreign keys on.
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1)
    await ok('POST', `${P}/issues`, { json: { title: 'Logged again' } })
    await reset()
    expect([t.server.store.snapshot.lastRestore, t.server.store.snapshot.lastUndoConnection]).toEqual([
      'undo',
      true,
    ])
    expect(state()).toEqual(snapshot)
  })

  it('keeps the log out of the data directory: a kill between the writes and the reset leaves a store that opens', async () => {
    await reset()
    const issue = await ok('POST', `${P}/issues`, { json: { title: 'Made before the kill' } })
    // The files a kill would leave now (no -shm: SQLite rebuilds it from the WAL).
    const killed = mkdtempSync(join(tmpdir(), 'reset-undo-killed-'))
    const files = readdirSync(data)
    expect(files.filter((name) => /undo/i.test(name))).toEqual([])
    // The log's database is in memory (SQLite names no file for it), on the store's connection.
    const attached = inspectDb(t.server.store).prepare('PRAGMA database_list').all() as Json[]
    expect(attached.filter(({ name }) => name === 'undo').map(({ file }) => file)).toEqual([''])
    try {
      cpSync(data, killed, { recursive: true, filter: (from) => !from.endsWith('-shm') })
      const restarted = await startServer(examples, { data: killed })
      try {
        const made = `${P}/issues/${String(issue.iid)}`
        expect((await restarted.http('GET', made, { token: ROOT })).status).toBe(200)
        expect((await restarted.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
        expect((await restarted.http('GET', made, { token: ROOT })).status).toBe(404)
        // The restarted store keeps a log of its own: its next reset undoes on the second connection.
        const again = await restarted.http('POST', `${P}/issues`, { token: ROOT, json: { title: 'After' } })
        expect(again.status).toBe(201)
        expect((await restarted.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
        expect([
          restarted.server.store.snapshot.lastRestore,
          restarted.server.store.snapshot.lastUndoConnection,
        ]).toEqual(['undo', true])
        expect(
          (await restarted.http('GET', `${P}/issues/${String((again.body as Json).iid)}`, { token: ROOT }))
            .status,
        ).toBe(404)
      } finally {
        await restarted.close()
      }
    } finally {
      rmSync(killed, { recursive: true, force: true })
    }
  })

  it("leaves the checkpoint for idle time when the reset writes on the store's own connection (a full copy-back)", async () => {
    await reset()
    const db = inspectDb(t.server.store)
    db.exec('PRAGMA wal_autocheckpoint = 1')
    t.server.store.snapshot.setLogBound(0)
    await ok('POST', `${P}/issues`, { json: { title: 'Made since' } })
    const file = join(data, 'gitlab.sqlite3')
    const checkpointed = readFileSync(file)
    t.server.reset()
    expect([t.server.store.snapshot.lastRestore, t.server.store.snapshot.lastUndoConnection]).toEqual([
      'full',
      false,
    ])
    // Its commit, past the WAL's bound of one frame, left the database file alone.
    expect(readFileSync(file).equals(checkpointed)).toBe(true)
    await new Promise((done) => setImmediate(done))
    expect(readFileSync(file).equals(checkpointed)).toBe(false)
    expect(db.prepare('PRAGMA wal_autocheckpoint').pluck().get()).toBe(1)
  })

  it('undoes a large log with foreign keys off, and turns them on again', async () => {
    await reset()
    const snapshot = state()
    const db = inspectDb(t.server.store)
    // 6,000 issues and a note on each: past the 5,000 rows above which foreign keys go off.
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
      INSERT INTO issues (iid, project_id, title, author_id, created_at, updated_at)
      SELECT 1000 + i, (SELECT id FROM projects LIMIT 1), 'bulk', (SELECT id FROM users LIMIT 1), 'now', 'now' FROM n`)
    db.exec(`INSERT INTO notes (issue_id, author_id, body, created_at, updated_at)
      SELECT id, author_id, 'bulk note', 'now', 'now' FROM issues WHERE title = 'bulk'`)
    await ok('PUT', `${P}/issues/1`, { json: { title: 'And an API write' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('undo')
    expect(t.server.store.snapshot.lastUnchecked).toBe(true)
    // Tables whose log outgrew their snapshot were emptied whole (a truncation) and copied back.
    expect([...t.server.store.snapshot.lastCopied].sort()).toEqual(['issues', 'notes'])
    expect(state()).toEqual(snapshot)
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1)
    // Their triggers are back: the next writes are logged and undone.
    await ok('POST', `${P}/issues`, { json: { title: 'After the truncation' } })
    await reset()
    expect([t.server.store.snapshot.lastRestore, t.server.store.snapshot.lastUnchecked]).toEqual([
      'undo',
      false,
    ])
    expect(state()).toEqual(snapshot)
  })
})

describe('a reset in memory: the held transaction', () => {
  onStorage(false)

  it('drops a table made after the snapshot, with its rows', async () => {
    const db = inspectDb(t.server.store)
    await reset()
    const snapshot = state()
    db.exec("CREATE TABLE late (x); INSERT INTO late VALUES ('gone at the reset')")
    await ok('POST', `${P}/issues`, { json: { title: 'Gone too' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('rollback')
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'late'").get()).toBeUndefined()
    expect(state()).toEqual(snapshot)
    // The statements prepared before the schema went back work on.
    await ok('POST', `${P}/issues`, { json: { title: 'After' } })
    await reset()
    expect(state()).toEqual(snapshot)
  })

  it('a transaction failing inside it rolls back alone; SQLite rolling it back takes the store and the caches back to the snapshot', async () => {
    const db = inspectDb(t.server.store)
    await reset()
    const snapshot = state()
    const list = await ok('GET', `${P}/issues`)
    const made = await ok('POST', `${P}/issues`, { json: { title: 'Kept until the reset' } })
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE issues SET title = 'Undone' WHERE id = ?").run(made.id)
        throw new Error('a later step fails')
      }),
    ).toThrow('a later step fails')
    expect([db.held, db.inTransaction]).toEqual([true, false])
    expect((await ok('GET', `${P}/issues/${made.iid}`)).title).toBe('Kept until the reset')
    // A list page answered (and cached) with the new issue on it.
    expect(((await ok('GET', `${P}/issues`)) as unknown as Json[]).length).toBe(
      (list as unknown as Json[]).length + 1,
    )
    // A conflict resolved by ROLLBACK ends the whole transaction, the held one.
    expect(() => db.prepare('INSERT OR ROLLBACK INTO users SELECT * FROM users LIMIT 1').run()).toThrow(
      /UNIQUE constraint failed/,
    )
    expect([db.held, db.inTransaction]).toEqual([false, false])
    expect(state()).toEqual(snapshot)
    expect(await ok('GET', `${P}/issues`)).toEqual(list)
    // What is written next goes at the next reset, a full copy-back (SQLite might have committed
    // instead), which holds again.
    await ok('POST', `${P}/issues`, { json: { title: 'After it' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    expect(state()).toEqual(snapshot)
    await ok('POST', `${P}/issues`, { json: { title: 'After the reset' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('rollback')
    expect(state()).toEqual(snapshot)
  })

  it('a statement that commits it: the next reset copies the seed back whole', async () => {
    const db = inspectDb(t.server.store)
    await reset()
    const snapshot = state()
    const list = await ok('GET', `${P}/issues`)
    await ok('POST', `${P}/issues`, { json: { title: 'Committed by a statement' } })
    db.exec('COMMIT')
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    expect(state()).toEqual(snapshot)
    expect(await ok('GET', `${P}/issues`)).toEqual(list)
    // Held again from the reset.
    await ok('POST', `${P}/issues`, { json: { title: 'After it' } })
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('rollback')
    expect(state()).toEqual(snapshot)
  })

  it('replaces a project by an import with overwrite (foreign keys deferred inside it), and undoes it', async () => {
    await reset()
    const snapshot = state()
    await ok('POST', `${P}/export`)
    await exportSettled(t, P, ROOT)
    const download = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
    const archive = join(data, '..', `${data.split('/').pop()}-overwrite.tar.gz`)
    writeFileSync(archive, Buffer.from(await download.body.arrayBuffer()))
    try {
      // Over another project: the overwritten one's own export archive would outlive it (a gap of
      // the import's overwrite, not of the reset).
      const api = '/api/v4/projects/acme%2Fplatform%2Fapi'
      const before = await ok('GET', api)
      const imported = await importFile(
        t,
        archive,
        { path: 'api', namespace: 'acme/platform', overwrite: 'true' },
        ROOT,
        'x.tar.gz',
      )
      expect(imported.status).toBe(201)
      expect(await importSettled(t, imported.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
      expect((await ok('GET', api)).id).not.toBe(before.id)
    } finally {
      rmSync(archive, { force: true })
    }
    expect(inspectDb(t.server.store).prepare('PRAGMA defer_foreign_keys').pluck().get()).toBe(0)
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('rollback')
    expect(state()).toEqual(snapshot)
  })

  it('copies the seed back whole with a log bound of 0, and rolls back again after', async () => {
    await reset()
    const snapshot = state()
    t.server.store.snapshot.setLogBound(0)
    await writeEverything()
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    expect(state()).toEqual(snapshot)
    t.server.store.snapshot.setLogBound(100_000)
    await writeEverything()
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('rollback')
    expect(state()).toEqual(snapshot)
  })
})
