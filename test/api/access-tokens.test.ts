import { collect } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { widgetsSeed } from '../support/seeds.js'

/* `client.accessTokens`, `personalAccessTokens.createOwn` and the `sudo` option against the reference server. */

const { as } = clientsOnSeed(widgetsSeed)
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

it('client.accessTokens.project: a maintainer makes, lists, rotates and revokes a token that signs in as its bot', async () => {
  const alice = as('glpat-alice-token')
  const made = await alice.accessTokens.project.create('acme/widgets', {
    name: 'deploy',
    scopes: ['api'],
    access_level: 30,
  })
  expect(made).toMatchObject({ name: 'deploy', access_level: 30, resource_type: 'project', active: true })
  const bot = as(made.token)
  expect(await bot.users.current()).toMatchObject({ id: made.user_id, bot: true })
  expect(
    (await collect(alice.accessTokens.project.list('acme/widgets', { state: 'active' }))).map((x) => x.id),
  ).toEqual([made.id])
  expect(await alice.accessTokens.project.get('acme/widgets', made.id)).toMatchObject({ id: made.id })
  const rotated = await alice.accessTokens.project.rotate('acme/widgets', made.id)
  expect(await apiFailure(bot.users.current())).toMatchObject({ status: 401 })
  await alice.accessTokens.project.revoke('acme/widgets', rotated.id)
  expect(await apiFailure(as(rotated.token).users.current())).toMatchObject({ status: 401 })
  expect(
    await apiFailure(
      as('glpat-bob-token').accessTokens.project.create('acme/widgets', { name: 'x', scopes: ['api'] }),
    ),
  ).toMatchObject({
    status: 400,
    body: { message: '400 Bad request - User does not have permission to create project access token' },
  })
})

it('client.accessTokens.group and .impersonation, and the sudo option', async () => {
  const root = as('glpat-root-token')
  const group = await root.accessTokens.group.create('acme', {
    name: 'g',
    scopes: ['read_api'],
    access_level: 50,
  })
  expect(group).toMatchObject({ resource_type: 'group', access_level: 50, scopes: ['read_api'] })
  expect((await collect(root.accessTokens.group.list('acme'))).map((x) => x.id)).toEqual([group.id])

  const bob = await root.users.current({ sudo: 'bob' })
  expect(bob).toMatchObject({ username: 'bob' })
  const made = await root.accessTokens.impersonation.create(bob.id, {
    name: 'support',
    scopes: ['read_user'],
    expires_at: inDays(30),
  })
  expect(made).toMatchObject({ impersonation: true, user_id: bob.id })
  expect(await as(made.token).users.current()).toMatchObject({ username: 'bob' })
  expect(await root.accessTokens.impersonation.get(bob.id, made.id)).toMatchObject({ id: made.id })
  await root.accessTokens.impersonation.revoke(bob.id, made.id)
  expect(
    (await collect(root.accessTokens.impersonation.list(bob.id, { state: 'inactive' }))).map((x) => x.id),
  ).toEqual([made.id])
  expect(await apiFailure(as('glpat-alice-token').users.current({ sudo: 'bob' }))).toMatchObject({
    status: 403,
    body: { message: '403 Forbidden - Must be admin to use sudo' },
  })
})

it('client.personalAccessTokens.createOwn: a k8s_proxy token for the caller', async () => {
  const carol = as('glpat-carol-token')
  // The server's tomorrow, on the wall clock: read on both sides of the call, as UTC midnight may pass
  // between (the same day twice otherwise).
  const before = inDays(1)
  const made = await carol.personalAccessTokens.createOwn({ name: 'kube', scopes: ['k8s_proxy'] })
  expect(made.scopes).toEqual(['k8s_proxy'])
  expect([before, inDays(1)]).toContain(made.expires_at)
})
