import { collect } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { pipelineSeed } from '../support/pipeline-seed.js'

/* `client.projects.variables` against the reference server, every body checked against src/schema. */

const { as } = clientsOnSeed(pipelineSeed)

it('creates, lists, reads, edits and deletes variables, environment scopes named when a key is shared', async () => {
  const mark = as('glpat-mark-token')
  const vars = mark.projects.variables
  await vars.create('acme/app', { key: 'URL', value: 'https://prod', environment_scope: 'production' })
  await vars.create('acme/app', { key: 'URL', value: 'https://stage', environment_scope: 'staging' })
  const token = await vars.create('acme/app', { key: 'TOKEN', value: 'abcdefgh12', masked: true })
  expect(token).toMatchObject({ key: 'TOKEN', masked: true, hidden: false, environment_scope: '*' })
  expect((await collect(vars.list('acme/app'))).map((v) => [v.key, v.environment_scope])).toEqual([
    ['URL', 'production'],
    ['URL', 'staging'],
    ['TOKEN', '*'],
  ])
  expect(await apiFailure(vars.get('acme/app', 'URL'))).toMatchObject({ status: 409 })
  expect(await vars.get('acme/app', 'URL', { environmentScope: 'staging' })).toMatchObject({
    value: 'https://stage',
  })
  expect(
    await vars.update('acme/app', 'URL', { value: 'https://prod2' }, { environmentScope: 'production' }),
  ).toMatchObject({ value: 'https://prod2', environment_scope: 'production' })
  await vars.remove('acme/app', 'URL', { environmentScope: 'staging' })
  await vars.remove('acme/app', 'TOKEN')
  expect((await collect(vars.list('acme/app'))).map((v) => v.value)).toEqual(['https://prod2'])
  expect(await apiFailure(vars.get('acme/app', 'TOKEN'))).toMatchObject({
    status: 404,
    body: { message: '404 Variable Not Found' },
  })
})

it("works a group's variables through client.groups.variables: the same calls, Owners' only", async () => {
  const vars = as('glpat-root-token').groups.variables
  await vars.create('acme', { key: 'REGION', value: 'eu', environment_scope: 'production' })
  await vars.create('acme', { key: 'REGION', value: 'us', environment_scope: 'staging' })
  expect((await collect(vars.list('acme'))).map((v) => v.value)).toEqual(['eu', 'us'])
  expect(await apiFailure(vars.get('acme', 'REGION'))).toMatchObject({ status: 409 })
  expect(
    await vars.update('acme', 'REGION', { protected: true }, { environmentScope: 'staging' }),
  ).toMatchObject({ value: 'us', protected: true })
  await vars.remove('acme', 'REGION', { environmentScope: 'production' })
  expect(await vars.get('acme', 'REGION')).toMatchObject({ value: 'us', environment_scope: 'staging' })
  // A Maintainer of the group is no Owner.
  expect(await apiFailure(as('glpat-mark-token').groups.variables.list('acme').next())).toMatchObject({
    status: 403,
  })
})
