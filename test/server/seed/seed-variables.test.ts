/*
 * A seed's `variables:` on groups and projects: stored as the API stores them (sealed), read back
 * through the variables API with their fields, and reset back to.
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
`
const t = serverEach(seed)
type Json = Record<string, unknown>

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
    const db = inspectDb(t.server.store)
    const rows = [
      ...db.prepare('SELECT * FROM ci_variables').all(),
      ...db.prepare('SELECT * FROM ci_group_variables').all(),
    ]
    expect(rows).toHaveLength(4)
    expect(JSON.stringify(rows)).not.toMatch(/registry-secret-1|https:\/\/prod|apiVersion/)
    await t.http('DELETE', '/api/v4/groups/acme/variables/REGISTRY', { token: ROOT })
    await t.server.reset()
  }
})
