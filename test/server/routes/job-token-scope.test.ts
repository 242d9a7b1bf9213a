import { pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach, startServer } from '../../support/server.js'

/*
 * The job token scope API (GitLab's lib/api/project_job_token_scope.rb): a Maintainer reads and sets the
 * inbound limit and edits the allowlists of projects and groups; refusals carry GitLab's statuses and
 * bodies and change nothing. Each part exists from the release that brought it.
 */

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // Maintainer of acme
const DANA = 'glpat-dana-token' // Developer of acme
const OTTO = 'glpat-otto-token' // outsider
type Json = Record<string, unknown>

const t = serverEach(pipelineSeed)

const idOf = async (path: string) =>
  ((await t.http('GET', `/api/v4/projects/${encodeURIComponent(path)}`, { token: ROOT })).body as Json)
    .id as number
const groupId = async (path: string) =>
  ((await t.http('GET', `/api/v4/groups/${path}`, { token: ROOT })).body as Json).id as number
const call = async (method: string, path: string, token: string | undefined, json?: Json) => {
  const res = await t.http(method, `/api/v4/projects/${path}`, { token, ...(json ? { json } : {}) })
  return [res.status, res.body] as const
}

describe('GET and PATCH /projects/:id/job_token_scope', () => {
  it('shows the inbound limit on by default, and a Maintainer turns it off and on', async () => {
    const S = 'acme%2Fother/job_token_scope'
    expect(await call('GET', S, MARK)).toEqual([200, { inbound_enabled: true, outbound_enabled: false }])
    expect(await call('PATCH', S, MARK, { enabled: false })).toEqual([204, undefined])
    expect(await call('GET', S, MARK)).toEqual([200, { inbound_enabled: false, outbound_enabled: false }])
    const form = await t.http('PATCH', `/api/v4/projects/${S}`, { token: MARK, form: 'enabled=true' })
    expect(form.status).toBe(204)
    expect((await call('GET', S, MARK))[1]).toEqual({ inbound_enabled: true, outbound_enabled: false })
  })

  it('refuses others and bad input with GitLab’s answers, changing nothing', async () => {
    const S = 'acme%2Fother/job_token_scope'
    expect(await call('GET', S, undefined)).toEqual([401, { message: '401 Unauthorized' }])
    expect(await call('GET', S, DANA)).toEqual([403, { message: '403 Forbidden' }])
    expect(await call('PATCH', S, DANA, { enabled: false })).toEqual([403, { message: '403 Forbidden' }])
    expect(await call('GET', S, OTTO)).toEqual([404, { message: '404 Project Not Found' }])
    expect(await call('PATCH', S, MARK, {})).toEqual([400, { error: 'enabled is missing, enabled is empty' }])
    expect(await call('PATCH', S, MARK, { enabled: 'maybe' })).toEqual([400, { error: 'enabled is invalid' }])
    expect((await call('GET', S, MARK))[1]).toEqual({ inbound_enabled: true, outbound_enabled: false })
  })
})

describe('/projects/:id/job_token_scope/allowlist', () => {
  it('adds a project (201, the link), lists the project itself first, then removes it (204)', async () => {
    const other = await idOf('acme/other')
    const app = await idOf('acme/app')
    const A = `${other}/job_token_scope/allowlist`
    const added = await call('POST', A, MARK, { target_project_id: app })
    expect(added).toEqual([201, { source_project_id: other, target_project_id: app }])
    const list = await t.http('GET', `/api/v4/projects/${A}`, { token: MARK })
    expect(list.status).toBe(200)
    expect((list.body as Json[]).map((p) => [p.id, p.path_with_namespace])).toEqual([
      [other, 'acme/other'],
      [app, 'acme/app'],
    ])
    expect(Object.keys((list.body as Json[])[1]!)).toEqual(
      expect.arrayContaining(['name_with_namespace', 'web_url', 'namespace', 'topics']),
    )
    expect(list.headers['x-total']).toBe('2')
    const second = await t.http('GET', `/api/v4/projects/${A}`, { token: MARK, query: 'per_page=1&page=2' })
    expect((second.body as Json[]).map((p) => p.id)).toEqual([app])
    expect(await call('DELETE', `${A}/${app}`, MARK)).toEqual([204, undefined])
    expect(((await call('GET', A, MARK))[1] as Json[]).map((p) => p.id)).toEqual([other])
  })

  it('answers GitLab’s refusals, and a refusal adds or removes nothing', async () => {
    const other = await idOf('acme/other')
    const app = await idOf('acme/app')
    const A = `${other}/job_token_scope/allowlist`
    expect(await call('POST', A, undefined, { target_project_id: app })).toEqual([
      401,
      { message: '401 Unauthorized' },
    ])
    expect(await call('POST', A, DANA, { target_project_id: app })).toEqual([
      403,
      { message: '403 Forbidden' },
    ])
    expect(await call('POST', A, MARK, {})).toEqual([
      400,
      { error: 'target_project_id is missing, target_project_id is empty' },
    ])
    expect(await call('POST', A, MARK, { target_project_id: 'x' })).toEqual([
      400,
      { error: 'target_project_id is invalid' },
    ])
    expect(
      await call('POST', 'acme%2Fother/job_token_scope/allowlist', MARK, { target_project_id: app }),
    ).toEqual([400, { error: 'id is invalid' }])
    expect(await call('POST', A, MARK, { target_project_id: 9999 })).toEqual([
      404,
      { message: '404 target_project_id not found Not Found' },
    ])
    expect(await call('POST', A, MARK, { target_project_id: other })).toEqual([
      400,
      {
        message:
          "400 Bad request - Validation failed: Target project can't be the same as the source project",
      },
    ])
    expect((await call('POST', A, MARK, { target_project_id: app }))[0]).toBe(201)
    expect(await call('POST', A, MARK, { target_project_id: app })).toEqual([
      400,
      { message: '400 Bad request - Target project is already in the job token scope' },
    ])
    expect(await call('DELETE', `${A}/${app}`, DANA)).toEqual([
      403,
      { message: '403 Forbidden - Insufficient permissions to modify the job token scope' },
    ])
    expect(await call('DELETE', `${A}/${other}`, MARK)).toEqual([
      400,
      { message: '400 Bad request - Source project cannot be removed from the job token scope' },
    ])
    expect(await call('DELETE', `${A}/9999`, MARK)).toEqual([404, { message: '404 Project Not Found' }])
    expect(((await call('GET', A, MARK))[1] as Json[]).map((p) => p.id)).toEqual([other, app])
    expect((await call('DELETE', `${A}/${app}`, MARK))[0]).toBe(204)
    expect(await call('DELETE', `${A}/${app}`, MARK)).toEqual([
      400,
      { message: '400 Bad request - Target project is not in the job token scope' },
    ])
  })

  it('adds only a project the caller can read', async () => {
    const other = await idOf('acme/other')
    // Otto's own project, which mark cannot see.
    const made = await t.http('POST', '/api/v4/projects', { token: OTTO, json: { name: 'hidden' } })
    const hidden = (made.body as Json).id as number
    expect(
      await call('POST', `${other}/job_token_scope/allowlist`, MARK, { target_project_id: hidden }),
    ).toEqual([
      400,
      {
        message:
          "400 Bad request - The target_project that you are attempting to access does not exist or you don't have permission to perform this action",
      },
    ])
  })
})

describe('/projects/:id/job_token_scope/groups_allowlist', () => {
  it('adds a group (201), lists it as BasicGroupDetails, removes it (204); refusals change nothing', async () => {
    const other = await idOf('acme/other')
    const acme = await groupId('acme')
    const G = `${other}/job_token_scope/groups_allowlist`
    expect(await call('GET', G, MARK)).toEqual([200, []])
    expect(await call('POST', G, DANA, { target_group_id: acme })).toEqual([
      403,
      { message: '403 Forbidden' },
    ])
    expect(await call('POST', G, MARK, {})).toEqual([
      400,
      { error: 'target_group_id is missing, target_group_id is empty' },
    ])
    expect(await call('POST', G, MARK, { target_group_id: 9999 })).toEqual([
      404,
      { message: '404 target_group_id not found Not Found' },
    ])
    expect(await call('POST', G, MARK, { target_group_id: acme })).toEqual([
      201,
      { source_project_id: other, target_group_id: acme },
    ])
    expect(await call('POST', G, MARK, { target_group_id: acme })).toEqual([
      400,
      { message: '400 Bad request - Target group is already in the job token scope' },
    ])
    const list = await t.http('GET', `/api/v4/projects/${G}`, { token: MARK })
    expect(list.body).toEqual([{ id: acme, web_url: expect.stringMatching(/\/groups\/acme$/), name: 'acme' }])
    expect(list.headers['x-total']).toBe('1')
    expect(await call('DELETE', `${G}/${acme}`, DANA)).toEqual([
      403,
      { message: '403 Forbidden - Insufficient permissions to modify the job token scope' },
    ])
    expect(await call('DELETE', `${G}/9999`, MARK)).toEqual([
      404,
      { message: '404 target_group_id not found Not Found' },
    ])
    expect(await call('DELETE', `${G}/${acme}`, MARK)).toEqual([204, undefined])
    expect(await call('DELETE', `${G}/${acme}`, MARK)).toEqual([
      400,
      { message: '400 Bad request - Target group is not in the job token scope' },
    ])
    expect(await call('GET', G, MARK)).toEqual([200, []])
  })

  it('drops the links of a project or group deleted (CE 17.11 removes both at once)', async () => {
    const ce = await startServer(pipelineSeed, { gitlabVersion: '17.11.0', edition: 'ce' })
    try {
      const id = async (path: string) =>
        ((await ce.http('GET', `/api/v4/${path}`, { token: ROOT })).body as Json).id as number
      const [other, app, acme] = [
        await id('projects/acme%2Fother'),
        await id('projects/acme%2Fapp'),
        await id('groups/acme'),
      ]
      const team = await ce.http('POST', '/api/v4/groups', {
        token: ROOT,
        json: { name: 'Team', path: 'team', parent_id: acme },
      })
      const S = `/api/v4/projects/${other}/job_token_scope`
      const post = (path: string, json: Json) => ce.http('POST', `${S}/${path}`, { token: ROOT, json })
      expect(
        (await post('groups_allowlist', { target_group_id: (team.body as Json).id as number })).status,
      ).toBe(201)
      expect((await post('allowlist', { target_project_id: app })).status).toBe(201)
      expect((await ce.http('DELETE', '/api/v4/groups/acme%2Fteam', { token: ROOT })).status).toBe(202)
      expect((await ce.http('DELETE', `/api/v4/projects/${app}`, { token: ROOT })).status).toBe(202)
      expect((await ce.http('GET', `${S}/groups_allowlist`, { token: ROOT })).body).toEqual([])
      // The rows themselves are gone, not only hidden.
      const scopes = ce.server.store.jobTokenScopes
      expect([scopes.groups.ofSource(other), scopes.projects.ofSource(other)]).toEqual([[], []])
      const list = (await ce.http('GET', `${S}/allowlist`, { token: ROOT })).body as Json[]
      expect(list.map((p) => p.id)).toEqual([other])
    } finally {
      await ce.close()
    }
  })
})

describe('the job token scope API by release (--gitlab-version)', () => {
  /** The status of each route of the API at `version`, for a Maintainer of acme/other. */
  async function statuses(version: string) {
    const s = await startServer(pipelineSeed, { gitlabVersion: version })
    try {
      const id = async (path: string) =>
        ((await s.http('GET', `/api/v4/${path}`, { token: ROOT })).body as Json).id as number
      const [other, app, acme] = [
        await id('projects/acme%2Fother'),
        await id('projects/acme%2Fapp'),
        await id('groups/acme'),
      ]
      const S = `/api/v4/projects/${other}/job_token_scope`
      const ask = async (method: string, path: string, json?: Json) => {
        const res = await s.http(method, `${S}${path}`, { token: MARK, ...(json ? { json } : {}) })
        return res.status === 404 ? [404, res.body] : res.status
      }
      return [
        await ask('GET', ''),
        await ask('PATCH', '', { enabled: true }),
        await ask('POST', '/allowlist', { target_project_id: app }),
        await ask('GET', '/allowlist'),
        await ask('DELETE', `/allowlist/${app}`),
        await ask('POST', '/groups_allowlist', { target_group_id: acme }),
        await ask('GET', '/groups_allowlist'),
        await ask('DELETE', `/groups_allowlist/${acme}`),
      ]
    } finally {
      await s.close()
    }
  }
  const none = [404, { error: '404 Not Found' }]

  it('has no routes before 16.0, the settings from 16.0, the projects allowlist from 16.1, groups from 17.0', async () => {
    expect(await statuses('15.11.0')).toEqual([none, none, none, none, none, none, none, none])
    expect(await statuses('16.0.0')).toEqual([200, 204, none, none, none, none, none, none])
    expect(await statuses('16.11.0')).toEqual([200, 204, 201, 200, 204, none, none, none])
    expect(await statuses('17.0.0')).toEqual([200, 204, 201, 200, 204, 201, 200, 204])
  })
})

describe('the seed key job_token_allowlist', () => {
  const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - { path: acme }
  - { path: tools }
projects:
  - { path: acme/site, job_token_allowlist: [acme/deployer, tools] }
  - { path: acme/deployer }
  - { path: tools/lint }
`
  it('fills the allowlists of a project: projects listed after it, and groups', async () => {
    const s = await startServer(seed)
    try {
      const S = '/api/v4/projects/acme%2Fsite/job_token_scope'
      const projects = (await s.http('GET', `${S}/allowlist`, { token: ROOT })).body as Json[]
      expect(projects.map((p) => p.path_with_namespace)).toEqual(['acme/site', 'acme/deployer'])
      const groups = (await s.http('GET', `${S}/groups_allowlist`, { token: ROOT })).body as Json[]
      expect(groups.map((g) => g.name)).toEqual(['tools'])
      expect((await s.http('GET', S, { token: ROOT })).body).toEqual({
        inbound_enabled: true,
        outbound_enabled: false,
      })
    } finally {
      await s.close()
    }
  })

  it('extends the allowlists of a project the server holds (POST /-/emulator/seed), keeping what is there', async () => {
    const other = await idOf('acme/other')
    const S = `${other}/job_token_scope`
    expect(
      (await call('POST', `${S}/allowlist`, MARK, { target_project_id: await idOf('acme/app') }))[0],
    ).toBe(201)
    const seeded = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      json: { projects: [{ path: 'acme/other', job_token_allowlist: ['acme/app', 'acme/nocfg', 'acme'] }] },
    })
    expect(seeded.status).toBe(201)
    const projects = (await call('GET', `${S}/allowlist`, MARK))[1] as Json[]
    expect(projects.map((p) => p.path_with_namespace)).toEqual(['acme/other', 'acme/app', 'acme/nocfg'])
    const groups = (await call('GET', `${S}/groups_allowlist`, MARK))[1] as Json[]
    expect(groups.map((g) => g.name)).toEqual(['acme'])
  })

  it('refuses a path that is neither a project nor a group, and the project itself, adding nothing', async () => {
    const post = (allowlist: string[]) =>
      t.http('POST', '/-/emulator/seed', {
        token: ROOT,
        json: { projects: [{ path: 'acme/new', job_token_allowlist: allowlist }] },
      })
    expect([(await post(['acme/app', 'acme/nope'])).status, (await post(['acme/nope'])).body]).toEqual([
      400,
      { message: 'request body: projects[0].job_token_allowlist[0]: unknown project or group acme/nope' },
    ])
    expect((await post(['acme/new'])).body).toEqual({
      message:
        'request body: projects[0].job_token_allowlist[0]: a project is always in its own job token scope',
    })
    expect((await t.http('GET', '/api/v4/projects/acme%2Fnew', { token: ROOT })).status).toBe(404)
  })
})
