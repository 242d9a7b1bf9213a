import { startServer, type TestServer } from '../../support/server.js'
import {
  RESET,
  runnerCount,
  storedToken,
  versionsSeed,
  vt,
  type ResetScope,
} from '../../support/versions-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/** Permission rules of the deprecated runner endpoints, on a release that still has them all. */
let t: TestServer
beforeEach(async () => {
  t = await startServer(versionsSeed, { gitlabVersion: '16.11.0' })
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const FORBIDDEN = { message: '403 Forbidden' }
const INVALID_TOKEN = { message: '403 Forbidden - invalid token supplied' }
const reset = async (scope: ResetScope, token: string) => t.http('POST', RESET[scope], { token })
const tokenOf = async (scope: ResetScope) => ((await reset(scope, vt.root)).body as { token: string }).token
const register = (json: Json) => t.http('POST', '/api/v4/runners', { json })

/** [scope, caller, status, body]: who may reset which token (GitLab's `update_runners_registration_token`). */
const MATRIX: [ResetScope, keyof typeof vt, number, Json | null][] = [
  ['instance', 'root', 201, null],
  ['instance', 'owner', 403, FORBIDDEN],
  ['instance', 'outsider', 403, FORBIDDEN],
  ['project', 'root', 201, null],
  ['project', 'owner', 201, null],
  ['project', 'maintainer', 201, null],
  ['project', 'developer', 403, FORBIDDEN],
  ['project', 'outsider', 404, { message: '404 Project Not Found' }],
  ['group', 'root', 201, null],
  ['group', 'owner', 201, null],
  ['group', 'maintainer', 403, FORBIDDEN],
  ['group', 'developer', 403, FORBIDDEN],
  ['group', 'outsider', 404, { message: '404 Group Not Found' }],
]

describe('POST .../runners/reset_registration_token before 18.0', () => {
  it.each(MATRIX)('%s token, %s: %i', async (scope, who, status, body) => {
    const before = storedToken(t, scope)
    const res = await reset(scope, vt[who])
    expect(res.status).toBe(status)
    if (body) {
      expect(res.body).toEqual(body)
      expect(storedToken(t, scope)).toBe(before)
    } else {
      expect(storedToken(t, scope)).not.toBe(before)
    }
  })

  it('a refused reset leaves the token that registers runners unchanged', async () => {
    const token = await tokenOf('project')
    expect((await reset('project', vt.developer)).status).toBe(403)
    expect((await reset('project', 'glpat-nobody')).status).toBe(401)
    expect((await register({ token })).status).toBe(201)
  })

  it('ids are numbers or URL-encoded paths; unknown ones are 404', async () => {
    const id = t.server.store.projects.byPath('acme/widgets')!.id
    expect(
      (
        await t.http('POST', `/api/v4/projects/${id}/runners/reset_registration_token`, {
          token: vt.maintainer,
        })
      ).status,
    ).toBe(201)
    const missing = await t.http('POST', '/api/v4/projects/999999/runners/reset_registration_token', {
      token: vt.root,
    })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Project Not Found' }])
    const group = await t.http('POST', '/api/v4/groups/some%20string/runners/reset_registration_token', {
      token: vt.root,
    })
    expect([group.status, group.body]).toEqual([404, { message: '404 Group Not Found' }])
  })
})

describe('POST /runners with a registration token before 17.0', () => {
  it.each<[ResetScope, string]>([
    ['instance', 'instance_type'],
    ['project', 'project_type'],
    ['group', 'group_type'],
  ])('the %s token registers a %s runner', async (scope, type) => {
    const res = await register({ token: await tokenOf(scope), paused: true, info: { name: 'gitlab-runner' } })
    expect(res.status).toBe(201)
    const row = inspectDb(t.server.store)
      .prepare('SELECT * FROM ci_runners WHERE id = ?')
      .get((res.body as Json).id) as Json
    expect(row).toMatchObject({ runner_type: type, active: 0, name: 'gitlab-runner' })
  })

  it('an unknown or replaced token is 403 and registers nothing', async () => {
    const old = await tokenOf('group')
    await tokenOf('group')
    for (const token of [old, 'not-a-token']) {
      const res = await register({ token })
      expect([res.status, res.body]).toEqual([403, INVALID_TOKEN])
    }
    expect(runnerCount(t)).toBe(0)
  })

  it('answers Grape parameter errors and model validation as GitLab does', async () => {
    const token = await tokenOf('instance')
    const cases: [Json, number, Json][] = [
      [{ token, active: true, paused: false }, 400, { error: 'active, paused are mutually exclusive' }],
      [
        { token, maintainer_note: 'a', maintenance_note: 'b' },
        400,
        { error: 'maintainer_note, maintenance_note are mutually exclusive' },
      ],
      [{ token, access_level: 'everything' }, 400, { error: 'access_level does not have a valid value' }],
      [{ token, maximum_timeout: 'soon' }, 400, { error: 'maximum_timeout is invalid' }],
      // Ci::Runner's other validations apply to registration too.
      [
        { token, maximum_timeout: 60 },
        400,
        { message: { maximum_timeout: ['needs to be at least 10 minutes'] } },
      ],
      [
        { token, run_untagged: false },
        400,
        { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
      ],
      // Blank tags are no tags (acts-as-taggable-on's TagList drops them).
      [
        { token, run_untagged: false, tag_list: ', ,' },
        400,
        { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
      ],
    ]
    for (const [json, status, body] of cases) {
      const res = await register(json)
      expect([res.status, res.body]).toEqual([status, body])
    }
    expect(runnerCount(t)).toBe(0)
    expect((await register({ token, run_untagged: false, tag_list: ['docker'] })).status).toBe(201)
  })

  it('never answers 500, whatever the input', async () => {
    const odd: unknown[] = [123, ['a'], { a: 1 }, null, true, 'x'.repeat(10_000), '\u0000']
    for (const token of odd) {
      const res = await t.http('POST', '/api/v4/runners', {
        json: { token, info: 'not-a-hash', tag_list: token },
      })
      expect(res.status).toBeLessThan(500)
    }
    const form = await t.http('POST', '/api/v4/runners', { form: 'token[]=a&token[b]=c&info=1' })
    expect(form.status).toBeLessThan(500)
    for (const path of [
      '/api/v4/projects/%00/runners/reset_registration_token',
      `/api/v4/groups/${'9'.repeat(400)}/runners/reset_registration_token`,
    ]) {
      expect((await t.http('POST', path, { token: vt.root })).status).toBeLessThan(500)
    }
  })
})
