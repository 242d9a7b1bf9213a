import { collect } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'

const W = 'acme/widgets'
const { as } = clientsOnSeed(detailSeed)

describe('environments and deployments through the client (answers validated against the schemas)', () => {
  it('creates, lists, stops and deletes environments, and records and moves an external deployment', async () => {
    const dev = as(T.dev)
    const review = await dev.environments.create(W, {
      name: 'review/app',
      external_url: 'https://r.example.com',
      description: 'The review app',
    })
    expect(review).toMatchObject({
      name: 'review/app',
      tier: 'development',
      state: 'available',
      description: 'The review app',
      auto_stop_setting: 'always',
    })
    const edited = await dev.environments.update(W, review.id, { auto_stop_setting: 'with_action' })
    expect(edited).toMatchObject({ description: 'The review app', auto_stop_setting: 'with_action' })
    const deployment = await dev.deployments.create(W, {
      environment: 'production',
      // A ref name is a commit to `project.commit` (`Deployment#valid_sha`), as GitLab stores what is given.
      sha: 'main',
      ref: 'main',
      tag: false,
      status: 'running',
    })
    expect(deployment).toMatchObject({ iid: 1, status: 'running', deployable: null })
    expect((await dev.deployments.update(W, deployment.id, 'success')).status).toBe('success')
    const listed = await collect(as(T.reporter).environments.list(W, { search: 'prod' }))
    expect(listed.map((e) => e.name)).toEqual(['production'])
    expect((await dev.environments.get(W, listed[0]!.id)).last_deployment?.id).toBe(deployment.id)
    expect((await collect(dev.deployments.list(W, { status: 'success' }))).map((d) => d.id)).toEqual([
      deployment.id,
    ])
    const refused = await apiFailure(dev.environments.remove(W, review.id))
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await dev.environments.stop(W, review.id, { force: true })).state).toBe('stopped')
    await dev.environments.remove(W, review.id)
    // A Maintainer's; `before` must be at least a week old: GitLab's 400, then its message.
    const maintainer = as(T.maintainer)
    const early = await apiFailure(maintainer.environments.stopStale(W, new Date().toISOString()))
    expect([early.status, early.body]).toEqual([400, { message: '400 Bad request - Invalid Date' }])
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString()
    const developer = await apiFailure(dev.environments.stopStale(W, monthAgo))
    expect([developer.status, developer.body]).toEqual([403, { message: '403 Forbidden' }])
    const stale = await maintainer.environments.stopStale(W, monthAgo)
    expect(stale.message).toBe('Successfully scheduled stale environments to stop')
    const hidden = await apiFailure(as(T.guest).environments.get(W, listed[0]!.id))
    expect(hidden.status).toBe(403)
  })

  it("schedules stopped review apps for deletion: a dry run first, then for real, then GitLab's 400 for none", async () => {
    const dev = as(T.dev)
    const app = await dev.environments.create(W, { name: 'review/cleanup' })
    await dev.environments.stop(W, app.id)
    const before = new Date(Date.now() + 60_000).toISOString()
    const dry = await dev.environments.deleteStoppedReviewApps(W, { before })
    expect(dry.scheduled_entries.map((e) => e.name)).toContain('review/cleanup')
    expect((await dev.environments.get(W, app.id)).state).toBe('stopped')
    const done = await dev.environments.deleteStoppedReviewApps(W, { before, dry_run: false, limit: 1000 })
    expect(done).toEqual({ scheduled_entries: dry.scheduled_entries, unprocessable_entries: [] })
    // Deleted a week later (the clock's moves); until then it stays, and is not scheduled again.
    expect((await dev.environments.get(W, app.id)).state).toBe('stopped')
    const none = await apiFailure(dev.environments.deleteStoppedReviewApps(W, { before }))
    expect(none.status).toBe(400)
  })
})
