import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, OTHER, P, PUBLIC, T } from './issue-details-seed.js'

let t: TestServer
afterEach(() => t.close())

type Json = Record<string, unknown>

const link = (from: string, iid: number, token: string, json: Json) =>
  t.http('POST', `${from}/issues/${iid}/links`, { token, json })
const notesOf = async (project: string, iid: number) =>
  (
    (await t.http('GET', `${project}/issues/${iid}/notes`, { token: T.root, query: 'sort=asc' }))
      .body as Json[]
  )
    .filter((n) => n.system)
    .map((n) => n.body)
const linkCount = async (project: string, iid: number) =>
  ((await t.http('GET', `${project}/issues/${iid}/links`, { token: T.root })).body as Json[]).length

describe('issue links (EE)', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it("reads a JSON null link_type as Grape's values validator does (nil passes): relates_to", async () => {
    // go-gitlab's CreateIssueLinkOptions sends `"link_type": null` when unset.
    const res = await link(P, 1, T.guest, {
      target_project_id: 'acme/widgets',
      target_issue_iid: 2,
      link_type: null,
    })
    expect([res.status, (res.body as Json).link_type]).toEqual([201, 'relates_to'])
    expect(await linkCount(P, 1)).toBe(1)
  })

  it('links two issues: 201 with both issues, both noted, listed from either side', async () => {
    const res = await link(P, 1, T.guest, { target_project_id: 'acme/widgets', target_issue_iid: 2 })
    expect(res.status).toBe(201)
    const body = res.body as Json
    expect(Object.keys(body)).toEqual(['source_issue', 'target_issue', 'link_type'])
    expect(body).toMatchObject({
      source_issue: { iid: 1 },
      target_issue: { iid: 2 },
      link_type: 'relates_to',
    })
    // IssueBasic: no _links, references, subscribed.
    expect(body.source_issue).not.toHaveProperty('_links')
    expect(body.source_issue).not.toHaveProperty('references')
    expect(body.source_issue).toHaveProperty('blocking_issues_count', 0)

    expect(await notesOf(P, 1)).toContain('marked this issue as related to #2')
    expect(await notesOf(P, 2)).toContain('marked this issue as related to #1')

    const list = await t.http('GET', `${P}/issues/2/links`, { token: T.reporter })
    expect(list.status).toBe(200)
    const [related] = list.body as Json[]
    expect(related).toMatchObject({ iid: 1, link_type: 'relates_to', issue_link_id: expect.any(Number) })
    expect(related).not.toHaveProperty('subscribed')
    const keys = Object.keys(related as Json)
    // The link's keys after the issue's (the serializer writes the optional EE keys last).
    const at = keys.indexOf('service_desk_reply_to')
    expect(keys.slice(at + 1, at + 5)).toEqual([
      'issue_link_id',
      'link_type',
      'link_created_at',
      'link_updated_at',
    ])
    expect(keys).toContain('_links')

    const id = (related as Json).issue_link_id
    const one = await t.http('GET', `${P}/issues/2/links/${id}`, { token: T.reporter })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 2 } })
  })

  it('links across projects, with references relative to each issue', async () => {
    const res = await link(P, 2, T.maintainer, { target_project_id: 'solo/lab', target_issue_iid: '1' })
    expect(res.status).toBe(201)
    expect(await notesOf(P, 2)).toContain('marked this issue as related to solo/lab#1')
    expect(await notesOf('/api/v4/projects/solo%2Flab', 1)).toContain(
      'marked this issue as related to acme/widgets#2',
    )
  })

  it('blocks and is_blocked_by: stored as blocks, seen from each side, counted on the blocker', async () => {
    const blocks = await link(P, 1, T.reporter, {
      target_project_id: 'acme/widgets',
      target_issue_iid: 2,
      link_type: 'blocks',
    })
    expect(blocks.status).toBe(201)
    expect((blocks.body as Json).link_type).toBe('blocks')
    const blocked = await link(P, 3, T.reporter, {
      target_project_id: 'acme/widgets',
      target_issue_iid: 1,
      link_type: 'is_blocked_by',
    })
    expect(blocked.status).toBe(201)
    // Issue #1 blocks #3: the link is stored from #1.
    expect(blocked.body).toMatchObject({
      source_issue: { iid: 1 },
      target_issue: { iid: 3 },
      link_type: 'blocks',
    })
    expect(await notesOf(P, 1)).toEqual([
      'marked this issue as blocking #2',
      'marked this issue as blocking #3',
    ])
    expect(await notesOf(P, 3)).toEqual(['marked this issue as blocked by #1'])
    const fromThree = (await t.http('GET', `${P}/issues/3/links`, { token: T.reporter })).body as Json[]
    expect(fromThree.map((r) => [r.iid, r.link_type])).toEqual([[1, 'is_blocked_by']])
    const fromOne = (await t.http('GET', `${P}/issues/1/links`, { token: T.reporter })).body as Json[]
    expect(fromOne.map((r) => [r.iid, r.link_type])).toEqual([
      [2, 'blocks'],
      [3, 'blocks'],
    ])
    const count = async () =>
      ((await t.http('GET', `${P}/issues/1`, { token: T.reporter })).body as Json).blocking_issues_count
    expect(await count()).toBe(2)
    // Only open issues count.
    expect(
      (await t.http('PUT', `${P}/issues/2`, { token: T.reporter, json: { state_event: 'close' } })).status,
    ).toBe(200)
    expect(await count()).toBe(1)
    const list = (await t.http('GET', `${P}/issues`, { token: T.reporter, query: 'iids[]=1' })).body as Json[]
    expect(list[0]?.blocking_issues_count).toBe(1)
  })

  it('counts a blocking link made or removed after the issue was read, in reads and lists', async () => {
    const read = async () =>
      ((await t.http('GET', `${P}/issues/1`, { token: T.reporter })).body as Json).blocking_issues_count
    const listed = async () =>
      ((await t.http('GET', `${P}/issues`, { token: T.reporter, query: 'iids[]=1' })).body as Json[])[0]
        ?.blocking_issues_count
    // Read (and kept) while no issue blocks another.
    expect([await read(), await listed()]).toEqual([0, 0])
    const made = await link(P, 1, T.reporter, {
      target_project_id: 'acme/widgets',
      target_issue_iid: 2,
      link_type: 'blocks',
    })
    expect(made.status).toBe(201)
    expect([await read(), await listed()]).toEqual([1, 1])
    const [{ issue_link_id: id }] = (await t.http('GET', `${P}/issues/1/links`, { token: T.reporter }))
      .body as [Json]
    expect((await t.http('DELETE', `${P}/issues/1/links/${id}`, { token: T.reporter })).status).toBe(200)
    expect([await read(), await listed()]).toEqual([0, 0])
  })

  it('refuses what GitLab refuses, and stores nothing', async () => {
    const target = { target_project_id: 'acme/widgets', target_issue_iid: 2 }
    expect((await t.http('POST', `${P}/issues/1/links`, { json: target })).status).toBe(401)
    // An outsider cannot see the private project.
    const hidden = await link(P, 1, T.outsider, target)
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
    const noProject = await link(P, 1, T.reporter, { target_project_id: 'nope/nope', target_issue_iid: 1 })
    expect([noProject.status, noProject.body]).toEqual([404, { message: '404 Project Not Found' }])
    const noIssue = await link(P, 1, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: 99 })
    expect([noIssue.status, noIssue.body]).toEqual([404, { message: '404 Not found' }])
    for (const iid of ['99999999999999999999999', '-1', ' ']) {
      const odd = await link(P, 2, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: iid })
      expect([iid, odd.status, odd.body]).toEqual([iid, 404, { message: '404 Not found' }])
    }
    const huge = await t.http('GET', `${P}/issues/1/links/99999999999999999999999`, { token: T.reporter })
    expect([huge.status, huge.body]).toEqual([404, { message: '404 Not found' }])
    const garbage = await link(P, 1, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: 'x' })
    expect([garbage.status, garbage.body]).toEqual([404, { message: '404 Not found' }])
    // A confidential issue the caller cannot read is not found.
    const secret = await link(PUBLIC, 1, T.outsider, {
      target_project_id: 'acme/widgets',
      target_issue_iid: 4,
    })
    expect(secret.status).toBe(404)
    const missing = await t.http('POST', `${P}/issues/1/links`, { token: T.reporter, json: {} })
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: 'target_project_id is missing, target_issue_iid is missing' },
    ])
    const badType = await link(P, 1, T.reporter, { ...target, link_type: 'duplicates' })
    expect([badType.status, badType.body]).toEqual([400, { error: 'link_type does not have a valid value' }])
    const self = await link(P, 1, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: 1 })
    expect([self.status, self.body]).toEqual([
      422,
      { message: '#1 cannot be added: cannot be related to itself' },
    ])
    // An outsider of a public project may read its issue but not link it.
    const readOnly = await link(P, 1, T.reporter, { target_project_id: 'acme/public', target_issue_iid: 1 })
    expect(readOnly.status).toBe(201)
    const otto = await link(PUBLIC, 1, T.outsider, { target_project_id: 'acme/public', target_issue_iid: 1 })
    expect([otto.status, otto.body]).toEqual([
      403,
      { message: "Couldn't link issues. You must have at least the Guest role in both projects." },
    ])
    expect(await linkCount(P, 1)).toBe(1)
    expect(await notesOf(P, 2)).toEqual([])

    expect((await link(P, 1, T.reporter, target)).status).toBe(201)
    // Taken: linked either way.
    for (const [from, iid, to] of [
      [P, 1, 2],
      [P, 2, 1],
    ] as const) {
      const again = await link(from, iid, T.reporter, {
        target_project_id: 'acme/widgets',
        target_issue_iid: to,
      })
      expect([again.status, again.body]).toEqual([409, { message: 'Issue(s) already assigned' }])
    }
    expect(await linkCount(P, 1)).toBe(2)
    expect(await notesOf(P, 2)).toEqual(['marked this issue as related to #1'])
  })

  it('gets and deletes a link: 404s for others and for links of other issues, notes on removal', async () => {
    const made = await link(P, 1, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: 2 })
    expect(made.status).toBe(201)
    const [{ issue_link_id: id }] = (await t.http('GET', `${P}/issues/1/links`, { token: T.reporter }))
      .body as [Json]
    const notFound = { message: '404 Not found' }
    for (const path of [`${P}/issues/3/links/${id}`, `${P}/issues/1/links/9999`, `${P}/issues/1/links/abc`]) {
      const res = await t.http('GET', path, { token: T.reporter })
      expect([res.status, res.body]).toEqual([404, notFound])
      const del = await t.http('DELETE', path, { token: T.reporter })
      expect([del.status, del.body]).toEqual([404, notFound])
    }
    expect((await t.http('GET', `${P}/issues/1/links/${id}`, { token: T.outsider })).status).toBe(404)
    expect((await t.http('DELETE', `${P}/issues/1/links/${id}`)).status).toBe(401)
    expect((await t.http('DELETE', `${P}/issues/1/links/${id}`, { token: T.outsider })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect(await linkCount(P, 1)).toBe(1)

    const del = await t.http('DELETE', `${P}/issues/2/links/${id}`, { token: T.guest })
    expect(del.status).toBe(200)
    expect(del.body).toMatchObject({
      source_issue: { iid: 1 },
      target_issue: { iid: 2 },
      link_type: 'relates_to',
    })
    expect(await linkCount(P, 1)).toBe(0)
    expect((await notesOf(P, 1)).at(-1)).toBe('removed the relation with #2')
    expect((await notesOf(P, 2)).at(-1)).toBe('removed the relation with #1')
    expect((await t.http('DELETE', `${P}/issues/2/links/${id}`, { token: T.guest })).status).toBe(404)
  })

  it('a link to an issue the caller cannot link is not removable by it', async () => {
    // mark (maintainer of solo) links acme/widgets#2 to solo/lab#1; rita cannot see solo/lab.
    expect(
      (await link(P, 2, T.maintainer, { target_project_id: 'solo/lab', target_issue_iid: 1 })).status,
    ).toBe(201)
    const [{ issue_link_id: id }] = (await t.http('GET', `${P}/issues/2/links`, { token: T.maintainer }))
      .body as [Json]
    expect(await t.http('GET', `${P}/issues/2/links`, { token: T.reporter }).then((r) => r.body)).toEqual([])
    const del = await t.http('DELETE', `${P}/issues/2/links/${id}`, { token: T.reporter })
    expect([del.status, del.body]).toEqual([404, { message: '404 Project Not Found' }])
    expect(await linkCount(P, 2)).toBe(1)
  })

  it('/duplicate links the two issues once', async () => {
    const dup = await t.http('POST', `${P}/issues/2/notes`, {
      token: T.reporter,
      json: { body: '/duplicate #1' },
    })
    expect(dup.status).toBe(202)
    const links = (await t.http('GET', `${P}/issues/2/links`, { token: T.reporter })).body as Json[]
    expect(links.map((l) => [l.iid, l.link_type])).toEqual([[1, 'relates_to']])
  })

  it('a moved issue takes its links along (Issues::MoveService#rewrite_related_issues)', async () => {
    expect(
      (await link(P, 1, T.maintainer, { target_project_id: 'acme/widgets', target_issue_iid: 2 })).status,
    ).toBe(201)
    const other = (await t.http('GET', OTHER, { token: T.maintainer })).body as Json
    const moved = await t.http('POST', `${P}/issues/2/move`, {
      token: T.maintainer,
      json: { to_project_id: other.id },
    })
    expect(moved.status).toBe(201)
    const newIid = (moved.body as Json).iid
    const fromOne = (await t.http('GET', `${P}/issues/1/links`, { token: T.maintainer })).body as Json[]
    expect(fromOne.map((r) => r.references)).toEqual([
      expect.objectContaining({ full: `acme/other#${newIid}` }),
    ])
    expect(await linkCount(P, 2)).toBe(0)
  })

  it('reset drops API-made links', async () => {
    expect(
      (await link(P, 1, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: 2 })).status,
    ).toBe(201)
    expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
    expect(await linkCount(P, 1)).toBe(0)
    expect(await notesOf(P, 2)).toEqual([])
  })
})

describe('issue links (CE)', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed, { edition: 'ce' })
  })

  it('relates_to only, and no blocking_issues_count', async () => {
    const target = { target_project_id: 'acme/widgets', target_issue_iid: 2 }
    for (const type of ['blocks', 'is_blocked_by']) {
      const res = await link(P, 1, T.reporter, { ...target, link_type: type })
      expect([res.status, res.body]).toEqual([400, { error: 'link_type does not have a valid value' }])
    }
    expect(await linkCount(P, 1)).toBe(0)
    const res = await link(P, 1, T.reporter, { ...target, link_type: 'relates_to' })
    expect(res.status).toBe(201)
    expect((res.body as Json).source_issue).not.toHaveProperty('blocking_issues_count')
  })
})

describe('issue links before GitLab 15.1', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed, { gitlabVersion: '15.0.0' })
  })

  it('has no GET of one link (no such route), the rest as later', async () => {
    const made = await link(P, 1, T.reporter, { target_project_id: 'acme/widgets', target_issue_iid: 2 })
    expect(made.status).toBe(201)
    const [{ issue_link_id: id }] = (await t.http('GET', `${P}/issues/1/links`, { token: T.reporter }))
      .body as [Json]
    const one = await t.http('GET', `${P}/issues/1/links/${id}`, { token: T.reporter })
    expect([one.status, one.body]).toEqual([404, { error: '404 Not Found' }])
    expect((await t.http('DELETE', `${P}/issues/1/links/${id}`, { token: T.reporter })).status).toBe(200)
  })
})
