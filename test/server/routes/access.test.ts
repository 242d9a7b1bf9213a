import { startServer, type TestServer } from '../../support/server.js'
import { matrixSeed, tokens, type Role } from '../../support/seeds.js'

type Who = Role | 'anonymous'
const everyone: Who[] = [
  'anonymous',
  'outsider',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'root',
]
const projects = ['private', 'internal', 'public'] as const
const members: Who[] = ['guest', 'reporter', 'developer', 'maintainer', 'owner']

/** GitLab's rule (`app/policies/project_policy.rb`): who may see a project of each visibility. */
const canSee = (who: Who, visibility: (typeof projects)[number]) =>
  visibility === 'public' ||
  who === 'root' ||
  members.includes(who) ||
  (visibility === 'internal' && who !== 'anonymous')

let t: TestServer
beforeAll(async () => {
  t = await startServer(matrixSeed)
})
afterAll(() => t.close())
const opts = (who: Who) => (who === 'anonymous' ? {} : { token: tokens[who] })

describe('access matrix: reading issues', () => {
  const cases = everyone.flatMap((who) => projects.map((p) => [who, p] as const))
  it.each(cases)('%s reading the %s project', async (who, visibility) => {
    const path = `/api/v4/projects/acme%2F${visibility}-proj`
    const list = await t.http('GET', `${path}/issues`, opts(who))
    const one = await t.http('GET', `${path}/issues/1`, opts(who))
    if (!canSee(who, visibility)) {
      for (const res of [list, one]) {
        expect(res.status).toBe(404)
        expect(res.body).toEqual({ message: '404 Project Not Found' })
        expect(res.headers).not.toHaveProperty('x-total')
      }
      return
    }
    expect(list.status).toBe(200)
    expect(one.status).toBe(200)
    if (visibility === 'public') {
      // The confidential issue: Planner and up, its author (dana, the developer) and administrators.
      const seesSecret = ['reporter', 'developer', 'maintainer', 'owner', 'root'].includes(who)
      expect((list.body as unknown[]).length).toBe(seesSecret ? 2 : 1)
      expect(list.headers['x-total']).toBe(seesSecret ? '2' : '1')
      const secret = await t.http('GET', `${path}/issues/2`, opts(who))
      expect(secret.status).toBe(seesSecret ? 200 : 404)
      if (!seesSecret) expect(secret.body).toEqual({ message: '404 Not found' })
    }
  })
})

describe('access matrix: creating and deleting issues', () => {
  const cases = everyone.flatMap((who) => projects.map((p) => [who, p] as const))
  it.each(cases)('%s writing in the %s project', async (who, visibility) => {
    const path = `/api/v4/projects/acme%2F${visibility}-proj/issues`
    const created = await t.http('POST', path, { ...opts(who), json: { title: `by ${who}` } })
    if (who === 'anonymous') {
      expect(created.status).toBe(401)
      expect(created.body).toEqual({ message: '401 Unauthorized' })
      return
    }
    if (!canSee(who, visibility)) {
      expect(created.status).toBe(404)
      expect(created.body).toEqual({ message: '404 Project Not Found' })
      return
    }
    expect(created.status).toBe(201)
    const iid = (created.body as { iid: number }).iid
    const removed = await t.http('DELETE', `${path}/${iid}`, opts(who))
    if (who === 'owner' || who === 'root') {
      expect(removed.status).toBe(204)
    } else {
      expect(removed.status).toBe(403)
      expect(removed.body).toEqual({ message: '403 Forbidden' })
      const still = await t.http('GET', `${path}/${iid}`, { token: tokens.root })
      expect(still.status).toBe(200)
    }
  })
})

describe('authentication', () => {
  it('a token that matches nobody is a 401, even on a public project', async () => {
    const res = await t.http('GET', '/api/v4/projects/acme%2Fpublic-proj/issues', { token: 'glpat-nope' })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })

  it('accepts Authorization: Bearer and the private_token parameter', async () => {
    const bearer = await t.http('GET', '/api/v4/user', {
      headers: { authorization: `Bearer ${tokens.guest}` },
    })
    expect(bearer.body).toMatchObject({ username: 'gus', is_admin: false })
    const param = await t.http('GET', '/api/v4/user', { query: `private_token=${tokens.root}` })
    expect(param.body).toMatchObject({ username: 'root', is_admin: true })
  })
})
