import { buildServer, type GitLabServer } from '../../../src/server/start/build-server.js'
import { parseSeed } from '../../../src/server/seed/parse.js'
import { manualClock } from '../../support/pipeline-seed.js'

/*
 * Award emoji, subscriptions, to-dos and links (inside one project or across two) are told to the caches
 * as writes to those projects' issues (src/server/store/changes.ts `issueWrite`), and label subscriptions
 * as writes no cached answer shows (`uncachedWrite`): the records and lists they change are made again,
 * for the writer and for everyone else, while another project's cached list is still answered from the
 * cache. Each test counts the requests Fastify's hooks saw: a cached list's repeat is
 * answered before routing (src/server/http/early-hits.ts), a list made again is routed.
 */
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
  - { username: bob, name: Bob, token: glpat-bob-token }
groups:
  - path: acme
    name: ACME
    members: { alice: developer, bob: developer }
    labels: [{ name: triage }]
projects:
  - path: acme/app
    visibility: private
    labels: [{ name: bug }]
    issues:
      - { title: First, author: root }
      - { title: Second, author: root }
      - { title: Third, author: root }
  - path: acme/other
    visibility: private
    issues:
      - { title: Elsewhere, author: root }
  - path: acme/third
    visibility: private
    issues:
      - { title: Far away, author: root }
`
const ALICE = 'glpat-alice-token'
const BOB = 'glpat-bob-token'
const APP = '/api/v4/projects/acme%2Fapp'
const OTHER = '/api/v4/projects/acme%2Fother'
const OTHER_LIST = `${OTHER}/issues`
const THIRD_LIST = '/api/v4/projects/acme%2Fthird/issues'
const POPULAR = `${APP}/issues?order_by=popularity`
type Json = Record<string, unknown>

let server: GitLabServer
let base: string
/** Requests Fastify's `onRequest` hooks ran for: an early hit (a cached answer) adds none. */
let routed = 0

beforeEach(async () => {
  server = await buildServer({ clock: manualClock(), seed: parseSeed(seed, 'scoped-issue-writes.yaml') })
  routed = 0
  server.app.addHook('onRequest', (_req, _reply, done) => {
    routed++
    done()
  })
  base = await server.listen({ host: '127.0.0.1', port: 0 })
  // A token's first use is written (`last_used_at`), a change that drops every cached answer.
  for (const token of ['glpat-root-token', ALICE, BOB])
    expect((await fetch(`${base}/api/v4/version`, { headers: { 'private-token': token } })).status).toBe(200)
})
afterEach(() => server.close())

/** A GET's status and JSON, and whether it was routed (made) or answered from the cache. */
async function get(token: string, path: string) {
  const before = routed
  const res = await fetch(`${base}${path}`, { headers: { 'private-token': token } })
  return { status: res.status, body: (await res.json()) as unknown, cached: routed === before }
}
async function call(method: string, path: string, token: string, json?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'private-token': token,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null }
}
/** Asks `path` twice as `token`: the second answer comes from the cache. */
async function warm(token: string, path: string) {
  await get(token, path)
  expect((await get(token, path)).cached).toBe(true)
}
/** Reads an issue: its record is kept (services/issues/fragments.ts), single reads are not routes the cache answers. */
const read = async (token: string, iid: number, project = APP) =>
  (await get(token, `${project}/issues/${iid}`)).body as Json
/** Another project's list, cached before the write, is still answered from the cache after it. */
async function otherStillCached() {
  const other = await get(BOB, OTHER_LIST)
  expect([other.cached, (other.body as Json[]).map((i) => i.title)]).toEqual([true, ['Elsewhere']])
}
/** A third project's list, cached before a write to the other two, is still answered from the cache. */
async function thirdStillCached() {
  const third = await get(BOB, THIRD_LIST)
  expect([third.cached, (third.body as Json[]).map((i) => i.title)]).toEqual([true, ['Far away']])
}
const shown = (body: unknown, ...fields: string[]) =>
  (body as Json[]).map((i) => [i.title, ...fields.map((f) => i[f])])

describe('an award on an issue', () => {
  it('moves its votes and its place in popularity and my_reaction_emoji lists, for everyone; other projects stay cached', async () => {
    await warm(BOB, OTHER_LIST)
    for (const token of [ALICE, BOB]) await warm(token, POPULAR)
    await warm(ALICE, `${APP}/issues?my_reaction_emoji=thumbsup`)
    await read(BOB, 1)
    const before = await get(ALICE, POPULAR)
    expect(shown(before.body, 'upvotes')).toEqual([
      ['Third', 0],
      ['Second', 0],
      ['First', 0],
    ])

    const award = await call('POST', `${APP}/issues/1/award_emoji`, ALICE, { name: 'thumbsup' })
    expect(award.status).toBe(201)
    for (const token of [ALICE, BOB]) {
      const popular = await get(token, POPULAR)
      expect([popular.cached, shown(popular.body, 'upvotes')]).toEqual([
        false,
        [
          ['First', 1],
          ['Third', 0],
          ['Second', 0],
        ],
      ])
    }
    const mine = await get(ALICE, `${APP}/issues?my_reaction_emoji=thumbsup`)
    expect(shown(mine.body, 'upvotes')).toEqual([['First', 1]])
    expect(await read(BOB, 1)).toMatchObject({ upvotes: 1, downvotes: 0 })
    await otherStillCached()

    // Taking it back puts everything back, and still leaves the other project's list alone.
    const id = (award.body as Json).id as number
    expect((await call('DELETE', `${APP}/issues/1/award_emoji/${id}`, ALICE)).status).toBe(204)
    expect(shown((await get(BOB, POPULAR)).body, 'upvotes')).toEqual([
      ['Third', 0],
      ['Second', 0],
      ['First', 0],
    ])
    expect((await get(ALICE, `${APP}/issues?my_reaction_emoji=thumbsup`)).body).toEqual([])
    expect(await read(BOB, 1)).toMatchObject({ upvotes: 0 })
    await otherStillCached()
  })
})

describe('an award on a note', () => {
  it("changes no issue record: the project's lists and other projects' stay cached", async () => {
    const note = await call('POST', `${APP}/issues/1/notes`, BOB, { body: 'Looks good' })
    expect(note.status).toBe(201)
    await warm(BOB, OTHER_LIST)
    await warm(BOB, POPULAR)
    const award = await call(
      'POST',
      `${APP}/issues/1/notes/${(note.body as Json).id as number}/award_emoji`,
      ALICE,
      {
        name: 'thumbsup',
      },
    )
    expect(award.status).toBe(201)
    const popular = await get(BOB, POPULAR)
    expect([popular.cached, shown(popular.body, 'upvotes')[2]]).toEqual([true, ['First', 0]])
    await otherStillCached()
  })
})

describe('a subscription', () => {
  it("shows in the subscriber's record only; other projects stay cached", async () => {
    await warm(BOB, OTHER_LIST)
    expect(await read(ALICE, 1)).toMatchObject({ subscribed: false })
    expect(await read(BOB, 1)).toMatchObject({ subscribed: false })

    const subscribe = await call('POST', `${APP}/issues/1/subscribe`, ALICE)
    expect([subscribe.status, (subscribe.body as Json).subscribed]).toEqual([201, true])
    expect(await read(ALICE, 1)).toMatchObject({ title: 'First', subscribed: true })
    expect(await read(BOB, 1)).toMatchObject({ title: 'First', subscribed: false })
    await otherStillCached()

    expect((await call('POST', `${APP}/issues/1/unsubscribe`, ALICE)).status).toBe(201)
    expect(await read(ALICE, 1)).toMatchObject({ subscribed: false })
    await otherStillCached()
  })
})

describe('a to-do', () => {
  it("changes no issue record or list: the project's lists and other projects' stay cached", async () => {
    await warm(BOB, OTHER_LIST)
    await warm(ALICE, `${APP}/issues`)
    const todo = await call('POST', `${APP}/issues/1/todo`, ALICE)
    expect([todo.status, (todo.body as Json).action_name]).toEqual([201, 'marked'])
    expect((await get(ALICE, `${APP}/issues`)).cached).toBe(true)
    await otherStillCached()
  })
})

describe('a link between two issues of a project', () => {
  it('moves the blocker’s blocking_issues_count in its record and lists, for everyone; other projects stay cached', async () => {
    await warm(BOB, OTHER_LIST)
    await warm(ALICE, `${APP}/issues`)
    await read(BOB, 1)

    const link = await call('POST', `${APP}/issues/1/links`, ALICE, {
      target_project_id: 'acme/app',
      target_issue_iid: '2',
      link_type: 'blocks',
    })
    expect(link.status).toBe(201)
    expect(await read(BOB, 1)).toMatchObject({ blocking_issues_count: 1 })
    expect(shown((await get(ALICE, `${APP}/issues`)).body, 'blocking_issues_count')).toEqual([
      ['Third', 0],
      ['Second', 0],
      ['First', 1],
    ])
    await otherStillCached()

    const linkId = await linkIdOf(ALICE, 1)
    expect((await call('DELETE', `${APP}/issues/1/links/${linkId}`, ALICE)).status).toBe(200)
    expect(await read(BOB, 1)).toMatchObject({ blocking_issues_count: 0 })
    expect(shown((await get(ALICE, `${APP}/issues`)).body, 'blocking_issues_count')[2]).toEqual(['First', 0])
    await otherStillCached()
  })
})

describe('closing an issue that another one blocks', () => {
  it("moves the blocker's blocking_issues_count in a cached list that shows the blocker alone", async () => {
    const link = await call('POST', `${APP}/issues/1/links`, ALICE, {
      target_project_id: 'acme/app',
      target_issue_iid: '2',
      link_type: 'blocks',
    })
    expect(link.status).toBe(201)
    const blocker = `${APP}/issues?iids[]=1`
    await warm(BOB, OTHER_LIST)
    await warm(ALICE, blocker)
    expect(shown((await get(ALICE, blocker)).body, 'blocking_issues_count')).toEqual([['First', 1]])

    const close = await call('PUT', `${APP}/issues/2`, BOB, { state_event: 'close' })
    expect([close.status, (close.body as Json).state]).toEqual([200, 'closed'])
    const after = await get(ALICE, blocker)
    expect([after.cached, shown(after.body, 'blocking_issues_count')]).toEqual([false, [['First', 0]]])
    expect(await read(BOB, 1)).toMatchObject({ blocking_issues_count: 0 })
    await otherStillCached()
  })
})

describe('a link between issues of two projects', () => {
  it("moves the blocker's blocking_issues_count in its record and in both projects' and the group's lists, for everyone; a third project stays cached", async () => {
    const GROUP_LIST = '/api/v4/groups/acme/issues'
    await warm(BOB, THIRD_LIST)
    await warm(ALICE, `${APP}/issues`)
    await warm(BOB, OTHER_LIST)
    await warm(BOB, GROUP_LIST)
    await read(BOB, 1)
    await read(BOB, 1, OTHER)

    // acme/app#1 blocks acme/other#1.
    const blocks = await call('POST', `${APP}/issues/1/links`, ALICE, {
      target_project_id: 'acme/other',
      target_issue_iid: '1',
      link_type: 'blocks',
    })
    expect(blocks.status).toBe(201)
    expect(await read(BOB, 1)).toMatchObject({ title: 'First', blocking_issues_count: 1 })
    expect(shown((await get(ALICE, `${APP}/issues`)).body, 'blocking_issues_count')[2]).toEqual(['First', 1])
    expect(shown((await get(BOB, GROUP_LIST)).body, 'blocking_issues_count')).toContainEqual(['First', 1])
    await thirdStillCached()

    // acme/app#2 is blocked by acme/other#1: the blocker is the other project's.
    const blockedBy = await call('POST', `${APP}/issues/2/links`, ALICE, {
      target_project_id: 'acme/other',
      target_issue_iid: '1',
      link_type: 'is_blocked_by',
    })
    expect(blockedBy.status).toBe(201)
    expect(await read(BOB, 1, OTHER)).toMatchObject({ title: 'Elsewhere', blocking_issues_count: 1 })
    expect(shown((await get(BOB, OTHER_LIST)).body, 'blocking_issues_count')).toEqual([['Elsewhere', 1]])
    expect(shown((await get(BOB, GROUP_LIST)).body, 'blocking_issues_count')).toContainEqual(['Elsewhere', 1])
    await thirdStillCached()

    // Removing each link, from either side, puts its blocker's count back.
    expect((await call('DELETE', `${APP}/issues/1/links/${await linkIdOf(ALICE, 1)}`, ALICE)).status).toBe(
      200,
    )
    expect(await read(BOB, 1)).toMatchObject({ blocking_issues_count: 0 })
    expect(shown((await get(ALICE, `${APP}/issues`)).body, 'blocking_issues_count')[2]).toEqual(['First', 0])
    await thirdStillCached()
    const otherLink = await linkIdOf(BOB, 1, OTHER)
    expect((await call('DELETE', `${OTHER}/issues/1/links/${otherLink}`, BOB)).status).toBe(200)
    expect(await read(BOB, 1, OTHER)).toMatchObject({ blocking_issues_count: 0 })
    expect(shown((await get(BOB, OTHER_LIST)).body, 'blocking_issues_count')).toEqual([['Elsewhere', 0]])
    const blocking = shown((await get(BOB, GROUP_LIST)).body, 'blocking_issues_count')
    expect(blocking.filter(([, n]) => n !== 0)).toEqual([])
    await thirdStillCached()
  })
})

describe('closing an issue that an issue of another project blocks', () => {
  it("moves the blocker's blocking_issues_count in its project's cached list; a third project stays cached", async () => {
    const link = await call('POST', `${OTHER}/issues/1/links`, ALICE, {
      target_project_id: 'acme/app',
      target_issue_iid: '2',
      link_type: 'blocks',
    })
    expect(link.status).toBe(201)
    await warm(BOB, THIRD_LIST)
    await warm(BOB, OTHER_LIST)
    expect(shown((await get(BOB, OTHER_LIST)).body, 'blocking_issues_count')).toEqual([['Elsewhere', 1]])

    const close = await call('PUT', `${APP}/issues/2`, BOB, { state_event: 'close' })
    expect([close.status, (close.body as Json).state]).toEqual([200, 'closed'])
    const after = await get(BOB, OTHER_LIST)
    expect([after.cached, shown(after.body, 'blocking_issues_count')]).toEqual([false, [['Elsewhere', 0]]])
    expect(await read(BOB, 1, OTHER)).toMatchObject({ blocking_issues_count: 0 })
    await thirdStillCached()
  })
})

describe('a label subscription', () => {
  /** The caller's labels of a project or group: each name with its `subscribed`. */
  const labels = async (token: string, path: string) =>
    ((await get(token, `${path}/labels`)).body as Json[]).map((l) => [l.name, l.subscribed])
  const GROUP = '/api/v4/groups/acme'

  it("shows in the subscriber's label lists of the project, and of the group and every project below it for a group label; every cached issue list stays cached", async () => {
    await warm(BOB, OTHER_LIST)
    await warm(ALICE, `${APP}/issues`)
    expect(await labels(ALICE, APP)).toEqual([
      ['bug', false],
      ['triage', false],
    ])

    const bug = await call('POST', `${APP}/labels/bug/subscribe`, ALICE)
    expect([bug.status, (bug.body as Json).subscribed]).toEqual([201, true])
    expect(await labels(ALICE, APP)).toEqual([
      ['bug', true],
      ['triage', false],
    ])
    expect(await labels(BOB, APP)).toEqual([
      ['bug', false],
      ['triage', false],
    ])
    expect((await get(ALICE, `${APP}/issues`)).cached).toBe(true)
    await otherStillCached()

    // A group label, subscribed to through a project: the group's list and the other project's show it.
    const triage = await call('POST', `${APP}/labels/triage/subscribe`, ALICE)
    expect([triage.status, (triage.body as Json).subscribed]).toEqual([201, true])
    expect(await labels(ALICE, GROUP)).toEqual([['triage', true]])
    expect(await labels(ALICE, OTHER)).toEqual([['triage', true]])
    expect(await labels(BOB, GROUP)).toEqual([['triage', false]])
    expect((await get(ALICE, `${APP}/issues`)).cached).toBe(true)
    await otherStillCached()

    // And unsubscribed through the group.
    const off = await call('POST', `${GROUP}/labels/triage/unsubscribe`, ALICE)
    expect([off.status, (off.body as Json).subscribed]).toEqual([201, false])
    expect(await labels(ALICE, APP)).toEqual([
      ['bug', true],
      ['triage', false],
    ])
    expect(await labels(ALICE, GROUP)).toEqual([['triage', false]])
    expect((await get(ALICE, `${APP}/issues`)).cached).toBe(true)
    await otherStillCached()
  })
})

/** The id of the issue's one link (`issue_link_id` of `GET .../links`). */
async function linkIdOf(token: string, iid: number, project = APP): Promise<number> {
  const links = (await get(token, `${project}/issues/${iid}/links`)).body as Json[]
  return links[0]!.issue_link_id as number
}
