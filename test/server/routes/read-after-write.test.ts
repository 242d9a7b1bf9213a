import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'

/*
 * Every list answers a write made just before it: each test reads a list (so that the response
 * cache and the kept counts hold it), writes through the API, and reads the same URL again.
 */
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const W = '/api/v4/projects/acme%2Fwidgets'
const API = '/api/v4/projects/acme%2Fplatform%2Fapi'
type Json = Record<string, unknown>

let t: TestServer
beforeEach(async () => {
  t = await startServer(widgetsSeed)
})
afterEach(() => t.close())

/**
 * A server of its own whose clock stands at 23:00 on the day milestone v1 of root/app is due; the
 * project's one issue has that milestone. `clock.at` moves the clock.
 */
async function onMilestoneDay() {
  const clock = { at: Date.parse('2026-03-01T23:00:00Z'), now: () => new Date(clock.at) }
  const s = await startServer(
    `
users:
  - { username: root, admin: true, token: ${ROOT} }
projects:
  - path: root/app
    milestones: [{ title: v1, due_date: '2026-03-01' }]
    issues: [{ title: Ship it, milestone: v1 }]
`,
    { clock },
  )
  return { s, clock }
}
const read = async (path: string, query: string, token = ROOT) => {
  const res = await t.http('GET', path, { token, query })
  expect(res.status).toBe(200)
  const items = res.body as Json[]
  return { total: Number(res.headers['x-total']), items, iids: items.map((i) => i.iid), res }
}
const created = async (path: string, json: Json, token = ROOT) => {
  const res = await t.http('POST', `${path}/issues`, { token, json })
  expect(res.status).toBe(201)
  return res.body as Json
}

describe.each([
  ['project issues', `${W}/issues`, W],
  ['group issues, a project of the group', '/api/v4/groups/acme/issues', W],
  ['group issues, a project of a subgroup', '/api/v4/groups/acme/issues', API],
  ['global issues', '/api/v4/issues', W],
])('%s', (_name, list, project) => {
  const q = 'scope=all&labels=bug&state=opened&per_page=2'

  it('shows a created issue and counts it', async () => {
    const before = await read(list, q)
    const issue = await created(project, { title: 'New bug', labels: 'bug' })
    const after = await read(list, q)
    expect(after.total).toBe(before.total + 1)
    expect(after.items[0]).toMatchObject({ id: issue.id, title: 'New bug' })
  })

  it('follows an edit out of and back into the filter, and a closed issue out of it', async () => {
    const issue = await created(project, { title: 'Filtered', labels: 'bug' })
    const before = await read(list, q)
    const edit = (json: Json) =>
      t.http('PUT', `${project}/issues/${issue.iid}`, { token: ROOT, json }).then((r) => r.status)
    expect(await edit({ remove_labels: 'bug' })).toBe(200)
    const out = await read(list, q)
    expect(out.total).toBe(before.total - 1)
    expect(out.items.map((i) => i.id)).not.toContain(issue.id)
    expect(await edit({ add_labels: 'bug', title: 'Back in' })).toBe(200)
    const back = await read(list, q)
    expect(back.total).toBe(before.total)
    expect(back.items[0]).toMatchObject({ id: issue.id, title: 'Back in' })
    expect(await edit({ state_event: 'close' })).toBe(200)
    expect((await read(list, q)).total).toBe(before.total - 1)
  })

  it('shows time spent on an issue in the list', async () => {
    const issue = await created(project, { title: 'Timed', labels: 'bug' })
    expect((await read(list, q)).items[0]).toMatchObject({ time_stats: { total_time_spent: 0 } })
    const spend = await t.http('POST', `${project}/issues/${issue.iid}/add_spent_time`, {
      token: ROOT,
      json: { duration: '1h' },
    })
    expect(spend.status).toBe(201)
    expect((await read(list, q)).items[0]).toMatchObject({ time_stats: { total_time_spent: 3600 } })
  })

  it("shows a comment made and deleted in the issue's note count", async () => {
    const issue = await created(project, { title: 'Commented', labels: 'bug' })
    expect((await read(list, q)).items[0]).toMatchObject({ id: issue.id, user_notes_count: 0 })
    const notes = `${project}/issues/${issue.iid}/notes`
    const note = await t.http('POST', notes, { token: ROOT, json: { body: 'Seen it' } })
    expect(note.status).toBe(201)
    expect((await read(list, q)).items[0]).toMatchObject({ id: issue.id, user_notes_count: 1 })
    const id = (note.body as Json).id as number
    expect((await t.http('DELETE', `${notes}/${id}`, { token: ROOT })).status).toBe(204)
    expect((await read(list, q)).items[0]).toMatchObject({ id: issue.id, user_notes_count: 0 })
  })

  it('follows a quick action in a note and a deleted issue', async () => {
    await created(project, { title: 'Makes sure the label exists', labels: 'bug' })
    const issue = await created(project, { title: 'Labelled by a note' })
    const before = await read(list, q)
    const note = await t.http('POST', `${project}/issues/${issue.iid}/notes`, {
      token: ROOT,
      json: { body: '/label ~bug' },
    })
    expect(note.status).toBe(202) // a note of commands only is not kept
    const labelled = await read(list, q)
    expect(labelled.total).toBe(before.total + 1)
    expect(labelled.items[0]).toMatchObject({ id: issue.id })
    expect((await t.http('DELETE', `${project}/issues/${issue.iid}`, { token: ROOT })).status).toBe(204)
    expect((await read(list, q)).total).toBe(before.total)
  })
})

describe('lists of other projects', () => {
  it('keep their answers across a write elsewhere, and still show their own writes', async () => {
    const q = 'labels=bug&per_page=5'
    const widgets = await read(`${W}/issues`, q)
    const elsewhere = await created(API, { title: 'Elsewhere', labels: 'bug' })
    const comment = await t.http('POST', `${API}/issues/${elsewhere.iid}/notes`, {
      token: ROOT,
      json: { body: 'Seen it' },
    })
    expect(comment.status).toBe(201)
    expect((await read(`${W}/issues`, q)).res.text).toBe(widgets.res.text)
    const mine = await created(W, { title: 'Here', labels: 'bug' })
    const after = await read(`${W}/issues`, q)
    expect(after.total).toBe(widgets.total + 1)
    expect(after.items[0]).toMatchObject({ id: mine.id })
  })

  it("a group's list shows the writes of a project moved into it since the project's last write", async () => {
    const q = 'labels=bug&per_page=5'
    const platform = '/api/v4/groups/acme%2Fplatform/issues'
    await created(W, { title: 'Before the move', labels: 'bug' })
    const before = await read(platform, q)
    const moved = await t.http('PUT', `${W}/transfer`, { token: ROOT, json: { namespace: 'acme/platform' } })
    expect(moved.status).toBe(200)
    const W2 = '/api/v4/projects/acme%2Fplatform%2Fwidgets'
    expect((await read(platform, q)).total).toBe(before.total + 3)
    const mine = await created(W2, { title: 'After the move', labels: 'bug' })
    const after = await read(platform, q)
    expect(after.total).toBe(before.total + 4)
    expect(after.items[0]).toMatchObject({ id: mine.id })
  })

  it('a description with quick actions on create is counted', async () => {
    const q = 'labels=bug'
    const before = await read(`${W}/issues`, q, ALICE)
    await created(W, { title: 'By command', description: '/label ~bug' }, ALICE)
    const after = await read(`${W}/issues`, q, ALICE)
    expect(after.total).toBe(before.total + 1)
    expect(after.items[0]).toMatchObject({ title: 'By command', labels: ['bug'] })
  })
})

describe('a change no write describes', () => {
  it('shows on an issue list page first read after it (an emulator reset)', async () => {
    const page = (query: string) => read(`${W}/issues`, query).then((p) => p.items.map((i) => i.title))
    const edit = await t.http('PUT', `${W}/issues/5`, { token: ROOT, json: { title: 'Renamed' } })
    expect(edit.status).toBe(200)
    expect(await page('per_page=2')).toEqual(['Renamed', 'Leaked credentials'])
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    // Another URL of the same page: put together from the kept issue records, not the response cache.
    expect(await page('per_page=2&page=1')).toEqual(['Outage in production', 'Leaked credentials'])
  })
})

describe('single issue reads, whose JSON is kept for the next read (services/issues/fragments.ts)', () => {
  const subscribed = async (token: string) => {
    const res = await t.http('GET', `${W}/issues/1`, { token })
    expect(res.status).toBe(200)
    return (res.body as Json).subscribed
  }

  it('answer each caller for itself', async () => {
    expect(await subscribed(ROOT)).toBe(false)
    expect(await subscribed(ALICE)).toBe(true) // the author
  })

  it('show their milestone as it is now: renamed, and gone', async () => {
    const milestone = async (token = ROOT) =>
      ((await t.http('GET', `${W}/issues/1`, { token })).body as Json).milestone as Json | null
    const before = (await milestone()) as Json
    expect(before.title).toBe('v1.0')
    const renamed = await t.http('PUT', `${W}/milestones/${before.id}`, {
      token: ROOT,
      json: { title: 'v1.1' },
    })
    expect(renamed.status).toBe(200)
    expect((await milestone())?.title).toBe('v1.1')
    expect((await milestone(ALICE))?.title).toBe('v1.1')
    expect((await t.http('DELETE', `${W}/milestones/${before.id}`, { token: ROOT })).status).toBe(204)
    expect(await milestone()).toBeNull()
  })

  it('show a subscription, which no issue write describes', async () => {
    expect(await subscribed(ROOT)).toBe(false)
    const res = await t.http('POST', `${W}/issues/1/subscribe`, { token: ROOT })
    expect(res.status).toBe(201)
    expect(await subscribed(ROOT)).toBe(true)
  })

  it("show a milestone due yesterday as expired on the server clock's next day", async () => {
    const { s, clock } = await onMilestoneDay()
    try {
      const expired = async () => {
        const res = await s.http('GET', '/api/v4/projects/root%2Fapp/issues/1', { token: ROOT })
        expect(res.status).toBe(200)
        return ((res.body as Json).milestone as Json).expired
      }
      expect(await expired()).toBe(false)
      clock.at = Date.parse('2026-03-02T01:00:00Z')
      expect(await expired()).toBe(true)
    } finally {
      await s.close()
    }
  })
})

describe('notes and projects', () => {
  it('lists a note just added to an issue', async () => {
    const notes = `${W}/issues/1/notes`
    const before = await read(notes, 'sort=desc')
    const res = await t.http('POST', notes, { token: ROOT, json: { body: 'Seen it' } })
    expect(res.status).toBe(201)
    const after = await read(notes, 'sort=desc')
    expect(after.total).toBe(before.total + 1)
    expect(after.items[0]).toMatchObject({ body: 'Seen it' })
  })

  it('lists a project just seeded', async () => {
    const before = await read('/api/v4/projects', 'per_page=100')
    const seed = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      headers: { 'content-type': 'application/yaml' },
      form: 'projects:\n  - { path: acme/gadgets, visibility: private }\n',
    })
    expect(seed.status).toBeLessThan(300)
    const after = await read('/api/v4/projects', 'per_page=100')
    expect(after.total).toBe(before.total + 1)
    expect(after.items.map((p) => p.path_with_namespace)).toContain('acme/gadgets')
  })
})

describe('pipelines', () => {
  it('lists a pipeline just triggered', async () => {
    const p = await startServer(pipelineSeed, { clock: manualClock() })
    try {
      const path = '/api/v4/projects/acme%2Fapp/pipelines'
      const list = async () => {
        const res = await p.http('GET', path, { token: ROOT })
        return { total: Number(res.headers['x-total']), ids: (res.body as Json[]).map((x) => x.id) }
      }
      const before = await list()
      const run = await p.http('POST', '/api/v4/projects/acme%2Fapp/trigger/pipeline', {
        form: `ref=main&token=${MARK_TRIGGER}`,
      })
      expect(run.status).toBe(201)
      const after = await list()
      expect(after.total).toBe(before.total + 1)
      expect(after.ids[0]).toBe((run.body as Json).id)
    } finally {
      await p.close()
    }
  })
})

describe('the response cache and the server clock', () => {
  it("answers a cached list anew on the server clock's next day (a milestone due yesterday is expired)", async () => {
    const { s, clock } = await onMilestoneDay()
    try {
      const expired = async () => {
        const res = await s.http('GET', '/api/v4/projects/root%2Fapp/issues', { token: ROOT })
        expect(res.status).toBe(200)
        return ((res.body as Json[])[0]!.milestone as Json).expired
      }
      expect(await expired()).toBe(false)
      clock.at = Date.parse('2026-03-02T01:00:00Z')
      expect(await expired()).toBe(true)
    } finally {
      await s.close()
    }
  })
})

/*
 * A cached page of an issue list outlives writes that cannot have changed it
 * (src/server/services/watched-issue-lists.ts): these pin down the writes that can, with pages
 * that are not the one written to.
 */
describe('pages of an issue list next to a write', () => {
  const q = (extra: string) => `labels=watched&per_page=2&${extra}`
  const titles = (page: { items: Json[] }) => page.items.map((i) => i.title)
  // A clock a second further on at each write, so that creation and edit times order the issues.
  let clock: ReturnType<typeof manualClock>
  let issues: Json[]
  beforeEach(async () => {
    await t.close()
    clock = manualClock()
    t = await startServer(widgetsSeed, { clock })
    issues = []
    for (const n of [1, 2, 3, 4, 5]) issues.push(await create({ title: `Watched ${n}`, labels: 'watched' }))
  })
  const create = (json: Json) => {
    clock.advance(1000)
    return created(W, json)
  }
  const edit = (issue: Json, json: Json) => {
    clock.advance(1000)
    return t.http('PUT', `${W}/issues/${issue.iid}`, { token: ROOT, json }).then((r) => r.status)
  }

  it('a page shows an edit of its own issue, and the pages around it stay as they were', async () => {
    const first = await read(`${W}/issues`, q('page=1'))
    const second = await read(`${W}/issues`, q('page=2'))
    expect(titles(second)).toEqual(['Watched 3', 'Watched 2'])
    expect(await edit(issues[1]!, { title: 'Renamed 2' })).toBe(200)
    expect(titles(await read(`${W}/issues`, q('page=2')))).toEqual(['Watched 3', 'Renamed 2'])
    expect((await read(`${W}/issues`, q('page=1'))).res.text).toBe(first.res.text)
  })

  it('an issue that moves in the order moves on every page', async () => {
    await read(`${W}/issues`, q('order_by=updated_at&page=1'))
    await read(`${W}/issues`, q('order_by=updated_at&page=3'))
    // Watched 1 is last by updated_at; the edit makes it the newest.
    expect(await edit(issues[0]!, { description: 'touched' })).toBe(200)
    expect(titles(await read(`${W}/issues`, q('order_by=updated_at&page=1')))[0]).toBe('Watched 1')
    expect(titles(await read(`${W}/issues`, q('order_by=updated_at&page=3')))).toEqual(['Watched 2'])
  })

  it('an issue leaving or entering the filter elsewhere changes the other pages and their totals', async () => {
    const first = await read(`${W}/issues`, q('page=1'))
    expect(await edit(issues[0]!, { remove_labels: 'watched' })).toBe(200)
    const fewer = await read(`${W}/issues`, q('page=1'))
    expect(fewer.total).toBe(first.total - 1)
    expect(fewer.res.headers['x-total-pages']).toBe('2')
    const other = await create({ title: 'Unwatched' })
    await read(`${W}/issues`, q('page=3'))
    expect(await edit(other, { add_labels: 'watched' })).toBe(200)
    const more = await read(`${W}/issues`, q('page=1'))
    expect(more.total).toBe(first.total)
    expect(titles(more)).toEqual(['Unwatched', 'Watched 5'])
  })

  it('a time spent on an issue of another page does not change this one, and shows on its own', async () => {
    const first = await read(`${W}/issues`, q('page=1'))
    await read(`${W}/issues`, q('page=3'))
    const spend = await t.http('POST', `${W}/issues/${issues[0]!.iid}/add_spent_time`, {
      token: ROOT,
      json: { duration: '2h' },
    })
    expect(spend.status).toBe(201)
    expect((await read(`${W}/issues`, q('page=1'))).res.text).toBe(first.res.text)
    expect((await read(`${W}/issues`, q('page=3'))).items[0]).toMatchObject({
      title: 'Watched 1',
      time_stats: { total_time_spent: 7200 },
    })
  })

  it('a time spent or estimated moves its issue in lists that order or filter by updated_at', async () => {
    const spend = (issue: Json, path: string, json: Json) => {
      clock.advance(1000)
      return t.http('POST', `${W}/issues/${issue.iid}/${path}`, { token: ROOT, json }).then((r) => r.status)
    }
    const byUpdate = (page: number) => `order_by=updated_at&page=${page}`
    clock.advance(500) // after every issue's creation
    const since = `updated_after=${encodeURIComponent(clock.now().toISOString())}`
    await read(`${W}/issues`, q(byUpdate(1)))
    await read(`${W}/issues`, q(byUpdate(3)))
    expect((await read(`${W}/issues`, q(since))).total).toBe(0)
    // Watched 1 is last by updated_at; time spent on it makes it the newest.
    expect(await spend(issues[0]!, 'add_spent_time', { duration: '1h' })).toBe(201)
    expect(titles(await read(`${W}/issues`, q(byUpdate(1))))).toEqual(['Watched 1', 'Watched 5'])
    expect(titles(await read(`${W}/issues`, q(byUpdate(3))))).toEqual(['Watched 2'])
    expect(titles(await read(`${W}/issues`, q(since)))).toEqual(['Watched 1'])
    // The kept order below the response cache (another URL) follows an estimate the same way.
    expect(await spend(issues[1]!, 'time_estimate', { duration: '2h' })).toBe(200)
    expect(titles(await read(`${W}/issues`, fresh(byUpdate(1))))).toEqual(['Watched 2', 'Watched 1'])
    expect((await read(`${W}/issues`, q(since))).total).toBe(2)
  })

  // Another URL of the same list misses the response cache and is put together from the kept list
  // orders and issue records (services/issues/orders.ts, fragments.ts): they follow writes too.
  let reads = 0
  const fresh = (extra: string) => `${q(extra)}&unread=${++reads}`

  it('a page first read after an edit shows it, though the issue was read on another URL', async () => {
    expect(titles(await read(`${W}/issues`, q('page=1')))).toEqual(['Watched 5', 'Watched 4'])
    expect(await edit(issues[4]!, { title: 'Renamed 5' })).toBe(200)
    expect(titles(await read(`${W}/issues`, fresh('page=1')))).toEqual(['Renamed 5', 'Watched 4'])
  })

  it('pages first read after a create show every page shifted by it', async () => {
    await read(`${W}/issues`, q('page=1'))
    await read(`${W}/issues`, q('page=3'))
    issues.push(await create({ title: 'Watched 6', labels: 'watched' }))
    expect(titles(await read(`${W}/issues`, fresh('page=1')))).toEqual(['Watched 6', 'Watched 5'])
    expect(titles(await read(`${W}/issues`, fresh('page=2')))).toEqual(['Watched 4', 'Watched 3'])
    expect(titles(await read(`${W}/issues`, fresh('page=3')))).toEqual(['Watched 2', 'Watched 1'])
    // The created issue moves on as the others do.
    expect(await edit(issues[5]!, { remove_labels: 'watched' })).toBe(200)
    expect(titles(await read(`${W}/issues`, fresh('page=1')))).toEqual(['Watched 5', 'Watched 4'])
  })

  it('pages first read after writes follow issues moving, leaving and entering an ascending list', async () => {
    const asc = (page: number) => `order_by=updated_at&sort=asc&page=${page}`
    expect(titles(await read(`${W}/issues`, q(asc(1))))).toEqual(['Watched 1', 'Watched 2'])
    expect(await edit(issues[0]!, { description: 'touched' })).toBe(200)
    expect(await edit(issues[2]!, { remove_labels: 'watched' })).toBe(200)
    expect(titles(await read(`${W}/issues`, fresh(asc(1))))).toEqual(['Watched 2', 'Watched 4'])
    expect(titles(await read(`${W}/issues`, fresh(asc(2))))).toEqual(['Watched 5', 'Watched 1'])
    expect(await edit(issues[2]!, { add_labels: 'watched' })).toBe(200)
    expect(titles(await read(`${W}/issues`, fresh(asc(3))))).toEqual(['Watched 3'])
  })

  it('a title order kept below the response cache sorts as SQLite does (UTF-8 bytes)', async () => {
    const byTitle = (page: number) => `order_by=title&sort=asc&page=${page}`
    await read(`${W}/issues`, q(byTitle(1)))
    // U+FF5E sorts before U+1F600 by code point, after it by UTF-16 code unit.
    await create({ title: 'Watched \u{1F600}', labels: 'watched' })
    await create({ title: 'Watched \uFF5E', labels: 'watched' })
    expect(titles(await read(`${W}/issues`, fresh(byTitle(3))))).toEqual(['Watched 5', 'Watched \uFF5E'])
    expect(titles(await read(`${W}/issues`, fresh(byTitle(4))))).toEqual(['Watched \u{1F600}'])
  })

  it('a keyset page follows a write to the row after it, which decides its next link', async () => {
    const keyset = 'pagination=keyset&order_by=created_at&sort=asc&labels=watched&per_page=2'
    const page = await t.http('GET', `${W}/issues`, { token: ROOT, query: keyset })
    expect(page.status).toBe(200)
    expect((page.body as Json[]).map((i) => i.title)).toEqual(['Watched 1', 'Watched 2'])
    expect(page.headers.link).toContain('rel="next"')
    for (const issue of issues.slice(2)) expect(await edit(issue, { remove_labels: 'watched' })).toBe(200)
    const last = await t.http('GET', `${W}/issues`, { token: ROOT, query: keyset })
    expect((last.body as Json[]).map((i) => i.title)).toEqual(['Watched 1', 'Watched 2'])
    expect(last.headers.link ?? '').not.toContain('rel="next"')
  })
})

/** Root (administrator), carol (no membership) and the public project root/open with these issues. */
const openProject = (issues: string) => `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: carol, token: glpat-carol-token }
projects:
  - path: root/open
    visibility: public
    issues: ${issues}
`

describe('an issue list showing a duplicate', () => {
  it('links the canonical issue only while the caller may read it, after an edit of that issue alone', async () => {
    const s = await startServer(openProject('[{ title: Canonical }, { title: Duplicate }]'))
    try {
      const P = '/api/v4/projects/root%2Fopen'
      const dup = await s.http('POST', `${P}/issues/2/notes`, {
        token: ROOT,
        json: { body: '/duplicate #1' },
      })
      expect(dup.status).toBe(202)
      const link = async (query: string) => {
        const res = await s.http('GET', `${P}/issues`, { token: 'glpat-carol-token', query })
        expect(res.status).toBe(200)
        const duplicate = (res.body as Json[]).find((i) => i.title === 'Duplicate')!
        return (duplicate._links as Json).closed_as_duplicate_of
      }
      expect(await link('per_page=20')).toMatch(/\/issues\/1$/)
      const edit = await s.http('PUT', `${P}/issues/1`, { token: ROOT, json: { confidential: true } })
      expect(edit.status).toBe(200)
      expect(await link('per_page=10')).toBeNull()
    } finally {
      await s.close()
    }
  })
})

describe('an issue read after a write', () => {
  it("answers the write's own bytes, and what changed since", async () => {
    const path = `${W}/issues/1`
    const edit = await t.http('PUT', path, {
      token: ALICE,
      json: { title: 'Crashes on start', add_labels: 'docs' },
    })
    expect(edit.status).toBe(200)
    const read = await t.http('GET', path, { token: ALICE })
    expect(read.status).toBe(200)
    expect(read.text).toBe(edit.text)
    // Another caller's read shows their own `subscribed`, not the writer's.
    const other = await t.http('GET', path, { token: ROOT })
    expect((edit.body as Json).subscribed).toBe(true)
    expect((other.body as Json).subscribed).toBe(false)
    const note = await t.http('POST', `${path}/notes`, { token: ROOT, json: { body: 'Seen it' } })
    expect(note.status).toBe(201)
    const after = await t.http('GET', path, { token: ALICE })
    expect((after.body as Json).user_notes_count).toBe(((edit.body as Json).user_notes_count as number) + 1)
  })

  it('links the canonical issue only while the writer may read it, after an edit of that issue alone', async () => {
    const s = await startServer(openProject('[{ title: Canonical }]'))
    try {
      const P = '/api/v4/projects/root%2Fopen/issues'
      const carol = 'glpat-carol-token'
      const made = await s.http('POST', P, { token: carol, json: { title: 'Same' } })
      expect(made.status).toBe(201)
      const iid = (made.body as Json).iid as number
      const dup = await s.http('POST', `${P}/${iid}/notes`, { token: ROOT, json: { body: '/duplicate #1' } })
      expect(dup.status).toBe(202)
      const edit = await s.http('PUT', `${P}/${iid}`, { token: carol, json: { title: 'Same again' } })
      expect(edit.status).toBe(200)
      expect(((edit.body as Json)._links as Json).closed_as_duplicate_of).toMatch(/\/issues\/1$/)
      const hide = await s.http('PUT', `${P}/1`, { token: ROOT, json: { confidential: true } })
      expect(hide.status).toBe(200)
      const read = await s.http('GET', `${P}/${iid}`, { token: carol })
      expect(read.status).toBe(200)
      expect(((read.body as Json)._links as Json).closed_as_duplicate_of).toBeNull()
    } finally {
      await s.close()
    }
  })
})
