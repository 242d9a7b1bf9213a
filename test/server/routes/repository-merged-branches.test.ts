import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { hookReceiver } from '../../support/hook-receiver.js'
import { DANA, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fapp'
const ZERO = '0'.repeat(40)
type Json = Record<string, unknown>

/** The repository seed with open and closed merge requests on acme/app, naming branches the tests make. */
const seed = repositorySeed.replace(
  '  - path: acme/app\n    branches: [develop]\n',
  `  - path: acme/app
    branches: [develop]
    merge_requests:
      - { title: Open, source_branch: mr-source, target_branch: main }
      - { title: Open into another, source_branch: develop, target_branch: mr-target }
      - { title: Closed, source_branch: closed-mr, state: closed }
`,
)

let t: TestServer
let clock: ReturnType<typeof manualClock>
let receiver: Awaited<ReturnType<typeof hookReceiver>>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(seed, { clock, allowLocalRequests: true })
  receiver = await hookReceiver()
})
afterEach(async () => {
  await t.close()
  await receiver.close()
})

const branches = async () =>
  ((await t.http('GET', `${P}/repository/branches?per_page=100`, { token: MARK })).body as Json[]).map(
    (b) => b.name,
  )
const post = async (url: string, json: Json, status = 201) => {
  const res = await t.http('POST', `${P}${url}`, { token: MARK, json })
  expect(res.status).toBe(status)
  return res.body as Json
}

describe('DELETE /projects/:id/repository/merged_branches', () => {
  it('deletes the merged branches but the default, protected and open merge requests ones, before its 202', async () => {
    for (const branch of ['merged', 'release/1', 'mr-source', 'mr-target', 'closed-mr'])
      await post('/repository/branches', { branch, ref: 'main' })
    await post('/protected_branches', { name: 'release/*' })
    await post('/repository/branches', { branch: 'ahead', ref: 'main' })
    clock.advance(1000)
    await post('/repository/commits', {
      branch: 'ahead',
      commit_message: 'ahead',
      actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }],
    })
    const main = ((await t.http('GET', `${P}/repository/branches/main`, { token: MARK })).body as Json)
      .commit as Json
    await post('/hooks', { url: receiver.url, push_events: true })

    const res = await t.http('DELETE', `${P}/repository/merged_branches`, { token: DANA })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ message: '202 Accepted' })
    expect((await branches()).sort()).toEqual([
      'ahead',
      'develop',
      'main',
      'mr-source',
      'mr-target',
      'release/1',
    ])
    await t.http('POST', '/-/emulator/settle', { token: ROOT, json: {} })
    const pushes = receiver.got.map((r) => r.body as Json)
    expect(pushes.map((p) => [p.ref, p.before, p.after]).sort()).toEqual([
      ['refs/heads/closed-mr', main.id, ZERO],
      ['refs/heads/merged', main.id, ZERO],
    ])
    expect(receiver.got.every((r) => r.headers['x-gitlab-event'] === 'Push Hook')).toBe(true)
  })

  it('accepts a Reporter as GitLab does (202) but deletes nothing, and hides a private project (404)', async () => {
    await post('/repository/branches', { branch: 'merged', ref: 'main' })
    expect(await t.http('DELETE', `${P}/repository/merged_branches`, { token: RITA })).toMatchObject({
      status: 202,
      body: { message: '202 Accepted' },
    })
    expect((await t.http('DELETE', `${P}/repository/merged_branches`, { token: OTTO })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await t.http('DELETE', `${P}/repository/merged_branches`)).status).toBe(401)
    expect(await branches()).toContain('merged')
  })
})
