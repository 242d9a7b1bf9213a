import { createClient, GitLabApiError } from '../../src/api/client.js'
import { startServer, type TestServer } from '../support/server.js'
import { versionsSeed, vt } from '../support/versions-seed.js'

/** `client.runners` over the runner management API, against the real server. */
let t: TestServer
beforeAll(async () => {
  t = await startServer(versionsSeed)
})
afterAll(() => t.close())

it('creates, lists, edits, enables, resets, verifies and deletes runners', async () => {
  const admin = createClient({ baseUrl: t.baseUrl, token: vt.root, validate: true })
  const maintainer = createClient({ baseUrl: t.baseUrl, token: vt.maintainer, validate: true })
  try {
    const project = t.server.store.projects.byPath('acme/widgets')!.id
    const shared = await admin.runners.create({ runner_type: 'instance_type', description: 'shared' })
    const own = await maintainer.runners.create({
      runner_type: 'project_type',
      project_id: project,
      tag_list: ['docker'],
    })
    expect(own.token).toMatch(/^glrt-/)
    const mine: number[] = []
    for await (const r of maintainer.runners.list()) mine.push(r.id)
    expect(mine).toEqual([own.id])
    const all: number[] = []
    for await (const r of admin.runners.listAll({ type: 'instance_type' }, { perPage: 1 })) all.push(r.id)
    expect(all).toEqual([shared.id])
    const inProject: number[] = []
    for await (const r of maintainer.runners.listForProject('acme/widgets')) inProject.push(r.id)
    expect(inProject).toEqual([shared.id, own.id])
    const edited = await maintainer.runners.update(own.id, { paused: true, tag_list: ['gpu'] })
    expect(edited).toMatchObject({
      paused: true,
      tag_list: ['gpu'],
      status: 'never_contacted',
      contacted_at: null,
    })
    expect(await maintainer.runners.get(own.id)).toMatchObject({ projects: [{ id: project }] })
    const refused = await maintainer.runners
      .enableInProject('acme/widgets', shared.id)
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(GitLabApiError)
    expect(refused).toMatchObject({ status: 403 })
    const { token } = await maintainer.runners.resetAuthenticationToken(own.id)
    expect(await maintainer.runners.verify(token)).toEqual({ id: own.id, token, token_expires_at: null })
    await expect(maintainer.runners.verify(own.token)).rejects.toMatchObject({ status: 403 })
    await maintainer.runners.remove(own.id)
    await expect(maintainer.runners.get(own.id)).rejects.toMatchObject({ status: 404 })
  } finally {
    await admin.close()
    await maintainer.close()
  }
})
