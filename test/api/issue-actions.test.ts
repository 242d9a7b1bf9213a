import { collect, createClient, NOT_MODIFIED, type GitLabClient } from '../../src/api/client.js'
import { startServer, type TestServer } from '../support/server.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure } from '../support/client-pool.js'

const W = 'acme/widgets'
let t: TestServer
const clients: GitLabClient[] = []
/** A client that checks every body against src/schema (`validate`), closed after each test. */
const as = (token: string | undefined, userAgent?: string) => {
  const c = createClient({ baseUrl: t.baseUrl, token, validate: true, userAgent, retry: { maxRetries: 0 } })
  clients.push(c)
  return c
}
beforeEach(async () => {
  t = await startServer(detailSeed)
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await t.close()
})

/** The error a call rejects with (fails the test when it resolves). */

describe('reorder', () => {
  it('places the issue below move_before_id and above move_after_id; relative_position lists follow', async () => {
    const rita = as(T.reporter)
    const idOf = async (iid: number) => (await rita.issues.get(W, iid)).id
    const moved = await rita.issueActions.reorder(W, 1, {
      move_before_id: await idOf(2),
      move_after_id: await idOf(3),
    })
    expect(moved).toMatchObject({ iid: 1 })
    const order = await collect(rita.issues.list(W, { order_by: 'relative_position', sort: 'asc' }))
    expect(order.map((i) => i.iid)).toEqual([2, 1, 3, 4, 5, 6])
  })

  it('surfaces GitLab errors: 403 for a guest, 404 for a missing issue', async () => {
    const err = await apiFailure(as(T.guest).issueActions.reorder(W, 2, { move_before_id: 1 }))
    expect(err).toMatchObject({ status: 403, method: 'PUT', body: { message: '403 Forbidden' } })
    const missing = await apiFailure(as(T.reporter).issueActions.reorder(W, 99, { move_before_id: 1 }))
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } })
  })
})

describe('move', () => {
  it('creates the issue in the target (next iid, labels and milestone by name) and closes the original', async () => {
    const mark = as(T.maintainer)
    const other = await mark.projects.get('acme/other')
    const moved = await mark.issueActions.move(W, 1, { to_project_id: other.id })
    expect(moved).toMatchObject({
      iid: 2,
      project_id: other.id,
      title: 'First',
      state: 'opened',
      labels: ['bug'],
      milestone: { title: 'v1.0', project_id: other.id },
      moved_to_id: null,
    })
    expect(moved.references.full).toBe('acme/other#2')
    expect(await mark.issues.get(W, 1)).toMatchObject({ state: 'closed', moved_to_id: moved.id })
  })

  it("answers GitLab's 400 texts for the same project and for missing rights; the issue stays", async () => {
    const mark = as(T.maintainer)
    const widgets = await mark.projects.get(W)
    const same = await apiFailure(mark.issueActions.move(W, 2, { to_project_id: widgets.id }))
    expect(same).toMatchObject({
      status: 400,
      method: 'POST',
      path: '/projects/acme%2Fwidgets/issues/2/move',
      body: { message: 'Cannot move issue to project it originates from!' },
    })
    expect(same.message).toBe(
      'POST /projects/acme%2Fwidgets/issues/2/move -> 400: Cannot move issue to project it originates from!',
    )
    const other = await mark.projects.get('acme/other')
    const dana = as(T.dev) // developer of acme/widgets only: cannot see acme/other
    const denied = await apiFailure(dana.issueActions.move(W, 2, { to_project_id: other.id }))
    expect(denied).toMatchObject({
      status: 400,
      body: { message: 'Cannot move issue due to insufficient permissions!' },
    })
    const nowhere = await apiFailure(mark.issueActions.move(W, 2, { to_project_id: 9999 }))
    expect(nowhere).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
    expect(await mark.issues.get(W, 2)).toMatchObject({ state: 'opened', moved_to_id: null })
  })
})

describe('subscriptions and to-dos', () => {
  it('subscribe and unsubscribe return the issue, or NOT_MODIFIED when nothing changes', async () => {
    const gus = as(T.guest)
    expect(await gus.issueActions.subscribe(W, 2)).toMatchObject({ iid: 2, subscribed: true })
    expect(await gus.issueActions.subscribe(W, 2)).toBe(NOT_MODIFIED)
    expect(await gus.issueActions.unsubscribe(W, 2)).toMatchObject({ iid: 2, subscribed: false })
    expect(await gus.issueActions.unsubscribe(W, 2)).toBe(NOT_MODIFIED)
    // the author of issue #1 is subscribed already
    expect(await as(T.maintainer).issueActions.subscribe(W, 1)).toBe(NOT_MODIFIED)
  })

  it('todo returns a pending to-do on the issue, then NOT_MODIFIED', async () => {
    const gus = as(T.guest)
    const todo = await gus.issueActions.todo(W, 2)
    if (todo === NOT_MODIFIED) throw new Error('expected a to-do')
    expect(todo).toMatchObject({
      action_name: 'marked',
      target_type: 'Issue',
      state: 'pending',
      target: { iid: 2 },
      project: { path_with_namespace: W },
    })
    expect(todo.target_url).toMatch(/\/acme\/widgets\/-\/issues\/2$/)
    expect(await gus.issueActions.todo(W, 2)).toBe(NOT_MODIFIED)
  })

  it('401 anonymous, 404 for an issue the caller cannot read', async () => {
    const anon = await apiFailure(as(undefined).issueActions.subscribe('acme/public', 1))
    expect(anon.status).toBe(401)
    const hidden = await apiFailure(as(T.outsider).issueActions.todo(W, 1))
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
  })
})

describe('lists around an issue', () => {
  it('participants: author, assignees, then commenters, lazily', async () => {
    await as(T.guest).notes.create(W, 1, { body: 'me too' })
    const users = await collect(as(T.reporter).issueActions.participants(W, 1))
    expect(users.map((u) => u.username)).toEqual(['mark', 'rita', 'gus'])
  })

  it('related merge requests and closed_by, following pages', async () => {
    const rita = as(T.reporter)
    const related = await collect(rita.issueActions.relatedMergeRequests(W, 1, { perPage: 1 }))
    expect(related.map((m) => [m.iid, m.title])).toEqual([
      [1, 'Fix first'],
      [2, 'Mention first'],
    ])
    expect(related[0]).toHaveProperty('diff_refs')
    const closing = await collect(rita.issueActions.closedBy(W, 1))
    expect(closing.map((m) => m.iid)).toEqual([1])
    expect(closing[0]).not.toHaveProperty('diff_refs')
    expect(await collect(rita.issueActions.closedBy(W, 2))).toEqual([])
    const err = await apiFailure(collect(rita.issueActions.closedBy(W, 99)))
    expect(err).toMatchObject({ status: 404, body: { message: '404 Not found' } })
  })

  it('user agent detail: administrators only; 404 for an issue not created through the API', async () => {
    const created = await as(T.reporter, 'my-script/1.0').issues.create(W, { title: 'Via the client' })
    const root = as(T.root)
    expect(await root.issueActions.userAgentDetail(W, created.iid)).toEqual({
      user_agent: 'my-script/1.0',
      ip_address: '127.0.0.1',
      akismet_submitted: false,
    })
    const owner = await apiFailure(as(T.owner).issueActions.userAgentDetail(W, created.iid))
    expect(owner).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    const seeded = await apiFailure(root.issueActions.userAgentDetail(W, 1))
    expect(seeded).toMatchObject({ status: 404, body: { message: '404 UserAgentDetail Not Found' } })
  })
})
