import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Project labels through the API (`lib/api/labels.rb`, `lib/api/helpers/label_helpers.rb`,
 * `lib/api/subscriptions.rb`): GitLab's entity, statuses and error bodies, who may write, and
 * nothing stored when a request is refused.
 */

const ROOT = 'glpat-root-token'
const REPORTER = 'glpat-rita-token'
const PLANNER = 'glpat-pia-token'
const GUEST = 'glpat-gus-token'
const OUTSIDER = 'glpat-otto-token'
const P = '/api/v4/projects/acme%2Fapp'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: rita, token: ${REPORTER} }
  - { username: pia, token: ${PLANNER} }
  - { username: gus, token: ${GUEST} }
  - { username: otto, token: ${OUTSIDER} }
groups:
  - { path: acme, visibility: private, members: { rita: reporter, pia: planner, gus: guest } }
projects:
  - path: acme/app
    visibility: private
    labels:
      - { name: bug, color: "#d9534f" }
    issues:
      - { title: First, author: rita, labels: [bug] }
  - path: acme/public
    visibility: public
`
type Json = Record<string, unknown>
let t: TestServer
beforeEach(async () => {
  t = await startServer(seed, { clock: manualClock() })
})
afterEach(() => t.close())

const rows = () =>
  inspectDb(t.server.store)
    .prepare(
      "SELECT l.title, l.color, l.description, l.priority FROM labels l JOIN projects p ON p.id = l.project_id WHERE p.full_path = 'acme/app' ORDER BY l.id",
    )
    .all()
/** GitLab's label entity's first keys, in its order; what follows depends on the request. */
const LABEL_KEYS = ['id', 'name', 'color', 'description', 'description_html', 'text_color']
const labelId = (title: string) =>
  inspectDb(t.server.store).prepare('SELECT id FROM labels WHERE title = ?').pluck().get(title) as number

describe('POST /projects/:id/labels', () => {
  it('creates a label with 201 in GitLab key order, priority and subscription included', async () => {
    const res = await t.http('POST', `${P}/labels`, {
      token: REPORTER,
      json: { name: 'feature', color: '#5cb85c', description: 'New things', priority: 3 },
    })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body as Json)).toEqual([
      ...LABEL_KEYS,
      'subscribed',
      'priority',
      'is_project_label',
    ])
    expect(res.body).toEqual({
      id: labelId('feature'),
      name: 'feature',
      color: '#5cb85c',
      description: 'New things',
      description_html: 'New things',
      text_color: '#FFFFFF',
      subscribed: false,
      priority: 3,
      is_project_label: true,
    })
    const one = await t.http('GET', `${P}/labels/feature`, { token: GUEST })
    expect(one.body).toEqual(res.body)
  })

  it('reads CSS color names as GitLab does, trims the title and strips markup', async () => {
    const res = await t.http('POST', `${P}/labels`, {
      token: PLANNER,
      form: 'name=+%3Cb%3EUrgent%3C%2Fb%3E+%26+now+&color=DarkOrange',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Urgent & now',
      color: '#FF8C00',
      description: null,
      description_html: '',
      priority: null,
    })
  })

  it('answers 409 Label already exists for a title the project has', async () => {
    const res = await t.http('POST', `${P}/labels`, { token: REPORTER, json: { name: 'bug', color: 'red' } })
    expect([res.status, res.body]).toEqual([409, { message: 'Label already exists' }])
    expect(rows()).toEqual([{ title: 'bug', color: '#d9534f', description: null, priority: null }])
  })

  it.each([
    [{ name: 'x', color: '#FFAA' }, { color: ['must be a valid color code'] }],
    [{ name: 'x', color: 'not-a-color' }, { color: ['must be a valid color code'] }],
    [{ name: 'x', color: '' }, { color: ['must be a valid color code'] }],
    [{ name: 'a,b', color: '#FFAABB' }, { title: ['is invalid'] }],
    [{ name: '  ', color: '#FFAABB' }, { title: ["can't be blank", 'is invalid'] }],
    [{ name: 'x'.repeat(256), color: '#FFAABB' }, { title: ['is too long (maximum is 255 characters)'] }],
    [
      { name: ',', color: '#12' },
      { color: ['must be a valid color code'], title: ['is invalid'] },
    ],
  ])('refuses %j with 400 and the model errors, storing nothing', async (json, message) => {
    const res = await t.http('POST', `${P}/labels`, { token: REPORTER, json })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(rows()).toHaveLength(1)
  })

  it.each([
    [{ color: '#FFAABB' }, 'name is missing'],
    [{ name: 'x' }, 'color is missing'],
    [{ name: 'x', color: '#FFAABB', priority: 'high' }, 'priority is invalid'],
  ])('answers Grape 400 for %j', async (json, error) => {
    const res = await t.http('POST', `${P}/labels`, { token: REPORTER, json })
    expect([res.status, res.body]).toEqual([400, { error }])
    expect(rows()).toHaveLength(1)
  })

  it.each([
    ['anonymous', undefined, 401, { message: '401 Unauthorized' }],
    ['a guest', GUEST, 403, { message: '403 Forbidden' }],
    ['a non-member', OUTSIDER, 404, { message: '404 Project Not Found' }],
  ])('refuses %s', async (_who, token, status, body) => {
    const res = await t.http('POST', `${P}/labels`, { token, json: { name: 'new', color: '#FFAABB' } })
    expect([res.status, res.body]).toEqual([status, body])
    expect(rows()).toHaveLength(1)
  })
})

describe('GET /projects/:id/labels and /labels/:label_id', () => {
  it('finds a label by id or URL-encoded title; 404 Label Not Found otherwise', async () => {
    await t.http('POST', `${P}/labels`, { token: ROOT, json: { name: 'needs review/ui', color: '#123' } })
    const byTitle = await t.http('GET', `${P}/labels/needs%20review%2Fui`, { token: GUEST })
    expect([byTitle.status, (byTitle.body as Json).name]).toEqual([200, 'needs review/ui'])
    const byId = await t.http('GET', `${P}/labels/${labelId('bug')}`, { token: GUEST })
    expect((byId.body as Json).name).toBe('bug')
    for (const ref of ['nope', '9999', 'Bug']) {
      const res = await t.http('GET', `${P}/labels/${ref}`, { token: GUEST })
      expect([ref, res.status, res.body]).toEqual([ref, 404, { message: '404 Label Not Found' }])
    }
    // Another project's label is not this project's, by id either.
    const other = await t.http('GET', `/api/v4/projects/acme%2Fpublic/labels/${labelId('bug')}`, {
      token: ROOT,
    })
    expect([other.status, other.body]).toEqual([404, { message: '404 Label Not Found' }])
  })

  it('lists by title, with the caller’s subscriptions, and authenticates as GitLab does', async () => {
    await t.http('POST', `${P}/labels`, { token: ROOT, json: { name: 'api', color: '#000000', priority: 1 } })
    await t.http('POST', `${P}/labels/api/subscribe`, { token: GUEST })
    const list = await t.http('GET', `${P}/labels`, { token: GUEST })
    expect(list.status).toBe(200)
    expect(list.headers['x-total']).toBe('2')
    expect((list.body as Json[]).map((l) => [l.name, l.subscribed, l.priority])).toEqual([
      ['api', true, 1],
      ['bug', false, null],
    ])
    const anonymous = await t.http('GET', '/api/v4/projects/acme%2Fpublic/labels')
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    const hidden = await t.http('GET', `${P}/labels/bug`, { token: OUTSIDER })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

describe('GET /projects/:id/labels?with_counts=true', () => {
  it('counts the issues the caller may read, before subscribed, and links carry the declared defaults', async () => {
    for (const [title, confidential] of [
      ['Secret', true],
      ['Closed one', false],
    ] as const)
      await t.http('POST', `${P}/issues`, { token: REPORTER, json: { title, labels: 'bug', confidential } })
    await t.http('PUT', `${P}/issues/3`, { token: REPORTER, json: { state_event: 'close' } })
    const counts = async (token: string) => {
      const res = await t.http('GET', `${P}/labels`, { token, query: 'with_counts=true' })
      return res.body as Json[]
    }
    const byReporter = (await counts(REPORTER))[0] as Json
    expect(Object.keys(byReporter)).toEqual([
      ...LABEL_KEYS,
      'open_issues_count',
      'closed_issues_count',
      'open_merge_requests_count',
      'subscribed',
      'priority',
      'is_project_label',
    ])
    expect(byReporter).toMatchObject({
      open_issues_count: 2,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
    })
    // A guest does not see the confidential issue.
    expect((await counts(GUEST))[0]).toMatchObject({ open_issues_count: 1, closed_issues_count: 1 })
    await t.http('POST', `${P}/labels`, {
      token: ROOT,
      json: { name: 'ops', color: '#000', description: 'On call duty' },
    })
    // `Label.search`: titles and descriptions, any case.
    const found = await t.http('GET', `${P}/labels`, { token: GUEST, query: 'search=CALL' })
    expect((found.body as Json[]).map((l) => l.name)).toEqual(['ops'])
    const page = await t.http('GET', `${P}/labels`, { token: GUEST, query: 'per_page=1&search=b&search=bu' })
    expect(page.headers.link).toBe(
      `<${t.baseUrl}${P}/labels?id=acme%2Fapp&include_ancestor_groups=true&page=1&per_page=1&search=bu&with_counts=false>; rel="first", ` +
        `<${t.baseUrl}${P}/labels?id=acme%2Fapp&include_ancestor_groups=true&page=1&per_page=1&search=bu&with_counts=false>; rel="last"`,
    )
  })
})

describe('PUT /projects/:id/labels/:label_id', () => {
  it('renames with new_name, recolors, describes and prioritizes; a blank priority removes it', async () => {
    const res = await t.http('PUT', `${P}/labels/bug`, {
      token: REPORTER,
      json: { new_name: 'defect', color: 'white', description: 'Broken', priority: 2 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: labelId('defect'),
      name: 'defect',
      color: '#FFFFFF',
      text_color: '#1F1E24',
      description: 'Broken',
      priority: 2,
    })
    const cleared = await t.http('PUT', `${P}/labels/defect`, { token: REPORTER, form: 'priority=' })
    expect((cleared.body as Json).priority).toBeNull()
    // A blank description is not written (`Label#description=`).
    const blank = await t.http('PUT', `${P}/labels/defect`, { token: REPORTER, json: { description: '' } })
    expect((blank.body as Json).description).toBe('Broken')
    // The seeded issue shows the renamed label.
    const issue = await t.http('GET', `${P}/issues/1`, { token: REPORTER })
    expect((issue.body as Json).labels).toEqual(['defect'])
  })

  it('answers GitLab errors and changes nothing', async () => {
    await t.http('POST', `${P}/labels`, { token: ROOT, json: { name: 'taken', color: '#000' } })
    const before = rows()
    const cases: [string | undefined, string, Json, number, unknown][] = [
      [
        REPORTER,
        'bug',
        {},
        400,
        {
          error:
            'new_name, color, description, priority are missing, at least one parameter must be provided',
        },
      ],
      [REPORTER, 'bug', { new_name: 'taken' }, 400, { message: { title: ['has already been taken'] } }],
      [REPORTER, 'bug', { new_name: 'a,b', priority: 5 }, 400, { message: { title: ['is invalid'] } }],
      [REPORTER, 'bug', { color: '#GGGGGG' }, 400, { message: { color: ['must be a valid color code'] } }],
      [REPORTER, 'missing', { color: '#000' }, 404, { message: '404 Label Not Found' }],
      [GUEST, 'bug', { color: '#000' }, 403, { message: '403 Forbidden' }],
      // `authorize! :update_label` comes before the label is looked up.
      [GUEST, 'missing', { color: '#000' }, 403, { message: '403 Forbidden' }],
      [OUTSIDER, 'bug', { color: '#000' }, 404, { message: '404 Project Not Found' }],
      [undefined, 'bug', { color: '#000' }, 401, { message: '401 Unauthorized' }],
    ]
    for (const [token, ref, json, status, body] of cases) {
      const res = await t.http('PUT', `${P}/labels/${ref}`, { token, json })
      expect([ref, json, res.status, res.body]).toEqual([ref, json, status, body])
    }
    expect(rows()).toEqual(before)
  })
})

describe('DELETE /projects/:id/labels/:label_id', () => {
  it('deletes with 204; the issues that had it lose it and filters no longer find it', async () => {
    // Listed (and counted) first, so that a kept answer or count would show if the delete left it.
    const before = await t.http('GET', `${P}/issues`, { token: ROOT, query: 'labels=bug' })
    expect([(before.body as Json[]).length, before.headers['x-total']]).toEqual([1, '1'])
    const res = await t.http('DELETE', `${P}/labels/${labelId('bug')}`, { token: PLANNER })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(rows()).toEqual([])
    expect(((await t.http('GET', `${P}/issues/1`, { token: ROOT })).body as Json).labels).toEqual([])
    const filtered = await t.http('GET', `${P}/issues`, { token: ROOT, query: 'labels=bug' })
    expect([filtered.body, filtered.headers['x-total']]).toEqual([[], '0'])
  })

  it('looks the label up before the role (404 first), then refuses below Planner', async () => {
    const missing = await t.http('DELETE', `${P}/labels/nope`, { token: GUEST })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Label Not Found' }])
    const guest = await t.http('DELETE', `${P}/labels/bug`, { token: GUEST })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const outsider = await t.http('DELETE', `${P}/labels/bug`, { token: OUTSIDER })
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Project Not Found' }])
    expect(rows()).toHaveLength(1)
  })
})

describe('POST /projects/:id/labels/:label_id/subscribe and /unsubscribe', () => {
  it('subscribes with 201, answers 304 when nothing changes, per caller', async () => {
    const sub = await t.http('POST', `${P}/labels/bug/subscribe`, { token: GUEST })
    expect([sub.status, (sub.body as Json).subscribed]).toEqual([201, true])
    const again = await t.http('POST', `${P}/labels/bug/subscribe`, { token: GUEST })
    expect([again.status, again.text]).toEqual([304, ''])
    expect(((await t.http('GET', `${P}/labels/bug`, { token: REPORTER })).body as Json).subscribed).toBe(
      false,
    )
    const unsub = await t.http('POST', `${P}/labels/${labelId('bug')}/unsubscribe`, { token: GUEST })
    expect([unsub.status, (unsub.body as Json).subscribed]).toEqual([201, false])
    const twice = await t.http('POST', `${P}/labels/bug/unsubscribe`, { token: GUEST })
    expect(twice.status).toBe(304)
  })

  it('answers 404 for a missing label or a hidden project, 401 anonymously', async () => {
    for (const [token, path, status, body] of [
      [GUEST, `${P}/labels/1234/subscribe`, 404, { message: '404 Label Not Found' }],
      [OUTSIDER, `${P}/labels/bug/subscribe`, 404, { message: '404 Project Not Found' }],
      [undefined, `${P}/labels/bug/unsubscribe`, 401, { message: '401 Unauthorized' }],
    ] as const) {
      const res = await t.http('POST', path, { token })
      expect([path, res.status, res.body]).toEqual([path, status, body])
    }
  })
})

describe('the deprecated PUT and DELETE /projects/:id/labels (label in the parameters)', () => {
  it('edits and deletes the label named by name or label_id', async () => {
    const edited = await t.http('PUT', `${P}/labels`, {
      token: REPORTER,
      json: { name: 'bug', new_name: 'defect' },
    })
    expect([edited.status, (edited.body as Json).name]).toEqual([200, 'defect'])
    const byId = await t.http('PUT', `${P}/labels`, {
      token: REPORTER,
      form: `label_id=${labelId('defect')}&priority=4`,
    })
    expect((byId.body as Json).priority).toBe(4)
    const removed = await t.http('DELETE', `${P}/labels`, { token: REPORTER, json: { name: 'defect' } })
    expect(removed.status).toBe(204)
    expect(rows()).toEqual([])
  })

  it("answers Grape's exactly_one_of and the label errors, changing nothing", async () => {
    const cases: [string, Json, number, unknown][] = [
      [
        'PUT',
        { color: '#000' },
        400,
        { error: 'label_id, name are missing, exactly one parameter must be provided' },
      ],
      [
        'PUT',
        { name: 'bug', label_id: 1, color: '#000' },
        400,
        { error: 'label_id, name are mutually exclusive' },
      ],
      [
        'PUT',
        { name: 'bug' },
        400,
        {
          error:
            'new_name, color, description, priority are missing, at least one parameter must be provided',
        },
      ],
      ['PUT', { name: 'nope', color: '#000' }, 404, { message: '404 Label Not Found' }],
      ['DELETE', {}, 400, { error: 'label_id, name are missing, exactly one parameter must be provided' }],
      ['DELETE', { label_id: 'x' }, 400, { error: 'label_id is invalid' }],
      ['DELETE', { name: 'nope' }, 404, { message: '404 Label Not Found' }],
    ]
    for (const [method, json, status, body] of cases) {
      const res = await t.http(method, `${P}/labels`, { token: REPORTER, json })
      expect([method, json, res.status, res.body]).toEqual([method, json, status, body])
    }
    const guest = await t.http('DELETE', `${P}/labels`, { token: GUEST, json: { name: 'bug' } })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(rows()).toEqual([{ title: 'bug', color: '#d9534f', description: null, priority: null }])
  })
})
