import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

const ROOT = 'glpat-root-token'
let t: TestServer
beforeAll(async () => {
  t = await startServer(widgetsSeed)
})
afterAll(() => t.close())

type IssueJson = { iid: number; title: string; labels: unknown[]; [k: string]: unknown }
const list = async (query: string, token = ROOT, path = '/api/v4/projects/acme%2Fwidgets/issues') => {
  const res = await t.http('GET', path, { token, query })
  return { ...res, issues: res.body as IssueJson[], iids: (res.body as IssueJson[]).map?.((i) => i.iid) }
}

describe('GET /projects/:id/issues', () => {
  it('lists newest first with exactly application/json and the list-only shape', async () => {
    const res = await list('')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.iids).toEqual([5, 4, 3, 2, 1])
    const crash = res.issues.find((i) => i.iid === 1) as IssueJson
    expect(crash).not.toHaveProperty('subscribed')
    expect(crash).toMatchObject({
      title: 'Crash on start',
      state: 'opened',
      labels: ['bug'],
      type: 'ISSUE',
      issue_type: 'issue',
      due_date: '2026-02-01',
      confidential: false,
      discussion_locked: null,
      merge_requests_count: 0,
      time_stats: {
        time_estimate: 12600,
        total_time_spent: 3600,
        human_time_estimate: '3h 30m',
        human_total_time_spent: '1h',
      },
      task_completion_status: { count: 2, completed_count: 1 },
      has_tasks: false,
      references: { short: '#1', relative: '#1', full: 'acme/widgets#1' },
      web_url: `${t.baseUrl}/acme/widgets/-/issues/1`,
      severity: 'UNKNOWN',
      moved_to_id: null,
      imported: false,
      imported_from: 'none',
    })
    expect(crash).not.toHaveProperty('task_status')
    expect((crash.assignee as { username: string }).username).toBe('bob')
    expect((crash.milestone as { title: string }).title).toBe('v1.0')
    expect(Object.keys(crash).slice(0, 8)).toEqual([
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
    ])
    const dark = res.issues.find((i) => i.iid === 2) as IssueJson
    expect(dark).toMatchObject({ has_tasks: true, task_status: '0 of 0 checklist items completed' })
    expect((res.issues.find((i) => i.iid === 3) as IssueJson).labels).toEqual(['docs', 'feature'])
  })

  it('finds the project by numeric id as by full path', async () => {
    const byPath = await list('')
    const id = byPath.issues[0]?.project_id as number
    const byId = await list('', ROOT, `/api/v4/projects/${id}/issues`)
    expect(byId.iids).toEqual(byPath.iids)
  })

  it.each([
    ['labels=bug', [4, 1]],
    ['labels=docs,feature', [3]],
    // CommaSeparatedToArray keeps a blank item but a trailing one; no label has a blank title, and
    // GitLab's LabelFilter answers none when it finds fewer labels than names.
    ['labels=,bug', []],
    ['labels=%20', []],
    ['labels=bug,', [4, 1]],
    ['labels[]=&labels[]=bug', [4, 1]],
    ['not[labels]=,bug', [5, 3, 2]],
    ['iids=,1', [1]],
    ['labels=None', [5]],
    ['labels=any', [4, 3, 2, 1]],
    ['not[labels]=bug', [5, 3, 2]],
    ['milestone=v1.0', [1]],
    ['milestone=None', [5, 4, 2]],
    ['milestone=Any', [3, 1]],
    ['milestone=Upcoming', [1]],
    ['milestone=Started', [1]],
    ['not[milestone]=v1.0', [5, 4, 3, 2]],
    ['iids[]=1&iids[]=3', [3, 1]],
    ['not[iids][]=1', [5, 4, 3, 2]],
    ['state=opened', [5, 4, 2, 1]],
    ['state=closed', [3]],
    // A name given twice keeps its last value, as Rack reads it (not a list Grape would refuse).
    ['state=opened&state=closed', [3]],
    ['search=dark', [2]],
    ['search=THEME', [2]],
    ['search=theme&in=title', []],
    ['not[search]=dark', [5, 4, 3, 1]],
    ['author_username=bob', [4, 2]],
    ['not[author_username]=bob', [5, 3, 1]],
    ['assignee_username[]=bob', [1]],
    // CheckAssigneesCount.coerce wraps a blank in a list, [""]: no user has that name, so no issue.
    ['assignee_username=', []],
    ['not[assignee_username]=', [5, 4, 3, 2, 1]],
    ['assignee_id=None', [4, 3, 2]],
    ['assignee_id=Any', [5, 1]],
    ['not[assignee_id]=None', [5, 1]],
    ['issue_type=incident', [5]],
    ['confidential=true', [4]],
    ['confidential=no', [5, 3, 2, 1]],
    ['due_date=0', [5, 4, 3, 2]],
    ['due_date=any', [1]],
    ['due_date=overdue', [1]],
    ['created_after=2026-01-03T10:00:00Z', [5, 4, 3]],
    ['created_before=2026-01-02T10:00:00.000Z', [2, 1]],
    // Whatever DateTime.parse reads: an HTTP date, `date`'s output, US zones, compact ISO 8601.
    ['created_after=Sat%2C%2003%20Jan%202026%2010%3A00%3A00%20GMT', [5, 4, 3]],
    ['created_after=Sat%20Jan%20%203%2005%3A00%3A00%20EST%202026', [5, 4, 3]],
    ['created_after=2026-01-03T15%3A30%3A00%2B05%3A30', [5, 4, 3]],
    ['created_after=20260103T100001Z', [5, 4]],
    ['created_before=2026%2F01%2F02%2010%3A00%3A01', [2, 1]],
    ['created_before=Jan%202%2C%202026%209%3A59%20AM', [1]],
    ['scope=created_by_me', []],
    ['my_reaction_emoji=None', [5, 4, 3, 2, 1]],
    ['my_reaction_emoji=Any', []],
    ['order_by=title&sort=asc', [2, 1, 3, 4, 5]],
    ['order_by=due_date&sort=asc', [1, 5, 4, 3, 2]],
    ['order_by=created_at&sort=asc', [1, 2, 3, 4, 5]],
    ['order_by=relative_position&sort=asc', [1, 2, 3, 4, 5]],
  ])('%s', async (query, expected) => {
    const res = await list(query)
    expect(res.status).toBe(200)
    expect(res.iids).toEqual(expected)
  })

  it('gives label details with with_labels_details=true', async () => {
    const res = await list('iids[]=3&with_labels_details=true')
    expect(res.issues[0]?.labels).toEqual([
      {
        id: expect.any(Number),
        name: 'docs',
        color: '#f0ad4e',
        description: 'Documentation',
        description_html: 'Documentation',
        text_color: '#FFFFFF',
      },
      {
        id: expect.any(Number),
        name: 'feature',
        color: '#5cb85c',
        description: null,
        description_html: '',
        text_color: '#FFFFFF',
      },
    ])
  })

  it('reads iids items as CommaSeparatedToIntegerArray does, with to_i: a word is 0, never refused', async () => {
    for (const query of ['iids[]=a', 'iids=a,b', 'not[iids][]=x'])
      expect([query, (await list(query)).status]).toEqual([query, 200])
    expect((await list('iids=02x,abc')).iids).toEqual([2])
    expect((await list('iids[]=%2B3&iids[]=1_0')).iids).toEqual([3])
  })

  it.each([
    ['state=foo', 'state does not have a valid value'],
    ['order_by=nonsense', 'order_by does not have a valid value'],
    ['milestone=v1.0&milestone_id=Any', 'milestone_id, milestone are mutually exclusive'],
    ['author_id=1&author_username=bob', 'author_id, author_username are mutually exclusive'],
    ['assignee_id=abc', "assignee_id should be an integer, 'None' or 'Any'"],
    ['confidential=maybe', 'confidential is invalid'],
    ['author_id=x', 'author_id is invalid'],
    ['created_after=yesterday', 'created_after is invalid'],
    ['created_after=2026-02-30', 'created_after is invalid'],
    ['updated_before=2026-01-03T24%3A30', 'updated_before is invalid'],
    ['state=foo&confidential=maybe', 'state does not have a valid value, confidential is invalid'],
  ])('400 for %s', async (query, error) => {
    const res = await list(query)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
  })

  it('reads a time without a zone as UTC, as Ruby does, whatever the zone of the machine', async () => {
    // A server of its own, in a process whose zone is New York (Jest's own cannot change zone).
    const script = [
      `import { startServer } from './test/support/server.ts'`,
      `import { widgetsSeed } from './test/support/seeds.ts'`,
      `const t = await startServer(widgetsSeed)`,
      `const iids = async (query) => (await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', { token: '${ROOT}', query })).body.map((i) => i.iid)`,
      `console.log(JSON.stringify([new Date(2026, 0, 3).getTimezoneOffset(), await iids('created_after=2026-01-03T10:00:00'), await iids('created_after=2026-01-03%2010:00')]))`,
      `await t.close()`,
    ].join('\n')
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: resolve(__dirname, '../../..'), env: { ...process.env, TZ: 'America/New_York' } },
    )
    expect(JSON.parse(stdout)).toEqual([300, [5, 4, 3], [5, 4, 3]])
  })

  it('hides confidential issues from members below Planner who neither wrote nor are assigned to them', async () => {
    // carol is no member: the private project itself is invisible to her.
    const carol = await list('', 'glpat-carol-token')
    expect(carol.status).toBe(404)
    expect(carol.body).toEqual({ message: '404 Project Not Found' })
    // bob (developer) wrote the confidential issue and sees it; alice (maintainer) sees everything.
    expect((await list('', 'glpat-bob-token')).iids).toEqual([5, 4, 3, 2, 1])
  })
})

describe('GET /groups/:id/issues', () => {
  it('lists the group and its subgroups with references relative to the group', async () => {
    const res = await list('', ROOT, '/api/v4/groups/acme/issues')
    expect(res.status).toBe(200)
    expect(res.issues).toHaveLength(6)
    const refs = Object.fromEntries(
      res.issues.map((i) => [i.title, (i.references as { relative: string }).relative]),
    )
    expect(refs['Crash on start']).toBe('widgets#1')
    expect(refs['Platform issue']).toBe('acme/platform/api#1')
  })

  it('answers 404 Group Not Found for a hidden or missing group', async () => {
    const hidden = await list('', 'glpat-carol-token', '/api/v4/groups/acme/issues')
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
    const missing = await list('', ROOT, '/api/v4/groups/nope/issues')
    expect(missing.body).toEqual({ message: '404 Group Not Found' })
  })
})

describe('GET /issues', () => {
  it('needs a user unless scope=all', async () => {
    const res = await t.http('GET', '/api/v4/issues')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })

  it('defaults to created_by_me and gives full references', async () => {
    const res = await list('', 'glpat-bob-token', '/api/v4/issues')
    expect(res.issues.map((i) => i.title).sort()).toEqual(['Add dark mode', 'Leaked credentials'])
    expect(res.issues[0]?.references).toMatchObject({ relative: 'acme/widgets#4', full: 'acme/widgets#4' })
  })

  it('assigned_to_me and scope=all for a developer', async () => {
    expect((await list('scope=assigned_to_me', 'glpat-bob-token', '/api/v4/issues')).iids).toEqual([1])
    expect((await list('scope=all', 'glpat-bob-token', '/api/v4/issues')).iids).toEqual([5, 4, 3, 2, 1])
  })

  it('refuses several assignee_username values on the community edition', async () => {
    const ce = await startServer(widgetsSeed, { edition: 'ce' })
    try {
      const res = await ce.http('GET', '/api/v4/issues', {
        token: ROOT,
        query: 'assignee_username[]=a&assignee_username[]=b',
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'assignee_username allows one value, but found 2: a, b' })
    } finally {
      await ce.close()
    }
  })

  it('takes assignee_username=a,b as one username, commas and all (Array.wrap), on either edition', async () => {
    const ce = await startServer(widgetsSeed, { edition: 'ce' })
    try {
      for (const server of [ce, t]) {
        const res = await server.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', {
          token: ROOT,
          query: 'assignee_username=bob,alice&not[assignee_username]=bob,alice',
        })
        expect([res.status, res.body]).toEqual([200, []])
        expect(res.headers.link).toContain(
          '?assignee_username%5B%5D=bob%2Calice&id=acme%2Fwidgets&not%5Bassignee_username%5D%5B%5D=bob%2Calice&',
        )
      }
    } finally {
      await ce.close()
    }
  })
})
