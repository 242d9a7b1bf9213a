import { collect } from '../../src/api/client.js'
import { apiFailure, clientPool } from '../support/client-pool.js'
import { eventually, hookReceiver } from '../support/hook-receiver.js'
import { pipelineSeed } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

/* `client.projectHooks` and `client.groupHooks` against the reference server, every body checked against src/schema. */

let t: TestServer
let receiver: Awaited<ReturnType<typeof hookReceiver>>
const { as, closeAll } = clientPool(() => t.baseUrl)
beforeEach(async () => {
  t = await startServer(pipelineSeed, { allowLocalRequests: true })
  receiver = await hookReceiver()
})
afterEach(async () => {
  await closeAll()
  await t.close()
  await receiver.close()
})

it("adds, reads, edits, tests and removes a project's hook, and reads its deliveries", async () => {
  const mark = as('glpat-mark-token')
  const made = await mark.projectHooks.add('acme/app', { url: receiver.url, token: 'x', issues_events: true })
  expect(made).toMatchObject({ url: receiver.url, issues_events: true, alert_status: 'executable' })
  expect(await mark.projectHooks.get('acme/app', made.id)).toEqual(made)
  expect(await mark.projectHooks.edit('acme/app', made.id, { note_events: true })).toMatchObject({
    note_events: true,
  })
  expect((await collect(mark.projectHooks.list('acme/app'))).map((h) => h.id)).toEqual([made.id])
  await mark.issues.create('acme/app', { title: 'Hello' })
  await receiver.next(1)
  expect(await mark.projectHooks.test('acme/app', made.id, 'issues_events')).toEqual({
    message: '201 Created',
  })
  const events = await eventually(
    () => collect(mark.projectHooks.events('acme/app', made.id)),
    (list) => list.length === 2,
  )
  expect(events.map((e) => e.trigger)).toEqual(['issue_hooks', 'issue_hooks'])
  const refused = await apiFailure(mark.projectHooks.add('acme/app', { url: 'ftp://example.com' }))
  expect([refused.status, refused.body]).toEqual([422, { message: 'Invalid url given' }])
  await mark.projectHooks.remove('acme/app', made.id)
  expect((await apiFailure(mark.projectHooks.get('acme/app', made.id))).status).toBe(404)
})

it("manages a group's hooks for its Owner (EE), and a group hook hears the group's projects", async () => {
  const root = as('glpat-root-token')
  const made = await root.groupHooks.add('acme', { url: receiver.url, issues_events: true })
  expect(made).toMatchObject({ group_id: expect.any(Number), issues_events: true })
  expect((await collect(root.groupHooks.list('acme'))).map((h) => h.id)).toEqual([made.id])
  const mark = as('glpat-mark-token')
  expect((await apiFailure(collect(mark.groupHooks.list('acme')))).status).toBe(403)
  await mark.issues.create('acme/app', { title: 'Heard by the group' })
  await receiver.next(1)
  expect(receiver.got[0]!.body).toMatchObject({ object_attributes: { title: 'Heard by the group' } })
  await root.groupHooks.remove('acme', made.id)
})

it('has no group hooks on CE', async () => {
  const ce = await startServer(pipelineSeed, { edition: 'ce' })
  try {
    const res = await ce.http('GET', '/api/v4/groups/acme/hooks', { token: 'glpat-root-token' })
    expect([res.status, res.body]).toEqual([404, { error: '404 Not Found' }])
  } finally {
    await ce.close()
  }
})
