import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'

/** The runner management API against the real server: who may do what, lists and their filters, tokens. */
const tok = {
  root: 'glpat-root-token',
  olivia: 'glpat-olivia-token',
  mark: 'glpat-mark-token',
  dana: 'glpat-dana-token',
  otto: 'glpat-otto-token',
  pia: 'glpat-pia-token',
} as const
type Who = keyof typeof tok
const seed = `
users:
  - { username: root, admin: true, token: ${tok.root} }
  - { username: olivia, token: ${tok.olivia} }
  - { username: mark, token: ${tok.mark} }
  - { username: dana, token: ${tok.dana} }
  - { username: otto, token: ${tok.otto} }
  - { username: pia, token: ${tok.pia} }
groups:
  - { path: acme, visibility: private, members: { olivia: owner, mark: maintainer, dana: developer } }
  - { path: beta, visibility: private, members: { pia: owner, mark: maintainer } }
projects:
  - { path: acme/widgets, visibility: private }
  - { path: beta/tools, visibility: private }
`
type Json = Record<string, unknown>
let t: TestServer
let ids: { widgets: number; tools: number; acme: number }
beforeEach(async () => {
  t = await startServer(seed, { clock: manualClock('2026-12-01T10:00:00.000Z') })
  const { projects, namespaces } = t.server.store
  ids = {
    widgets: projects.byPath('acme/widgets')!.id,
    tools: projects.byPath('beta/tools')!.id,
    acme: namespaces.byPath('acme')!.id,
  }
})
afterEach(() => t.close())

const call = (who: Who | null, method: string, path: string, json?: Json) =>
  t.http(method, `/api/v4${path}`, { ...(who ? { token: tok[who] } : {}), ...(json ? { json } : {}) })
const create = async (who: Who, json: Json) => {
  const res = await call(who, 'POST', '/user/runners', json)
  expect(res.status).toBe(201)
  return res.body as { id: number; token: string; token_expires_at: null }
}
const count = () => t.server.store.runners.runnerCount()
const idsOf = (body: unknown) => (body as { id: number }[]).map((r) => r.id)
const FORBIDDEN = { message: '403 Forbidden' }
const NO_ACCESS = { message: '403 Forbidden - No access granted' }

/** An instance runner (root), a group runner of acme (olivia), project runners of widgets (mark) and tools (pia). */
async function fleet() {
  const instance = await create('root', { runner_type: 'instance_type', description: 'shared' })
  const group = await create('olivia', { runner_type: 'group_type', group_id: ids.acme, tag_list: 'docker' })
  const widgets = await create('mark', {
    runner_type: 'project_type',
    project_id: ids.widgets,
    tag_list: ['docker', 'linux'],
    maintenance_note: 'rack 3',
  })
  const tools = await create('pia', { runner_type: 'project_type', project_id: ids.tools, locked: false })
  return { instance, group, widgets, tools }
}

describe('POST /user/runners', () => {
  it('answers 201 with a glrt- token to whoever may create the type, and 403 to others', async () => {
    const cases: [Who, Json, number, Json | null][] = [
      ['root', { runner_type: 'instance_type' }, 201, null],
      [
        'olivia',
        { runner_type: 'instance_type' },
        403,
        { message: '403 Forbidden - Insufficient permissions' },
      ],
      ['olivia', { runner_type: 'group_type', group_id: 'ACME' }, 201, null],
      [
        'mark',
        { runner_type: 'group_type', group_id: 'ACME' },
        403,
        { message: '403 Forbidden - Insufficient permissions' },
      ],
      ['mark', { runner_type: 'project_type', project_id: 'WIDGETS' }, 201, null],
      [
        'dana',
        { runner_type: 'project_type', project_id: 'WIDGETS' },
        403,
        { message: '403 Forbidden - Insufficient permissions' },
      ],
      [
        'otto',
        { runner_type: 'project_type', project_id: 'WIDGETS' },
        403,
        { message: '403 Forbidden - Insufficient permissions' },
      ],
    ]
    for (const [who, body, status, error] of cases) {
      const json = { ...body }
      if (json.group_id === 'ACME') json.group_id = ids.acme
      if (json.project_id === 'WIDGETS') json.project_id = ids.widgets
      const before = count()
      const res = await call(who, 'POST', '/user/runners', json)
      expect([who, res.status]).toEqual([who, status])
      if (error) {
        expect(res.body).toEqual(error)
        expect(count()).toBe(before)
      } else {
        expect(res.body).toEqual({
          id: expect.any(Number),
          token: expect.stringMatching(/^glrt-/),
          token_expires_at: null,
        })
        expect(count()).toBe(before + 1)
      }
    }
  })

  it('refuses bad input with GitLab bodies and creates nothing', async () => {
    const cases: [Json, number, Json][] = [
      [{ runner_type: 'unknown' }, 400, { error: 'runner_type does not have a valid value' }],
      // Grape's values validator checks a required parameter's nil as well
      [{}, 400, { error: 'runner_type is missing, runner_type does not have a valid value' }],
      [{ runner_type: 'group_type' }, 400, { error: 'group_id is missing' }],
      [{ runner_type: 'project_type' }, 400, { error: 'project_id is missing' }],
      [
        { runner_type: 'group_type', group_id: 999999 },
        400,
        { message: '400 Bad request - Missing/invalid group' },
      ],
      [
        { runner_type: 'project_type', project_id: 999999 },
        400,
        { message: '400 Bad request - Missing/invalid project' },
      ],
      [
        { runner_type: 'instance_type', access_level: 'all' },
        400,
        { error: 'access_level does not have a valid value' },
      ],
      [
        { runner_type: 'instance_type', run_untagged: false, tag_list: ' , ' },
        400,
        {
          message:
            '400 Bad request - Tags list can not be empty when runner is not allowed to pick untagged jobs',
        },
      ],
      [
        { runner_type: 'instance_type', maximum_timeout: 60 },
        400,
        { message: '400 Bad request - Maximum timeout needs to be at least 10 minutes' },
      ],
    ]
    for (const [json, status, body] of cases) {
      const res = await call('root', 'POST', '/user/runners', json)
      expect([json, res.status, res.body]).toEqual([json, status, body])
    }
    expect(count()).toBe(0)
    expect((await call(null, 'POST', '/user/runners', { runner_type: 'instance_type' })).status).toBe(401)
  })
})

describe('runner lists', () => {
  it('GET /runners lists the runners of projects the caller maintains and groups it owns', async () => {
    const f = await fleet()
    const listed = async (who: Who) => idsOf((await call(who, 'GET', '/runners')).body)
    expect(await listed('mark')).toEqual([f.widgets.id, f.tools.id])
    expect(await listed('olivia')).toEqual([f.group.id, f.widgets.id])
    expect(await listed('pia')).toEqual([f.tools.id])
    expect(await listed('dana')).toEqual([])
    expect(await listed('root')).toEqual([])
    expect((await call(null, 'GET', '/runners')).status).toBe(401)
  })

  it('GET /runners/all is for administrators, with the filters and pages', async () => {
    const f = await fleet()
    expect(await call('mark', 'GET', '/runners/all')).toMatchObject({ status: 403, body: FORBIDDEN })
    const all = async (query: string) => {
      const res = await call('root', 'GET', `/runners/all${query}`)
      expect(res.status).toBe(200)
      return idsOf(res.body)
    }
    expect(await all('')).toEqual([f.instance.id, f.group.id, f.widgets.id, f.tools.id])
    expect(await all('?type=project_type')).toEqual([f.widgets.id, f.tools.id])
    expect(await all('?scope=shared')).toEqual([f.instance.id])
    expect(await all('?tag_list=docker')).toEqual([f.group.id, f.widgets.id])
    expect(await all('?tag_list=docker,linux')).toEqual([f.widgets.id])
    expect(await all('?status=never_contacted')).toEqual([
      f.instance.id,
      f.group.id,
      f.widgets.id,
      f.tools.id,
    ])
    expect(await all('?status=online')).toEqual([])
    expect(await all('?version_prefix=16.')).toEqual([])
    expect((await call('root', 'PUT', `/runners/${f.tools.id}`, { paused: true })).status).toBe(200)
    expect(await all('?paused=true')).toEqual([f.tools.id])
    expect(await all('?status=paused')).toEqual([f.tools.id])
    const page = await call('root', 'GET', '/runners/all?per_page=1&page=2')
    expect(idsOf(page.body)).toEqual([f.group.id])
    expect(page.headers).toMatchObject({ 'x-total': '4', 'x-next-page': '3', 'x-prev-page': '1' })
    const bad: [string, Json][] = [
      ['?scope=everything', { message: 'Scope contains invalid value' }],
      ['?status=asleep', { error: 'status does not have a valid value' }],
      ['?type=shared', { error: 'type does not have a valid value' }],
      ['?version_prefix=abc', { error: 'version_prefix is invalid' }],
    ]
    for (const [query, body] of bad) {
      const res = await call('root', 'GET', `/runners/all${query}`)
      expect([query, res.status, res.body]).toEqual([query, 400, body])
    }
    // `GET /runners` takes statuses only as its scope.
    expect((await call('mark', 'GET', '/runners?scope=shared')).body).toEqual({
      message: 'Scope contains invalid value',
    })
  })

  it("a project's and a group's lists: theirs, their ancestors' and the instance's", async () => {
    const f = await fleet()
    const widgets = await call('mark', 'GET', `/projects/${ids.widgets}/runners`)
    expect(idsOf(widgets.body)).toEqual([f.instance.id, f.group.id, f.widgets.id])
    expect(await call('dana', 'GET', `/projects/${ids.widgets}/runners`)).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    })
    expect(await call('otto', 'GET', `/projects/${ids.widgets}/runners`)).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    })
    expect(idsOf((await call('olivia', 'GET', '/groups/acme/runners')).body)).toEqual([
      f.instance.id,
      f.group.id,
    ])
    expect(idsOf((await call('olivia', 'GET', '/groups/acme/runners?type=group_type')).body)).toEqual([
      f.group.id,
    ])
    expect(await call('mark', 'GET', '/groups/acme/runners')).toMatchObject({ status: 403, body: FORBIDDEN })
    expect(await call('otto', 'GET', '/groups/acme/runners')).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    })
  })
})

describe('one runner', () => {
  it('GET /runners/:id shows the details to those who may read the runner', async () => {
    const f = await fleet()
    const res = await call('mark', 'GET', `/runners/${f.widgets.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: f.widgets.id,
      ip_address: null,
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      online: false,
      status: 'never_contacted',
      created_by: { username: 'mark' },
      created_at: '2026-12-01T10:00:00.000Z',
      tag_list: ['docker', 'linux'],
      run_untagged: true,
      locked: false,
      maximum_timeout: null,
      access_level: 'not_protected',
      contacted_at: null,
      maintenance_note: 'rack 3',
      projects: [{ id: ids.widgets, path_with_namespace: 'acme/widgets' }],
      groups: [],
    })
    // Instance runners are every signed-in user's to read, without the note.
    expect(await call('dana', 'GET', `/runners/${f.instance.id}`)).toMatchObject({
      status: 200,
      body: { runner_type: 'instance_type', is_shared: true, maintenance_note: null },
    })
    expect(await call('dana', 'GET', `/runners/${f.widgets.id}`)).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
    expect(await call('dana', 'GET', `/runners/${f.group.id}`)).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
    expect((await call('mark', 'GET', `/runners/${f.group.id}`)).status).toBe(200)
    expect(await call('mark', 'GET', '/runners/999999')).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    })
    expect(await call('mark', 'GET', '/runners/abc')).toMatchObject({
      status: 400,
      body: { error: 'id is invalid' },
    })
    expect((await call(null, 'GET', `/runners/${f.instance.id}`)).status).toBe(401)
  })

  it('PUT /runners/:id edits for those who may update, with GitLab validation', async () => {
    const f = await fleet()
    const res = await call('mark', 'PUT', `/runners/${f.widgets.id}`, {
      paused: true,
      tag_list: 'gpu',
      description: 'edited',
      maximum_timeout: 3600,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      description: 'edited',
      active: false,
      paused: true,
      tag_list: ['gpu'],
      maximum_timeout: 3600,
      status: 'never_contacted',
    })
    const cases: [Who, Json, number, Json][] = [
      ['dana', { description: 'x' }, 403, NO_ACCESS],
      [
        'mark',
        {},
        400,
        { error: expect.stringContaining('are missing, at least one parameter must be provided') },
      ],
      ['mark', { active: true, paused: false }, 400, { error: 'active, paused are mutually exclusive' }],
      [
        'mark',
        { run_untagged: false, tag_list: '' },
        400,
        { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
      ],
      [
        'mark',
        { maintenance_note: 'x'.repeat(1025) },
        400,
        { message: { maintenance_note: ['is too long (maximum is 1024 characters)'] } },
      ],
    ]
    for (const [who, json, status, body] of cases) {
      const r = await call(who, 'PUT', `/runners/${f.widgets.id}`, json)
      expect([who, r.status, r.body]).toEqual([who, status, body])
    }
    expect((await call('mark', 'GET', `/runners/${f.widgets.id}`)).body).toMatchObject({
      description: 'edited',
      tag_list: ['gpu'],
      run_untagged: true,
    })
    // Group runners are their Owners': a Maintainer may read but not edit.
    expect(await call('mark', 'PUT', `/runners/${f.group.id}`, { locked: true })).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
  })

  it('resets, verifies and deletes by token; the old token stops working', async () => {
    const f = await fleet()
    const verify = (token: string) => t.http('POST', '/api/v4/runners/verify', { json: { token } })
    expect(await verify(f.widgets.token)).toMatchObject({
      status: 200,
      body: { id: f.widgets.id, token: f.widgets.token, token_expires_at: null },
    })
    // A created runner's verify is not its contact: it stays never_contacted until it polls.
    expect((await call('mark', 'GET', `/runners/${f.widgets.id}`)).body).toMatchObject({ contacted_at: null })
    expect(await call('dana', 'POST', `/runners/${f.widgets.id}/reset_authentication_token`)).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
    const reset = await call('mark', 'POST', `/runners/${f.widgets.id}/reset_authentication_token`)
    expect(reset).toMatchObject({
      status: 201,
      body: { token: expect.stringMatching(/^glrt-/), token_expires_at: null },
    })
    const fresh = (reset.body as { token: string }).token
    expect(await verify(f.widgets.token)).toMatchObject({ status: 403, body: FORBIDDEN })
    expect((await verify(fresh)).status).toBe(200)
    // The runner's own reset: its contact, then a new token.
    const own = await t.http('POST', '/api/v4/runners/reset_authentication_token', { json: { token: fresh } })
    expect(own).toMatchObject({
      status: 201,
      body: { token: expect.stringMatching(/^glrt-/), token_expires_at: null },
    })
    expect((await verify(fresh)).status).toBe(403)
    expect((await call('mark', 'GET', `/runners/${f.widgets.id}`)).body).toMatchObject({
      contacted_at: '2026-12-01T10:00:00.000Z',
      online: true,
      status: 'online',
    })
    expect(
      await t.http('POST', '/api/v4/runners/reset_authentication_token', { json: { token: fresh } }),
    ).toMatchObject({ status: 403, body: FORBIDDEN })
    const unregister = (token: string) => t.http('DELETE', '/api/v4/runners', { json: { token } })
    expect(await unregister('glrt-nothing')).toMatchObject({ status: 403, body: FORBIDDEN })
    const newest = (own.body as { token: string }).token
    expect((await unregister(newest)).status).toBe(204)
    expect((await verify(newest)).status).toBe(403)
    expect((await call('mark', 'GET', `/runners/${f.widgets.id}`)).status).toBe(404)
    expect((await t.http('POST', '/api/v4/runners/verify', { json: {} })).body).toEqual({
      error: 'token is missing',
    })
  })

  it('GET /runners/:id/jobs is empty (no emulated job runs on a runner) and guarded', async () => {
    const f = await fleet()
    const res = await call('mark', 'GET', `/runners/${f.widgets.id}/jobs`)
    expect([res.status, res.body, res.headers['x-total']]).toEqual([200, [], '0'])
    expect(await call('dana', 'GET', `/runners/${f.widgets.id}/jobs`)).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
    expect((await call('root', 'GET', `/runners/${f.instance.id}/jobs?status=bogus`)).status).toBe(400)
  })
})

describe('project runners in several projects', () => {
  it('enables and disables a project runner in another project, as GitLab allows', async () => {
    const f = await fleet()
    const enable = (who: Who, runner: number) =>
      call(who, 'POST', `/projects/${ids.widgets}/runners`, { runner_id: runner })
    expect(await enable('dana', f.tools.id)).toMatchObject({ status: 403, body: FORBIDDEN })
    expect(await enable('olivia', f.tools.id)).toMatchObject({ status: 403, body: NO_ACCESS })
    expect(await enable('mark', f.group.id)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner is a group runner' },
    })
    expect(await enable('mark', 999999)).toMatchObject({ status: 404, body: { message: '404 Not found' } })
    const enabled = await enable('mark', f.tools.id)
    expect(enabled).toMatchObject({ status: 201, body: { id: f.tools.id, runner_type: 'project_type' } })
    expect(await enable('mark', f.tools.id)).toMatchObject({
      status: 400,
      body: { message: 'Assign to Validation failed: Runner has already been taken - runner_error' },
    })
    expect(
      idsOf((await call('mark', 'GET', `/projects/${ids.widgets}/runners?type=project_type`)).body),
    ).toEqual([f.widgets.id, f.tools.id])
    // Now in two projects: its owner may not delete it, an administrator may.
    expect(await call('pia', 'DELETE', `/runners/${f.tools.id}`)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner associated with more than one project' },
    })
    expect(await call('mark', 'DELETE', `/projects/${ids.tools}/runners/${f.tools.id}`)).toMatchObject({
      status: 403,
      body: {
        message:
          '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead',
      },
    })
    expect(await call('mark', 'DELETE', `/projects/${ids.widgets}/runners/${f.instance.id}`)).toMatchObject({
      status: 404,
      body: { message: '404 Runner Not Found' },
    })
    expect((await call('mark', 'DELETE', `/projects/${ids.widgets}/runners/${f.tools.id}`)).status).toBe(204)
    expect(t.server.store.runners.projectsOf(f.tools.id)).toEqual([ids.tools])
    expect((await call('pia', 'DELETE', `/runners/${f.tools.id}`)).status).toBe(204)
    // A locked runner stays where it is.
    expect((await call('mark', 'PUT', `/runners/${f.widgets.id}`, { locked: true })).status).toBe(200)
    expect(
      await call('mark', 'POST', `/projects/${ids.tools}/runners`, { runner_id: f.widgets.id }),
    ).toMatchObject({ status: 403, body: { message: '403 Forbidden - Runner is locked' } })
  })

  it('DELETE /runners/:id: its admins only', async () => {
    const f = await fleet()
    expect(await call('dana', 'DELETE', `/runners/${f.widgets.id}`)).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
    expect(await call('olivia', 'DELETE', `/runners/${f.instance.id}`)).toMatchObject({
      status: 403,
      body: NO_ACCESS,
    })
    expect((await call('olivia', 'DELETE', `/runners/${f.group.id}`)).status).toBe(204)
    expect((await call('root', 'DELETE', `/runners/${f.instance.id}`)).status).toBe(204)
    expect(count()).toBe(2)
  })
})

describe('runners registered with a registration token (GitLab 16.11)', () => {
  it('are listed and verified like the others; verify counts as their contact', async () => {
    await t.close()
    const clock = manualClock('2026-12-01T10:00:00.000Z')
    t = await startServer(seed, { clock, gitlabVersion: '16.11.0' })
    const reset = await t.http('POST', `/api/v4/projects/${ids.widgets}/runners/reset_registration_token`, {
      token: tok.mark,
    })
    const registered = await t.http('POST', '/api/v4/runners', {
      json: { token: (reset.body as { token: string }).token, description: 'old way' },
    })
    const { id, token } = registered.body as { id: number; token: string }
    expect(token).not.toMatch(/^glrt-/)
    expect(idsOf((await call('mark', 'GET', '/runners')).body)).toEqual([id])
    expect((await t.http('POST', '/api/v4/runners/verify', { json: { token } })).status).toBe(200)
    expect((await call('mark', 'GET', `/runners/${id}`)).body).toMatchObject({
      description: 'old way',
      contacted_at: '2026-12-01T10:00:00.000Z',
      online: true,
      status: 'online',
      projects: [{ id: ids.widgets }],
    })
    expect(idsOf((await call('root', 'GET', '/runners/all?status=online')).body)).toEqual([id])
    // Ci::Runner's clock: offline 2 hours after its contact, paused when paused, stale after 7 days.
    const state = async () => {
      const body = (await call('mark', 'GET', `/runners/${id}`)).body as Json
      return [body.online, body.status]
    }
    clock.advance(2 * 3_600_000 + 1)
    expect(await state()).toEqual([false, 'offline'])
    expect(idsOf((await call('root', 'GET', '/runners/all?status=offline')).body)).toEqual([id])
    expect((await call('mark', 'PUT', `/runners/${id}`, { active: false })).status).toBe(200)
    expect(await state()).toEqual([false, 'paused'])
    clock.advance(7 * 86_400_000)
    expect(await state()).toEqual([false, 'stale'])
    expect(idsOf((await call('root', 'GET', '/runners/all?status=stale')).body)).toEqual([id])
    expect(idsOf((await call('root', 'GET', '/runners/all?status=never_contacted')).body)).toEqual([])
  })
})

describe('deletion', () => {
  it("removing a project removes its runner and the other projects' runners' links to it", async () => {
    const f = await fleet()
    expect(
      (await call('mark', 'POST', `/projects/${ids.widgets}/runners`, { runner_id: f.tools.id })).status,
    ).toBe(201)
    const path = `/projects/${ids.widgets}`
    expect((await call('root', 'DELETE', path)).status).toBe(202)
    const gone = await t.http('DELETE', `/api/v4${path}`, {
      token: tok.root,
      query: `permanently_remove=true&full_path=${encodeURIComponent(`acme/widgets-deletion_scheduled-${ids.widgets}`)}`,
    })
    expect(gone.status).toBe(202)
    expect(t.server.store.runners.runner(f.widgets.id)).toBeUndefined()
    expect(t.server.store.runners.projectsOf(f.tools.id)).toEqual([ids.tools])
    expect(idsOf((await call('root', 'GET', '/runners/all')).body)).toEqual([
      f.instance.id,
      f.group.id,
      f.tools.id,
    ])
  })
})

describe('token scopes', () => {
  it("create_runner opens POST /user/runners, manage_runner a runner's own routes, read_api neither", async () => {
    const f = await fleet()
    const markId = t.server.store.users.byUsername('mark')!.id
    const pat = async (scopes: string[]) => {
      const res = await call('root', 'POST', `/users/${markId}/personal_access_tokens`, {
        name: 'runners',
        scopes,
      })
      expect(res.status).toBe(201)
      return (res.body as { token: string }).token
    }
    const as = (token: string, method: string, path: string, json?: Json) =>
      t.http(method, `/api/v4${path}`, { token, ...(json ? { json } : {}) })
    const insufficient = { status: 403, body: { error: 'insufficient_scope' } }
    const create = await pat(['create_runner'])
    const body = { runner_type: 'project_type', project_id: ids.widgets }
    expect((await as(create, 'POST', '/user/runners', body)).status).toBe(201)
    expect(await as(create, 'GET', `/runners/${f.widgets.id}`)).toMatchObject(insufficient)
    const manage = await pat(['manage_runner'])
    expect((await as(manage, 'GET', `/runners/${f.widgets.id}`)).status).toBe(200)
    expect((await as(manage, 'PUT', `/runners/${f.widgets.id}`, { description: 'scoped' })).status).toBe(200)
    expect((await as(manage, 'GET', `/runners/${f.widgets.id}/jobs`)).status).toBe(200)
    expect(await as(manage, 'GET', '/runners')).toMatchObject(insufficient)
    expect(await as(manage, 'POST', '/user/runners', body)).toMatchObject(insufficient)
    const read = await pat(['read_api'])
    expect((await as(read, 'GET', `/runners/${f.widgets.id}`)).status).toBe(200)
    expect(await as(read, 'POST', '/user/runners', body)).toMatchObject(insufficient)
    expect(await as(read, 'PUT', `/runners/${f.widgets.id}`, { description: 'x' })).toMatchObject(
      insufficient,
    )
  })
})

describe('odd input', () => {
  it('never answers 500', async () => {
    const f = await fleet()
    const odd: unknown[] = [123, ['a'], { a: 1 }, null, true, 'x'.repeat(10_000), '\u0000', 1e30, -1, 2 ** 63]
    const problems: string[] = []
    for (const value of odd) {
      const bodies: [string, string, Json][] = [
        ['POST', '/user/runners', { runner_type: value }],
        ['POST', '/user/runners', { runner_type: 'group_type', group_id: value }],
        ['POST', '/user/runners', { runner_type: 'project_type', project_id: value, tag_list: value }],
        ['POST', '/user/runners', { runner_type: 'instance_type', maximum_timeout: value, paused: value }],
        ['PUT', `/runners/${f.widgets.id}`, { maximum_timeout: value, description: value }],
        ['PUT', `/runners/${f.widgets.id}`, { tag_list: value, access_level: value }],
        ['POST', `/projects/${ids.widgets}/runners`, { runner_id: value }],
        ['POST', '/runners/verify', { token: value }],
        ['DELETE', '/runners', { token: value }],
        ['POST', '/runners/reset_authentication_token', { token: value }],
      ]
      for (const [method, path, json] of bodies) {
        const res = await call('root', method, path, json)
        if (res.status >= 500)
          problems.push(`${method} ${path} ${JSON.stringify(json).slice(0, 80)}: ${res.status}`)
      }
      const q = encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))
      for (const path of [
        `/runners/all?status=${q}&tag_list=${q}&version_prefix=${q}&page=${q}`,
        `/runners/${q}`,
        `/runners?scope=${q}&paused=${q}&type=${q}`,
        `/projects/${ids.widgets}/runners/${q}`,
      ]) {
        const res = await call('root', 'GET', path)
        if (res.status >= 500) problems.push(`GET ${path.slice(0, 80)}: ${res.status}`)
      }
    }
    expect(problems).toEqual([])
  })
})
