import { serverEach } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Users as administrators manage them (`lib/api/users.rb`): create, read, edit, delete, block,
 * ban, deactivate; GitLab's statuses and bodies, and nothing stored when a request is refused.
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, email: alice@example.com, token: ${ALICE} }
  - { username: owen, name: Owen, token: glpat-owen-token }
  - { username: pia, name: Pia }
groups:
  - { path: acme, members: { owen: owner, alice: developer } }
projects:
  - path: acme/app
    issues:
      - { title: By alice, author: alice }
  - path: pia/tools
`
type Json = Record<string, unknown>
const t = serverEach(seed, () => ({ clock: manualClock('2026-03-01T10:00:00.000Z') }))

const db = () => inspectDb(t.server.store)
const userRows = () => db().prepare('SELECT username, name, email, state, admin FROM users ORDER BY id').all()
const idOf = (username: string) =>
  (db().prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number }).id
const bob = { email: 'bob@example.com', username: 'bob', name: 'Bob', password: 'secret-password' }
const create = async (json: Json = bob) => {
  const res = await t.http('POST', '/api/v4/users', { token: ROOT, json })
  expect(res.status).toBe(201)
  return res.body as Json
}

describe('POST /users', () => {
  it('creates a user with its namespace and profile, and answers it as administrators see it', async () => {
    const body = await create({ ...bob, bio: 'Hi', can_create_group: false, projects_limit: 0, admin: true })
    expect(body).toEqual({
      id: idOf('bob'),
      username: 'bob',
      public_email: null,
      name: 'Bob',
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${t.baseUrl}/bob`,
      created_at: '2026-03-01T10:00:00.000Z',
      bio: 'Hi',
      bot: false,
      email: 'bob@example.com',
      is_admin: true,
      can_create_group: false,
      can_create_project: false,
      two_factor_enabled: false,
      external: false,
      private_profile: false,
    })
    expect(db().prepare("SELECT kind, full_path FROM namespaces WHERE path = 'bob'").get()).toEqual({
      kind: 'user',
      full_path: 'bob',
    })
    const read = await t.http('GET', `/api/v4/users/${idOf('bob')}`, { token: ROOT })
    expect(read.body).toEqual(body)
  })

  it('accepts reset_password or force_random_password instead of a password, as a form too', async () => {
    const { password: _, ...noPassword } = bob
    await create({ ...noPassword, force_random_password: true })
    const res = await t.http('POST', '/api/v4/users', {
      token: ROOT,
      form: 'email=carol%40example.com&username=carol&name=Carol&reset_password=true&skip_confirmation=true',
    })
    expect(res).toMatchObject({ status: 201, body: { username: 'carol', email: 'carol@example.com' } })
  })

  it('is for administrators: 401 anonymous, 403 others, nothing stored', async () => {
    const before = userRows()
    expect(await t.http('POST', '/api/v4/users', { json: bob })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    expect(await t.http('POST', '/api/v4/users', { token: ALICE, json: bob })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect(userRows()).toEqual(before)
  })

  it("answers Grape's 400 for missing parameters, the model's for invalid ones, 409 for taken ones", async () => {
    const before = userRows()
    expect(await t.http('POST', '/api/v4/users', { token: ROOT, json: {} })).toEqual(
      expect.objectContaining({
        status: 400,
        body: {
          error:
            'email is missing, name is missing, username is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided',
        },
      }),
    )
    expect(
      await t.http('POST', '/api/v4/users', {
        token: ROOT,
        json: { ...bob, email: 'nope', password: 'short', username: '-bad', projects_limit: -1 },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        message: {
          email: ['is invalid'],
          password: ['is too short (minimum is 8 characters)'],
          username: [
            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.",
          ],
          projects_limit: ['must be greater than or equal to 0'],
        },
      },
    })
    expect(
      await t.http('POST', '/api/v4/users', { token: ROOT, json: { ...bob, email: 'ALICE@example.com' } }),
    ).toMatchObject({ status: 409, body: { message: 'Email has already been taken' } })
    expect(
      await t.http('POST', '/api/v4/users', {
        token: ROOT,
        json: { ...bob, username: 'Alice', password: 'short' },
      }),
    ).toMatchObject({ status: 409, body: { message: 'Username has already been taken' } })
    // A group holds the path: the model's error, not a conflict.
    expect(
      await t.http('POST', '/api/v4/users', { token: ROOT, json: { ...bob, username: 'acme' } }),
    ).toMatchObject({
      status: 400,
      body: { message: { username: ['has already been taken'] } },
    })
    expect(
      await t.http('POST', '/api/v4/users', { token: ROOT, json: { ...bob, projects_limit: 'many' } }),
    ).toMatchObject({ status: 400, body: { error: 'projects_limit is invalid' } })
    expect(userRows()).toEqual(before)
  })
})

describe('GET and PUT /users/:id', () => {
  it('shows others than administrators the public profile; 403 anonymous, 404 unknown', async () => {
    const id = idOf('alice')
    expect(await t.http('GET', `/api/v4/users/${id}`, { token: 'glpat-owen-token' })).toMatchObject({
      status: 200,
      body: { id, username: 'alice', name: 'Alice', bio: '', bot: false },
    })
    const seen = (await t.http('GET', `/api/v4/users/${id}`, { token: 'glpat-owen-token' })).body as Json
    expect(seen).not.toHaveProperty('email')
    expect(await t.http('GET', `/api/v4/users/${id}`)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Not authorized!' },
    })
    expect(await t.http('GET', '/api/v4/users/9999', { token: ROOT })).toMatchObject({
      status: 404,
      body: { message: '404 User Not Found' },
    })
  })

  it('edits the user, its profile and its namespace; GET /user shows the bio', async () => {
    const id = idOf('alice')
    const res = await t.http('PUT', `/api/v4/users/${id}`, {
      token: ROOT,
      json: { bio: 'Writes code', username: 'alice2', name: 'Alice Two', external: true },
    })
    expect(res).toMatchObject({
      status: 200,
      body: {
        username: 'alice2',
        name: 'Alice Two',
        bio: 'Writes code',
        external: true,
        email: 'alice@example.com',
      },
    })
    expect(db().prepare('SELECT full_path, name FROM namespaces WHERE owner_id = ?').get(id)).toEqual({
      full_path: 'alice2',
      name: 'Alice Two',
    })
    expect(await t.http('GET', '/api/v4/user', { token: ALICE })).toMatchObject({
      status: 200,
      body: { username: 'alice2', bio: 'Writes code', external: true },
    })
  })

  it('refuses: 404 unknown, 403 non-administrators, 409 taken, 400 invalid; nothing changed', async () => {
    const id = idOf('alice')
    const before = userRows()
    const put = (json: Json, token = ROOT, user = id) =>
      t.http('PUT', `/api/v4/users/${user}`, { token, json })
    expect(await put({ bio: 'x' }, ROOT, 9999)).toMatchObject({
      status: 404,
      body: { message: '404 User Not Found' },
    })
    expect(await put({ bio: 'x' }, ALICE)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect(await put({ username: 'owen' })).toMatchObject({
      status: 409,
      body: { message: 'Username has already been taken' },
    })
    expect(await put({ email: 'bad', bio: 'x' })).toMatchObject({
      status: 400,
      body: { message: { email: ['is invalid'] } },
    })
    expect(userRows()).toEqual(before)
    expect(db().prepare('SELECT COUNT(*) AS n FROM user_profiles').get()).toEqual({ n: 0 })
  })
})

describe('user states', () => {
  const post = (action: string, user: number, token = ROOT) =>
    t.http('POST', `/api/v4/users/${user}/${action}`, { token })

  it("block and unblock, with GitLab's answers when there is nothing to change; a blocked user's token stops working", async () => {
    const id = idOf('alice')
    expect(await post('block', id)).toMatchObject({ status: 201, text: 'true' })
    expect(await t.http('GET', '/api/v4/user', { token: ALICE })).toMatchObject({ status: 401 })
    expect(await post('block', id)).toMatchObject({ status: 201, text: 'null' })
    expect(await post('activate', id)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - A blocked user must be unblocked to be activated' },
    })
    expect(await post('unblock', id)).toMatchObject({ status: 201, text: 'true' })
    expect(await t.http('GET', '/api/v4/user', { token: ALICE })).toMatchObject({ status: 200 })
    expect(await post('unblock', id)).toMatchObject({ status: 201, text: 'false' })
    expect(await post('block', idOf('root'))).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - The API initiating user cannot be blocked by the API' },
    })
  })

  it('deactivate and activate, ban and unban', async () => {
    const id = idOf('alice')
    expect(await post('deactivate', id)).toMatchObject({ status: 201, text: 'true' })
    expect(await post('deactivate', id)).toMatchObject({ status: 201, text: 'null' })
    expect(await post('unblock', id)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' },
    })
    expect(await post('ban', id)).toMatchObject({
      status: 403,
      body: { message: 'You cannot ban deactivated users.' },
    })
    expect(await post('activate', id)).toMatchObject({ status: 201, text: 'true' })
    expect(await post('activate', id)).toMatchObject({ status: 201, text: 'false' })
    expect(await post('ban', id)).toMatchObject({ status: 201, text: 'true' })
    expect(userRows()).toContainEqual(expect.objectContaining({ username: 'alice', state: 'banned' }))
    expect(await post('deactivate', id)).toMatchObject({
      status: 403,
      body: { message: 'Error occurred. A blocked user cannot be deactivated' },
    })
    expect(await post('unban', id)).toMatchObject({ status: 201, text: 'true' })
    expect(await post('unban', id)).toMatchObject({
      status: 403,
      body: { message: 'You cannot unban active users.' },
    })
  })

  it('is for administrators, and 404 for an unknown user', async () => {
    for (const action of ['block', 'unblock', 'deactivate', 'activate', 'ban', 'unban']) {
      expect(await post(action, idOf('owen'), ALICE)).toMatchObject({ status: 403 })
      expect(await post(action, 9999)).toMatchObject({ status: 404, body: { message: '404 User Not Found' } })
    }
    expect(userRows()).toContainEqual(expect.objectContaining({ username: 'owen', state: 'active' }))
  })
})

describe('GET /users/:user_id/memberships', () => {
  it("lists a user's direct memberships, by type, for administrators only", async () => {
    const id = idOf('alice')
    const group = db().prepare("SELECT id FROM namespaces WHERE path = 'acme'").get() as { id: number }
    const res = await t.http('GET', `/api/v4/users/${id}/memberships`, { token: ROOT })
    expect(res).toMatchObject({
      status: 200,
      body: [{ source_id: group.id, source_name: 'acme', source_type: 'Namespace', access_level: 30 }],
    })
    expect(res.headers['x-total']).toBe('1')
    expect(
      (await t.http('GET', `/api/v4/users/${id}/memberships`, { token: ROOT, query: 'type=Project' })).body,
    ).toEqual([])
    expect(
      await t.http('GET', `/api/v4/users/${id}/memberships`, { token: ROOT, query: 'type=Group' }),
    ).toMatchObject({ status: 400, body: { error: 'type does not have a valid value' } })
    expect(await t.http('GET', `/api/v4/users/${id}/memberships`, { token: ALICE })).toMatchObject({
      status: 403,
    })
    expect(await t.http('GET', `/api/v4/users/${id}/memberships`)).toMatchObject({ status: 401 })
    expect(await t.http('GET', '/api/v4/users/9999/memberships', { token: ROOT })).toMatchObject({
      status: 404,
      body: { message: '404 User Not Found' },
    })
  })
})

describe('DELETE /users/:id', () => {
  it('deletes the user, its namespace and tokens; its issues go to the Ghost User', async () => {
    const id = idOf('alice')
    expect(await t.http('DELETE', `/api/v4/users/${id}`, { token: ROOT })).toMatchObject({
      status: 204,
      text: '',
    })
    expect(await t.http('GET', `/api/v4/users/${id}`, { token: ROOT })).toMatchObject({ status: 404 })
    expect(await t.http('GET', '/api/v4/user', { token: ALICE })).toMatchObject({ status: 401 })
    expect(db().prepare("SELECT COUNT(*) AS n FROM namespaces WHERE path = 'alice'").get()).toEqual({ n: 0 })
    const issues = await t.http('GET', '/api/v4/projects/acme%2Fapp/issues', { token: ROOT })
    expect(issues.body).toMatchObject([
      { title: 'By alice', author: { username: 'ghost', name: 'Ghost User' } },
    ])
  })

  it("refuses a group's sole owner unless hard_delete; 404 unknown, 403 others", async () => {
    const id = idOf('owen')
    expect(await t.http('DELETE', `/api/v4/users/${id}`, { token: ROOT })).toMatchObject({
      status: 409,
      body: { message: 'User cannot be removed while is the sole-owner of a group' },
    })
    expect(await t.http('DELETE', `/api/v4/users/${id}`, { token: ALICE })).toMatchObject({ status: 403 })
    expect(await t.http('DELETE', '/api/v4/users/9999', { token: ROOT })).toMatchObject({ status: 404 })
    expect(userRows()).toContainEqual(expect.objectContaining({ username: 'owen' }))
    expect(
      await t.http('DELETE', `/api/v4/users/${id}`, { token: ROOT, query: 'hard_delete=true' }),
    ).toMatchObject({ status: 204 })
    expect(userRows()).not.toContainEqual(expect.objectContaining({ username: 'owen' }))
  })

  it('refuses a user with personal projects (GitLab would delete them; the server deletes no project)', async () => {
    expect(await t.http('DELETE', `/api/v4/users/${idOf('pia')}`, { token: ROOT })).toMatchObject({
      status: 409,
      body: { message: 'User cannot be removed while they have personal projects' },
    })
    expect(userRows()).toContainEqual(expect.objectContaining({ username: 'pia' }))
  })
})

it('reset() drops the users made through the API', async () => {
  await create()
  await t.server.reset()
  expect(userRows()).not.toContainEqual(expect.objectContaining({ username: 'bob' }))
  expect(db().prepare('SELECT COUNT(*) AS n FROM user_profiles').get()).toEqual({ n: 0 })
})
