/*
 * A seed's `variables:` on groups, projects and the instance (top level): stored as the API stores them
 * (sealed), read back through the variables API with their fields, and reset back to.
 */
import { inspectDb } from '../../../src/server/store/inspect.js'
import { serverEach } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - path: acme
    variables:
      - { key: REGISTRY, value: registry-secret-1, masked: true, protected: true, description: where }
projects:
  - path: acme/app
    variables:
      - { key: URL, value: https://prod, environment_scope: production }
      - { key: URL, value: https://stage, environment_scope: staging }
      - { key: KUBECONFIG, value: "apiVersion: v1", variable_type: file, raw: true }
variables:
  - { key: SITE, value: site-secret-1, masked: true, description: everywhere }
`
const t = serverEach(seed)
type Json = Record<string, unknown>
/** Adds a seed to the running server (`POST /-/emulator/seed`). */
const post = (body: string) =>
  t.http('POST', '/-/emulator/seed', {
    token: ROOT,
    headers: { 'content-type': 'application/yaml' },
    form: body,
  })

it("seeds group and project variables sealed, read back with the API's fields, again after a reset", async () => {
  for (let round = 0; round < 2; round++) {
    const group = await t.http('GET', '/api/v4/groups/acme/variables', { token: ROOT })
    expect(group.body).toEqual([
      {
        variable_type: 'env_var',
        key: 'REGISTRY',
        value: 'registry-secret-1',
        hidden: false,
        protected: true,
        masked: true,
        raw: false,
        environment_scope: '*',
        description: 'where',
      },
    ])
    const project = await t.http('GET', '/api/v4/projects/acme%2Fapp/variables', { token: ROOT })
    expect(
      (project.body as Json[]).map((v) => [v.key, v.value, v.environment_scope, v.variable_type, v.raw]),
    ).toEqual([
      ['URL', 'https://prod', 'production', 'env_var', false],
      ['URL', 'https://stage', 'staging', 'env_var', false],
      ['KUBECONFIG', 'apiVersion: v1', '*', 'file', true],
    ])
    const instance = await t.http('GET', '/api/v4/admin/ci/variables', { token: ROOT })
    expect(instance.body).toEqual([
      {
        variable_type: 'env_var',
        key: 'SITE',
        value: 'site-secret-1',
        protected: false,
        masked: true,
        raw: false,
        description: 'everywhere',
      },
    ])
    const db = inspectDb(t.server.store)
    const rows = [
      ...db.prepare('SELECT * FROM ci_variables').all(),
      ...db.prepare('SELECT * FROM ci_group_variables').all(),
      ...db.prepare('SELECT * FROM ci_instance_variables').all(),
    ]
    expect(rows).toHaveLength(5)
    expect(JSON.stringify(rows)).not.toMatch(/registry-secret-1|https:\/\/prod|apiVersion|site-secret-1/)
    await t.http('DELETE', '/api/v4/groups/acme/variables/REGISTRY', { token: ROOT })
    await t.http('DELETE', '/api/v4/admin/ci/variables/SITE', { token: ROOT })
    await t.server.reset()
  }
})

it("refuses a seed added to the running server whose instance variable's key is taken, and adds nothing", async () => {
  const taken = await post('variables: [ { key: SITE, value: again } ]')
  expect(taken.status).toBe(400)
  expect(JSON.stringify(taken.body)).toContain('variables[0].key: (SITE) has already been taken')
  expect((await post('variables: [ { key: OTHER, value: v } ]')).status).toBe(201)
  const keys = (await t.http('GET', '/api/v4/admin/ci/variables', { token: ROOT })).body as Json[]
  expect(keys.map((v) => [v.key, v.value])).toEqual([
    ['SITE', 'site-secret-1'],
    ['OTHER', 'v'],
  ])
})

it('adds variables to a project and a group that exist, a key taken only in its own environment scope', async () => {
  const keys = async (owner: string) =>
    ((await t.http('GET', `/api/v4/${owner}/variables`, { token: ROOT })).body as Json[]).map((v) => [
      v.key,
      v.value,
      v.environment_scope,
    ])
  const before = [await keys('projects/acme%2Fapp'), await keys('groups/acme')]

  // The first problem is the one named (problems are sorted by position).
  for (const [body, problem] of [
    [
      'groups:\n  - { path: acme, variables: [ { key: REGISTRY, value: again } ] }',
      'groups[0].variables[0].key: (REGISTRY) has already been taken',
    ],
    [
      'projects:\n  - { path: acme/app, variables: [ { key: DEPLOY, value: d }, { key: URL, value: x, environment_scope: production } ] }',
      'projects[0].variables[1].key: (URL) has already been taken',
    ],
  ]) {
    const taken = await post(body!)
    expect([taken.status, (taken.body as { message: string }).message]).toEqual([
      400,
      `request body: ${problem}`,
    ])
  }
  expect([await keys('projects/acme%2Fapp'), await keys('groups/acme')]).toEqual(before)

  const added = await post(
    [
      'groups:',
      '  - { path: acme, variables: [ { key: REGISTRY, value: review, environment_scope: "review/*" } ] }',
      'projects:',
      '  - { path: acme/app, variables: [ { key: URL, value: https://review, environment_scope: "review/*" } ] }',
    ].join('\n'),
  )
  expect(added.status).toBe(201)
  expect(await keys('projects/acme%2Fapp')).toEqual([...before[0]!, ['URL', 'https://review', 'review/*']])
  expect(await keys('groups/acme')).toEqual([...before[1]!, ['REGISTRY', 'review', 'review/*']])
})
