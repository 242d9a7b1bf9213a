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

it("works the instance's variables through client.instanceVariables: administrators only", async () => {
  const vars = as('glpat-root-token').instanceVariables
  const made = await vars.create({ key: 'SITE', value: 'https://example.com', protected: true })
  expect(made).toEqual({
    variable_type: 'env_var',
    key: 'SITE',
    value: 'https://example.com',
    protected: true,
    masked: false,
    raw: false,
    description: null,
  })
  await vars.create({ key: 'TOKEN', value: 'abcdefgh12', masked: true })
  expect((await collect(vars.list())).map((v) => v.key)).toEqual(['SITE', 'TOKEN'])
  expect(await vars.update('SITE', { value: 'https://example.org', protected: false })).toMatchObject({
    value: 'https://example.org',
    protected: false,
  })
  expect(await vars.get('SITE')).toMatchObject({ value: 'https://example.org' })
  await vars.remove('TOKEN')
  expect(await apiFailure(vars.get('TOKEN'))).toMatchObject({
    status: 404,
    body: { message: '404 InstanceVariable Not Found' },
  })
  expect(await apiFailure(vars.create({ key: 'SITE', value: 'again' }))).toMatchObject({
    status: 400,
    body: { message: { key: ['(SITE) has already been taken'] } },
  })
  expect(await apiFailure(as('glpat-mark-token').instanceVariables.list().next())).toMatchObject({
    status: 403,
  })
})
