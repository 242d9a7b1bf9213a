import { collect } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'

const W = 'acme/widgets'
const { as } = clientsOnSeed(detailSeed)

describe('events through the client (answers validated against the schemas)', () => {
  it("lists a project's, a user's and the caller's events, with their filters", async () => {
    const rita = as(T.reporter)
    await rita.issues.update(W, 2, { state_event: 'close' })
    await rita.notes.create(W, 2, { body: 'Closed it' })
    await as(T.maintainer).repository.files.create(W, 'docs/a.md', {
      branch: 'main',
      content: 'a',
      commit_message: 'Add docs',
    })
    const project = await collect(rita.events.ofProject(W))
    expect(project.map((e) => e.action_name)).toEqual(['pushed to', 'commented on', 'closed'])
    expect(project[0]!.push_data).toMatchObject({ commit_count: 1, ref: 'main', commit_title: 'Add docs' })
    expect(project[1]!.note).toMatchObject({ body: 'Closed it', noteable_iid: 2 })
    const mine = await collect(rita.events.mine({ target_type: 'issue' }))
    expect(mine.map((e) => [e.action_name, e.target_title])).toEqual([['closed', 'Second']])
    expect((await collect(as(T.root).events.ofUser('mark', { action: 'pushed' }))).length).toBe(1)
    // acme/widgets is private: an outsider sees none of it.
    expect(await collect(as(T.outsider).events.ofUser('rita'))).toEqual([])
    const hidden = await apiFailure(collect(as(T.outsider).events.ofProject(W)))
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})
