import { collect } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { widgetsSeed } from '../support/seeds.js'

/* `client.users` against the reference server, every body checked against src/schema. */

const { as } = clientsOnSeed(widgetsSeed)

it('creates, reads, edits, blocks and deletes a user as an administrator', async () => {
  const root = as('glpat-root-token')
  const made = await root.users.create({
    email: 'zed@example.com',
    username: 'zed',
    name: 'Zed',
    force_random_password: true,
    bio: 'Hi',
  })
  expect(made).toMatchObject({ username: 'zed', bio: 'Hi', email: 'zed@example.com', is_admin: false })
  expect(await root.users.get(made.id)).toEqual(made)
  expect(await root.users.update(made.id, { name: 'Robert', can_create_group: false })).toMatchObject({
    name: 'Robert',
    can_create_group: false,
  })
  expect(await collect(root.users.memberships(made.id))).toEqual([])
  expect(await root.users.block(made.id)).toBe(true)
  expect(await root.users.block(made.id)).toBeNull()
  expect(await root.users.unblock(made.id)).toBe(true)
  expect(await root.users.unblock(made.id)).toBe(false)
  await root.users.remove(made.id, { hard_delete: true })
  expect(await apiFailure(root.users.get(made.id))).toMatchObject({
    status: 404,
    body: { message: '404 User Not Found' },
  })
})

it("refuses others than administrators, and a taken username, with GitLab's bodies", async () => {
  const alice = as('glpat-alice-token')
  const body = { email: 'zed@example.com', username: 'zed', name: 'Zed', password: 'long-enough' }
  expect(await apiFailure(alice.users.create(body))).toMatchObject({
    status: 403,
    body: { message: '403 Forbidden' },
  })
  const root = as('glpat-root-token')
  await root.users.create(body)
  expect(await apiFailure(root.users.create({ ...body, email: 'other@example.com' }))).toMatchObject({
    status: 409,
    body: { message: 'Username has already been taken' },
  })
})

it('client.personalAccessTokens: an administrator makes a token; its owner reads, rotates and revokes it', async () => {
  const root = as('glpat-root-token')
  const alice = (
    await collect(root.paginate<{ id: number; username: string }>('/users', { query: { username: 'alice' } }))
  )[0]!
  const made = await root.personalAccessTokens.create(alice.id, {
    name: 'suite',
    scopes: ['api'],
    expires_at: '2099-01-01',
  })
  expect(made).toMatchObject({
    name: 'suite',
    scopes: ['api'],
    user_id: alice.id,
    expires_at: '2099-01-01',
    active: true,
  })
  const owner = as(made.token)
  expect(await owner.personalAccessTokens.self()).toMatchObject({ id: made.id, name: 'suite' })
  expect((await collect(root.personalAccessTokens.list({ user_id: alice.id }))).map((x) => x.name)).toContain(
    'suite',
  )
  const rotated = await owner.personalAccessTokens.rotateSelf()
  expect(rotated).toMatchObject({ name: 'suite', active: true })
  expect(await apiFailure(owner.users.current())).toMatchObject({ status: 401 })
  const fresh = as(rotated.token)
  expect(await fresh.personalAccessTokens.get(rotated.id)).toMatchObject({ id: rotated.id, revoked: false })
  await root.personalAccessTokens.revoke(rotated.id)
  expect(await apiFailure(fresh.users.current())).toMatchObject({ status: 401 })
})

it('client.namespaces: one namespace by path, and whether a path is taken', async () => {
  const root = as('glpat-root-token')
  expect(await root.namespaces.get('acme')).toMatchObject({ kind: 'group', full_path: 'acme' })
  expect(await root.namespaces.exists('acme')).toEqual({ exists: true, suggests: ['acme1'] })
  expect(await root.namespaces.exists('no-such-group')).toEqual({ exists: false, suggests: [] })
  expect(await apiFailure(as('glpat-carol-token').namespaces.get('acme'))).toMatchObject({
    status: 404,
    body: { message: '404 Namespace Not Found' },
  })
})
