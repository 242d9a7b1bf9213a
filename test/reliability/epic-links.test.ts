import { startServer, type TestServer } from '../support/server.js'
import { inspectDb } from '../../src/server/store/inspect.js'

/*
 * Linking an issue to an epic (EE) must not reveal epics the caller may not read: GitLab finds the
 * epic with EpicsFinder (the caller's access, the project's group hierarchy) and then needs
 * `admin_epic` (ee/app/services/ee/issues/base_service.rb).
 */
const seed = `
users:
  - { username: olivia, token: glpat-owner-token }
  - { username: rita, token: glpat-reporter-token }
  - { username: gus, token: glpat-guest-token }
  - { username: otto, token: glpat-outsider-token }
groups:
  - { path: pub, visibility: public, members: { olivia: owner, rita: reporter, gus: guest } }
  - { path: pub/hidden, visibility: private }
  - { path: vault, visibility: private, members: { olivia: owner } }
  - { path: other, visibility: public, members: { rita: reporter } }
projects:
  - path: pub/proj
    visibility: public
    members: { otto: guest }
    issues: [ { title: Otto's own, author: otto } ]
`

let t: TestServer
const epics: Record<string, number> = {}
const issuesPath = '/api/v4/projects/pub%2Fproj/issues'
const issueCount = () =>
  inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM issues').get() as { n: number }

beforeAll(async () => {
  t = await startServer(seed)
  const { store } = t.server
  const group = (path: string) => store.namespaces.byPath(path)!.id
  const olivia = store.users.byUsername('olivia')!.id
  const now = '2026-01-01T00:00:00.000Z'
  epics.vault = store.epics.insert(group('vault'), 'Vault: acquisition target', null, olivia, now)
  epics.hidden = store.epics.insert(group('pub/hidden'), 'Hidden: layoffs', null, olivia, now)
  epics.pub = store.epics.insert(group('pub'), 'Public roadmap', null, olivia, now)
  epics.other = store.epics.insert(group('other'), 'Other roadmap', null, olivia, now)
})
afterAll(() => t.close())

describe('epic_id on create', () => {
  it('a private epic answers exactly as a missing one, stores nothing and shows no title', async () => {
    const before = issueCount().n
    const token = 'glpat-outsider-token'
    const hidden = await t.http('POST', issuesPath, { token, json: { title: 'x', epic_id: epics.vault } })
    const missing = await t.http('POST', issuesPath, { token, json: { title: 'x', epic_id: 99999 } })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Not found' }])
    expect([missing.status, missing.body]).toEqual([hidden.status, hidden.body])
    expect(hidden.text).not.toContain('Vault')
    expect(issueCount().n).toBe(before)
  })

  it('an epic the caller can read but not administer: 403 Forbidden, nothing stored', async () => {
    const before = issueCount().n
    for (const token of ['glpat-outsider-token', 'glpat-guest-token']) {
      const res = await t.http('POST', issuesPath, { token, json: { title: 'x', epic_id: epics.pub } })
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    expect(issueCount().n).toBe(before)
  })

  it('an epic outside the project group hierarchy is not found, even for a reporter there', async () => {
    const res = await t.http('POST', issuesPath, {
      token: 'glpat-reporter-token',
      json: { title: 'x', epic_id: epics.other },
    })
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('a reporter of the group links its epic', async () => {
    const res = await t.http('POST', issuesPath, {
      token: 'glpat-reporter-token',
      json: { title: 'linked', epic_id: epics.pub },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ epic_iid: 1, epic: { id: epics.pub, title: 'Public roadmap' } })
  })
})

describe('epic_iid on create', () => {
  it('a missing iid: 404 Epic Not Found; a readable epic without admin_epic: 403', async () => {
    const token = 'glpat-outsider-token'
    const missing = await t.http('POST', issuesPath, { token, json: { title: 'x', epic_iid: 7 } })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Epic Not Found' }])
    const readable = await t.http('POST', issuesPath, { token, json: { title: 'x', epic_iid: 1 } })
    expect([readable.status, readable.body]).toEqual([403, { message: '403 Forbidden' }])
  })
})

describe('epic_id on edit', () => {
  it('the author of an issue cannot link a private epic through an edit', async () => {
    const res = await t.http('PUT', `${issuesPath}/1`, {
      token: 'glpat-outsider-token',
      json: { epic_id: epics.vault },
    })
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
    expect(t.server.store.issues.byIid(t.server.store.projects.byPath('pub/proj')!.id, 1)!.epic_id).toBeNull()
  })
})

describe('a linked epic the reader cannot read', () => {
  it('shows epic and epic_iid as null to anonymous and outside readers, in full to members', async () => {
    const created = await t.http('POST', issuesPath, {
      token: 'glpat-owner-token',
      json: { title: 'in a hidden epic', epic_id: epics.hidden },
    })
    expect(created.status).toBe(201)
    const iid = (created.body as { iid: number }).iid
    for (const token of [undefined, 'glpat-outsider-token']) {
      const one = await t.http('GET', `${issuesPath}/${iid}`, { token })
      expect(one.body).toMatchObject({ epic: null, epic_iid: null })
      expect(one.text).not.toContain('layoffs')
      const list = await t.http('GET', issuesPath, { token })
      expect(list.text).not.toContain('layoffs')
    }
    // A guest of the parent group is a member of the subgroup, and reads its epics.
    for (const token of ['glpat-owner-token', 'glpat-guest-token']) {
      const one = await t.http('GET', `${issuesPath}/${iid}`, { token })
      expect(one.body).toMatchObject({ epic: { title: 'Hidden: layoffs' } })
    }
  })

  it('stays hidden in a list from an outside reader after a member read the same list', async () => {
    const created = await t.http('POST', issuesPath, {
      token: 'glpat-owner-token',
      json: { title: 'also in the hidden epic', epic_id: epics.hidden },
    })
    expect(created.status).toBe(201)
    const list = (token: string) => t.http('GET', issuesPath, { token, query: 'per_page=100' })
    expect((await list('glpat-owner-token')).text).toContain('layoffs')
    const outside = await list('glpat-outsider-token')
    expect(outside.status).toBe(200)
    expect(outside.text).not.toContain('layoffs')
  })
})
