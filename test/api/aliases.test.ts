import { collect } from '../../src/api/client.js'
import { pipelineSeed } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'
import { apiFailure, clientPool } from '../support/client-pool.js'

let t: TestServer
const { as, closeAll } = clientPool(() => t.baseUrl)
afterEach(async () => {
  await closeAll()
  await t.close()
})

describe('project aliases through the client (EE)', () => {
  beforeEach(async () => {
    t = await startServer(pipelineSeed)
  })

  it('lists lazily, reads, creates by path or id, and removes, as an administrator', async () => {
    const root = as('glpat-root-token')
    expect(await collect(root.aliases.list())).toEqual([{ id: 1, project_id: 1, name: 'app' }])
    expect(await root.aliases.get('app')).toEqual({ id: 1, project_id: 1, name: 'app' })
    const byPath = await root.aliases.create({ project_id: 'acme/failing', name: 'fail.ing' })
    expect(byPath).toEqual({ id: 2, project_id: 2, name: 'fail.ing' })
    const byId = await root.aliases.create({ project_id: 1, name: 'app2' })
    expect(byId).toMatchObject({ project_id: 1, name: 'app2' })
    const paged = await collect(root.aliases.list({ perPage: 1 }))
    expect(paged.map((a) => a.name)).toEqual(['app', 'fail.ing', 'app2'])
    expect(await root.aliases.remove('fail.ing')).toBeUndefined()
    const gone = await apiFailure(root.aliases.get('fail.ing'))
    expect(gone).toMatchObject({ status: 404, method: 'GET', body: { message: '404 Not found' } })
    const again = await apiFailure(root.aliases.remove('fail.ing'))
    expect(again).toMatchObject({ status: 404, method: 'DELETE', path: '/project_aliases/fail.ing' })
  })

  it("surfaces GitLab's 400 and 404 bodies for a taken name, a bad name and an unknown project", async () => {
    const root = as('glpat-root-token')
    const taken = await apiFailure(root.aliases.create({ project_id: 1, name: 'app' }))
    expect(taken).toMatchObject({ status: 400, body: { message: { name: ['has already been taken'] } } })
    expect(taken.gitlabMessage).toBe('name has already been taken')
    const bad = await apiFailure(root.aliases.create({ project_id: 1, name: '-bad' }))
    expect(bad.status).toBe(400)
    expect(bad.gitlabMessage).toMatch(/^name can contain only letters, digits/)
    const nowhere = await apiFailure(root.aliases.create({ project_id: 'acme/nope', name: 'nope' }))
    expect(nowhere).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
    expect((await collect(root.aliases.list())).map((a) => a.name)).toEqual(['app'])
  })

  it('is for administrators: 403 for a maintainer, 401 anonymous, and nothing changes', async () => {
    const mark = as('glpat-mark-token')
    for (const call of [
      () => collect(mark.aliases.list()),
      () => mark.aliases.get('app'),
      () => mark.aliases.create({ project_id: 1, name: 'mine' }),
      () => mark.aliases.remove('app'),
    ]) {
      const err = await apiFailure(call())
      expect(err).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
      expect(err.message).not.toContain('glpat')
    }
    expect((await apiFailure(as().aliases.get('app'))).status).toBe(401)
    expect(await collect(as('glpat-root-token').aliases.list())).toHaveLength(1)
  })
})

it('is 404 on CE, where GitLab has no such routes', async () => {
  t = await startServer(pipelineSeed, { edition: 'ce' })
  const err = await apiFailure(as('glpat-root-token').aliases.get('app'))
  expect(err).toMatchObject({ status: 404, body: { error: '404 Not Found' } })
})
