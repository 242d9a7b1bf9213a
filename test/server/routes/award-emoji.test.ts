import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, PUBLIC, T } from './issue-details-seed.js'

let t: TestServer
afterEach(() => t.close())

type Json = Record<string, unknown>

const issueAwards = (iid: number) => `${P}/issues/${iid}/award_emoji`
const award = (path: string, token: string | undefined, name: unknown) =>
  t.http('POST', path, { ...(token ? { token } : {}), json: { name } })
const votes = async (iid: number) => {
  const issue = (await t.http('GET', `${P}/issues/${iid}`, { token: T.root })).body as Json
  return [issue.upvotes, issue.downvotes]
}
const names = async (path: string) =>
  ((await t.http('GET', path, { token: T.root })).body as Json[]).map((a) => a.name)

describe('award emoji on issues and notes', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('awards on an issue: 201 with the record in GitLab key order; upvotes and downvotes follow', async () => {
    const res = await award(issueAwards(2), T.guest, 'thumbsup')
    expect(res.status).toBe(201)
    const body = res.body as Json
    expect(Object.keys(body)).toEqual([
      'id',
      'name',
      'user',
      'created_at',
      'updated_at',
      'awardable_id',
      'awardable_type',
      'url',
    ])
    const issue = (await t.http('GET', `${P}/issues/2`, { token: T.guest })).body as Json
    expect(body).toMatchObject({
      name: 'thumbsup',
      user: { username: 'gus' },
      awardable_id: issue.id,
      awardable_type: 'Issue',
      url: null,
    })
    // `-1` is thumbsdown's alias.
    expect((await award(issueAwards(2), T.reporter, '-1')).body).toMatchObject({ name: 'thumbsdown' })
    expect((await award(issueAwards(2), T.maintainer, 'thumbsup')).status).toBe(201)
    expect(await votes(2)).toEqual([2, 1])

    const list = await t.http('GET', issueAwards(2), { token: T.guest, query: 'per_page=2' })
    expect(list.status).toBe(200)
    expect((list.body as Json[]).map((a) => a.name)).toEqual(['thumbsup', 'thumbsdown'])
    expect(list.headers['x-total']).toBe('3')
    const one = await t.http('GET', `${issueAwards(2)}/${body.id}`, { token: T.guest })
    expect(one.body).toEqual(body)

    const del = await t.http('DELETE', `${issueAwards(2)}/${body.id}`, { token: T.guest })
    expect([del.status, del.text]).toEqual([204, ''])
    expect(await votes(2)).toEqual([1, 1])
  })

  it('awards on a note; the record names the note', async () => {
    const made = await t.http('POST', `${P}/issues/2/notes`, { token: T.reporter, json: { body: 'Nice' } })
    const noteId = (made.body as Json).id as number
    const path = `${P}/issues/2/notes/${noteId}/award_emoji`
    const res = await award(path, T.guest, 'tada')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'tada', awardable_id: noteId, awardable_type: 'Note' })
    expect(await names(path)).toEqual(['tada'])
    // Not the issue's.
    expect(await names(issueAwards(2))).toEqual([])
    expect(await votes(2)).toEqual([0, 0])
    const id = (res.body as Json).id
    expect((await t.http('GET', `${path}/${id}`, { token: T.guest })).status).toBe(200)
    expect((await t.http('DELETE', `${path}/${id}`, { token: T.guest })).status).toBe(204)
    expect(await names(path)).toEqual([])
  })

  it("refusals with GitLab's bodies; nothing stored", async () => {
    const notFound = { message: '404 Award Emoji Not Found' }
    const cases: [string, string | undefined, unknown, number, unknown][] = [
      [
        issueAwards(2),
        T.guest,
        'no_such_emoji',
        404,
        { message: '404 Award Emoji ["Name is not a valid emoji name"] Not Found' },
      ],
      [
        issueAwards(2),
        T.guest,
        '',
        404,
        { message: `404 Award Emoji ["Name can't be blank", "Name is not a valid emoji name"] Not Found` },
      ],
      [issueAwards(2), T.guest, undefined, 400, { error: 'name is missing' }],
      [issueAwards(99), T.guest, 'tada', 404, { message: '404 Not found' }],
      [`${P}/issues/x/award_emoji`, T.guest, 'tada', 400, { error: 'issue_iid is invalid' }],
      [issueAwards(2), T.outsider, 'tada', 404, { message: '404 Project Not Found' }],
      [issueAwards(2), undefined, 'tada', 404, { message: '404 Project Not Found' }],
      [`${PUBLIC}/issues/1/award_emoji`, undefined, 'tada', 404, notFound],
      [`${P}/issues/2/notes/9999/award_emoji`, T.guest, 'tada', 404, { message: '404 Not found' }],
    ]
    for (const [path, token, name, status, body] of cases) {
      const res = await t.http('POST', path, {
        ...(token ? { token } : {}),
        json: name === undefined ? {} : { name },
      })
      expect([path, token, name, res.status, res.body]).toEqual([path, token, name, status, body])
    }
    expect((await award(issueAwards(2), T.guest, 'tada')).status).toBe(201)
    const twice = await award(issueAwards(2), T.guest, 'tada')
    expect([twice.status, twice.body]).toEqual([
      404,
      { message: '404 Award Emoji ["Name has already been taken"] Not Found' },
    ])
    expect(await names(issueAwards(2))).toEqual(['tada'])
  })

  it('a confidential issue: 404 Award Emoji Not Found to those who may not read it', async () => {
    const made = await t.http('POST', `${PUBLIC}/issues`, {
      token: T.maintainer,
      json: { title: 'Hush', confidential: true },
    })
    const path = `${PUBLIC}/issues/${(made.body as Json).iid}/award_emoji`
    for (const token of [T.outsider, undefined]) {
      for (const res of [await award(path, token, 'tada'), await t.http('GET', path, token ? { token } : {})])
        expect([res.status, res.body]).toEqual([404, { message: '404 Award Emoji Not Found' }])
    }
    expect((await award(path, T.maintainer, 'tada')).status).toBe(201)
  })

  it('system notes cannot be awarded; only the giver or an administrator takes an award back', async () => {
    await t.http('POST', `${P}/issues/2/time_estimate`, { token: T.reporter, json: { duration: '1h' } })
    const [sys] = (await t.http('GET', `${P}/issues/2/notes`, { token: T.root })).body as Json[]
    const res = await award(`${P}/issues/2/notes/${sys?.id}/award_emoji`, T.reporter, 'tada')
    expect([res.status, res.body]).toEqual([
      404,
      { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' },
    ])

    const given = (await award(issueAwards(2), T.guest, 'tada')).body as Json
    for (const token of [T.reporter, T.owner]) {
      const del = await t.http('DELETE', `${issueAwards(2)}/${given.id}`, { token })
      expect([del.status, del.body]).toEqual([401, { message: '401 Unauthorized' }])
    }
    const anon = await t.http('DELETE', `${issueAwards(2)}/${given.id}`)
    expect(anon.status).toBe(404) // the private project is hidden first
    const missing = await t.http('DELETE', `${issueAwards(2)}/9999`, { token: T.guest })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    const otherIssue = await t.http('DELETE', `${issueAwards(1)}/${given.id}`, { token: T.guest })
    expect([otherIssue.status, otherIssue.body]).toEqual([404, { message: '404 Not found' }])
    expect(await names(issueAwards(2))).toEqual(['tada'])
    expect((await t.http('DELETE', `${issueAwards(2)}/${given.id}`, { token: T.root })).status).toBe(204)
    expect(await names(issueAwards(2))).toEqual([])
  })

  it('anonymous callers read the awards of a public issue', async () => {
    expect((await award(`${PUBLIC}/issues/1/award_emoji`, T.outsider, 'eyes')).status).toBe(201)
    const res = await t.http('GET', `${PUBLIC}/issues/1/award_emoji`)
    expect([res.status, (res.body as Json[]).map((a) => a.name)]).toEqual([200, ['eyes']])
  })

  it('reset drops API-made awards and their votes', async () => {
    expect((await award(issueAwards(2), T.guest, 'thumbsup')).status).toBe(201)
    expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
    expect(await names(issueAwards(2))).toEqual([])
    expect(await votes(2)).toEqual([0, 0])
  })
})
