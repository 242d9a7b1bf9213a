import { collect, createClient, GitLabApiError, type GitLabClient } from '../../src/api/client.js'
import { pipelineSeed } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

let t: TestServer
const clients: GitLabClient[] = []
/** A client that checks every body against src/schema (`validate`), closed after each test. */
const as = (token?: string) => {
  const c = createClient({ baseUrl: t.baseUrl, token, validate: true, retry: { maxRetries: 0 } })
  clients.push(c)
  return c
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await t.close()
})
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GitLabApiError)
  return err as GitLabApiError
}

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
    const gone = await failure(root.aliases.get('fail.ing'))
    expect(gone).toMatchObject({ status: 404, method: 'GET', body: { message: '404 Not found' } })
    const again = await failure(root.aliases.remove('fail.ing'))
    expect(again).toMatchObject({ status: 404, method: 'DELETE', path: '/project_aliases/fail.ing' })
  })

  it("surfaces GitLab's 400 and 404 bodies for a taken name, a bad name and an unknown project", async () => {
    const root = as('glpat-root-token')
    const taken = await failure(root.aliases.create({ project_id: 1, name: 'app' }))
    expect(taken).toMatchObject({ status: 400, body: { message: { name: ['has already been taken'] } } })
    expect(taken.gitlabMessage).toBe('name has already been taken')
    const bad = await failure(root.aliases.create({ project_id: 1, name: '-bad' }))
    expect(bad.status).toBe(400)
    expect(bad.gitlabMessage).toMatch(/^name can contain only letters, digits/)
    const nowhere = await failure(root.aliases.create({ project_id: 'acme/nope', name: 'nope' }))
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
      const err = await failure(call())
      expect(err).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
      expect(err.message).not.toContain('glpat')
    }
    expect((await failure(as().aliases.get('app'))).status).toBe(401)
    expect(await collect(as('glpat-root-token').aliases.list())).toHaveLength(1)
  })
})

it('is 404 on CE, where GitLab has no such routes', async () => {
  t = await startServer(pipelineSeed, { edition: 'ce' })
  const err = await failure(as('glpat-root-token').aliases.get('app'))
  expect(err).toMatchObject({ status: 404, body: { error: '404 Not Found' } })
})
