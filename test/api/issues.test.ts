import { createClient, GitLabApiError, collect, type GitLabClient } from '../../src/api/client.js'
import { startServer, type TestServer } from '../support/server.js'
import { widgetsSeed } from '../support/seeds.js'
import { scripted } from './fake-send.js'

let t: TestServer
let alice: GitLabClient
beforeAll(async () => {
  t = await startServer(widgetsSeed)
  // validate: every body is checked against src/schema, so server and schema cannot drift apart unseen.
  alice = createClient({ baseUrl: t.baseUrl, token: 'glpat-alice-token', validate: true })
})
afterAll(async () => {
  await alice.close()
  await t.close()
})

describe('issues through the typed client', () => {
  it('lists lazily with typed filters (CSV labels, not[...], iids[])', async () => {
    const bugs = await collect(alice.issues.list('acme/widgets', { labels: ['bug'], state: 'opened' }))
    expect(bugs.map((i) => i.iid)).toEqual([4, 1])
    const notDocs = await collect(
      alice.issues.list('acme/widgets', { not: { labels: ['docs'] }, iids: [1, 2, 3] }),
    )
    expect(notDocs.map((i) => i.iid)).toEqual([2, 1])
  })

  it('follows pages of any size and keyset cursors to the end', async () => {
    const all = await collect(alice.issues.list('acme/widgets', {}, {}))
    const paged = await collect(alice.http.paginate('/projects/acme%2Fwidgets/issues', { perPage: 2 }))
    expect(paged).toHaveLength(all.length)
    const keyset = await collect(
      alice.issues.list('acme/widgets', { pagination: 'keyset', order_by: 'created_at' }),
    )
    expect(keyset.map((i) => i.iid)).toEqual(all.map((i) => i.iid))
  })

  it('creates, edits, closes and deletes', async () => {
    const root = createClient({ baseUrl: t.baseUrl, token: 'glpat-root-token' })
    const created = await alice.issues.create('acme/widgets', {
      title: 'From the client',
      labels: ['bug', 'new-one'],
    })
    expect(created.labels).toEqual(['bug', 'new-one'])
    const edited = await alice.issues.update('acme/widgets', created.iid, {
      remove_labels: ['bug'],
      state_event: 'close',
    })
    expect(edited).toMatchObject({ labels: ['new-one'], state: 'closed' })
    await root.issues.remove('acme/widgets', created.iid)
    await expect(alice.issues.get('acme/widgets', created.iid)).rejects.toMatchObject({ status: 404 })
  })

  it('raises GitLabApiError with GitLab body and status, and no token in the message', async () => {
    const err = await alice.issues.create('acme/widgets', { title: '' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitLabApiError)
    expect(err).toMatchObject({
      status: 400,
      method: 'POST',
      path: '/projects/acme%2Fwidgets/issues',
      body: { message: { title: ["can't be blank"] } },
    })
    expect(String((err as Error).message)).not.toContain('glpat')
  })

  it('reads the project, the group, the user and the version', async () => {
    expect((await alice.projects.get('acme/widgets')).path_with_namespace).toBe('acme/widgets')
    expect((await alice.groups.get('acme')).full_path).toBe('acme')
    expect((await alice.users.current()).username).toBe('alice')
    expect((await alice.version()).version).toMatch(/^\d+\.\d+\.\d+/)
  })
})

describe('issues on the wire (fake Send)', () => {
  const emptyList = { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' }

  it('lists 100 per page, string lists comma-joined, integer lists as iids[], not as a hash', async () => {
    const { send, calls } = scripted([emptyList, emptyList, emptyList])
    const client = createClient({ baseUrl: 'http://gitlab.test', send })
    await collect(
      client.issues.list('acme/widgets', { labels: ['bug', 'ui'], iids: [1, 2], not: { labels: ['docs'] } }),
    )
    await collect(client.issues.listGroup('acme/platform', { state: 'closed', confidential: true }))
    await collect(client.issues.listAll({ scope: 'all', per_page: 5 }))
    const shown = (p: string) => p.replace(/\?.*/, (q) => decodeURIComponent(q))
    expect(calls.map((c) => shown(c.path))).toEqual([
      '/projects/acme%2Fwidgets/issues?per_page=100&labels=bug,ui&iids[]=1&iids[]=2&not[labels]=docs',
      '/groups/acme%2Fplatform/issues?per_page=100&state=closed&confidential=true',
      '/issues?per_page=5&scope=all',
    ])
  })

  it('sends create and update as JSON with labels comma-joined, and remove as DELETE', async () => {
    const issue = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"iid":7}' }
    const { send, calls } = scripted([issue, { ...issue, status: 200 }, { status: 204 }])
    const client = createClient({ baseUrl: 'http://gitlab.test', send })
    expect(await client.issues.create(12, { title: 'T', labels: ['a', 'b'], assignee_ids: [3] })).toEqual({
      iid: 7,
    })
    await client.issues.update(12, 7, { add_labels: ['c'], state_event: 'close' })
    await client.issues.remove(12, 7)
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/projects/12/issues', '{"title":"T","labels":"a,b","assignee_ids":[3]}'],
      ['PUT', '/projects/12/issues/7', '{"add_labels":"c","state_event":"close"}'],
      ['DELETE', '/projects/12/issues/7', undefined],
    ])
  })
})
