import { manualClock } from '../../support/pipeline-seed.js'
import { MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'
import { serverEach } from '../../support/server.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
const t = serverEach(repositorySeed, () => ({ clock: manualClock() }))

const ok = async (method: string, path: string, json?: Json) => {
  const res = await t.http(method, `${P}${path}`, { token: MARK, ...(json ? { json } : {}) })
  expect(res.status).toBeLessThan(300)
  return res.body as Json
}
const refsOf = (sha: string, query = '', token = RITA) =>
  t.http('GET', `${P}/repository/commits/${sha}/refs`, { token, query })

describe('GET /projects/:id/repository/commits/:sha/refs', () => {
  it('lists the branches, then the tags, whose history holds the commit, by name; type and pages', async () => {
    const base = (await ok('GET', '/repository/commits/develop')).id as string
    const head = (
      await ok('POST', '/repository/commits', {
        branch: 'develop',
        commit_message: 'On develop',
        actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }],
      })
    ).id as string
    await ok('POST', '/repository/branches', { branch: 'b-topic', ref: 'develop' })
    await ok('POST', '/repository/tags', { tag_name: 'v1.0', ref: 'develop', message: 'Release' })
    await ok('POST', '/repository/tags', { tag_name: 'v0.9', ref: 'main' })

    const onHead = await refsOf(head)
    expect(onHead.status).toBe(200)
    expect(onHead.body).toEqual([
      { type: 'branch', name: 'b-topic' },
      { type: 'branch', name: 'develop' },
      { type: 'tag', name: 'v1.0' },
    ])
    // The older commit is in the history of the refs made from develop, not in main's (another root).
    const holding = [
      { type: 'branch', name: 'b-topic' },
      { type: 'branch', name: 'develop' },
      { type: 'tag', name: 'v1.0' },
    ]
    expect((await refsOf(base, 'type=all')).body).toEqual(holding)
    expect((await refsOf(base, 'type=branch')).body).toEqual(holding.slice(0, 2))
    expect((await refsOf(base, 'type=tag')).body).toEqual(holding.slice(2))
    // A ref name is read as its commit.
    expect((await refsOf('main')).body).toEqual([
      { type: 'branch', name: 'main' },
      { type: 'tag', name: 'v0.9' },
    ])
    const page = await refsOf(base, 'per_page=2&page=2')
    expect(page.body).toEqual(holding.slice(2))
    expect(page.headers).toMatchObject({
      'x-total': '3',
      'x-total-pages': '2',
      'x-page': '2',
      'x-prev-page': '1',
    })
  })

  it('404 for an unknown commit or a hidden project, 400 for a bad type', async () => {
    const unknown = await refsOf('0123456789abcdef0123456789abcdef01234567')
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Commit Not Found' }])
    const hidden = await refsOf('main', '', OTTO)
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
    const bad = await refsOf('main', 'type=remote')
    expect([bad.status, bad.body]).toEqual([400, { error: 'type does not have a valid value' }])
  })
})
