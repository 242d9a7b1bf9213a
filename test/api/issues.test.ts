import { createClient, GitLabApiError, collect, type GitLabClient } from '../../src/api/client.js'
import { startServer, type TestServer } from '../support/server.js'
import { widgetsSeed } from '../support/seeds.js'

let t: TestServer
let alice: GitLabClient
beforeAll(async () => {
  t = await startServer(widgetsSeed)
  alice = createClient({ baseUrl: t.baseUrl, token: 'glpat-alice-token' })
})
afterAll(() => t.close())

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
