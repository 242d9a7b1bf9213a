import { collect } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { pipelineSeed } from '../support/pipeline-seed.js'

/* `client.pipelineSchedules` against the reference server, every body checked against src/schema. */

const { as } = clientsOnSeed(pipelineSeed)

it('creates, lists, edits, plays and deletes a schedule with its variables', async () => {
  const mark = as('glpat-mark-token')
  const api = mark.pipelineSchedules
  const made = await api.create('acme/app', { description: 'nightly', ref: 'main', cron: '0 1 * * *' })
  expect(made).toMatchObject({ ref: 'refs/heads/main', cron_timezone: 'UTC', active: true })
  // GitLab presents a created schedule without its caller: no `variables` (nor `inputs`) key.
  expect(made).not.toHaveProperty('variables')
  expect((await api.get('acme/app', made.id)).variables).toEqual([])
  await api.create('acme/app', { description: 'paused', ref: 'develop', cron: '0 2 * * *', active: false })
  expect((await collect(api.list('acme/app', { scope: 'active' }))).map((s) => s.description)).toEqual([
    'nightly',
  ])
  expect(await api.createVariable('acme/app', made.id, { key: 'NIGHTLY', value: 'yes' })).toEqual({
    variable_type: 'env_var',
    key: 'NIGHTLY',
    value: 'yes',
    raw: false,
  })
  await api.updateVariable('acme/app', made.id, 'NIGHTLY', { value: 'no' })
  const edited = await api.update('acme/app', made.id, { cron: '30 3 * * *', cron_timezone: 'Europe/Paris' })
  expect(edited).toMatchObject({ cron: '30 3 * * *' })
  expect((await api.get('acme/app', made.id)).variables).toMatchObject([{ key: 'NIGHTLY', value: 'no' }])
  expect(await api.play('acme/app', made.id)).toEqual({ message: '201 Created' })
  const [pipeline] = await collect(api.pipelines('acme/app', made.id))
  expect(pipeline).toMatchObject({ source: 'schedule', ref: 'main' })
  expect((await api.get('acme/app', made.id)).last_pipeline?.id).toBe(pipeline?.id)
  expect(await api.removeVariable('acme/app', made.id, 'NIGHTLY')).toMatchObject({ key: 'NIGHTLY' })
  expect(
    (await as('glpat-maya-token').pipelineSchedules.takeOwnership('acme/app', made.id)).owner,
  ).toMatchObject({
    username: 'maya',
  })
  expect(await apiFailure(api.update('acme/app', made.id, { description: 'x' }))).toMatchObject({
    status: 403,
  })
  await api.remove('acme/app', made.id)
  expect(await apiFailure(api.get('acme/app', made.id))).toMatchObject({
    status: 404,
    body: { message: '404 Pipeline Schedule Not Found' },
  })
})

it("takes and shows a schedule's CI inputs, typed, and throws GitLab's refusal of bad ones", async () => {
  const api = as('glpat-mark-token').pipelineSchedules
  const made = await api.create('acme/app', {
    description: 'with inputs',
    ref: 'main',
    cron: '0 1 * * *',
    inputs: [
      { name: 'target', value: 'staging' },
      { name: 'zones', value: ['a', 'b'] },
    ],
  })
  expect(made).not.toHaveProperty('inputs')
  expect((await api.get('acme/app', made.id)).inputs).toEqual([
    { name: 'target', value: 'staging' },
    { name: 'zones', value: ['a', 'b'] },
  ])
  const edited = await api.update('acme/app', made.id, {
    inputs: [
      { name: 'zones', destroy: true },
      { name: 'dry_run', value: false },
    ],
  })
  expect(edited).not.toHaveProperty('inputs')
  const inputs = [
    { name: 'target', value: 'staging' },
    { name: 'dry_run', value: false },
  ]
  expect((await api.get('acme/app', made.id)).inputs).toEqual(inputs)
  expect((await collect(api.list('acme/app'))).find((s) => s.id === made.id)?.inputs).toEqual(inputs)
  expect(
    await apiFailure(api.update('acme/app', made.id, { inputs: [{ name: 'x', value: 'y'.repeat(1100) }] })),
  ).toMatchObject({
    status: 400,
    body: { message: { 'inputs.value': ['exceeds max serialized size: 1024 characters'] } },
  })
  await api.remove('acme/app', made.id)
})
