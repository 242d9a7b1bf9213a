import { startServer as startPublic } from '../../../src/server/start/start-server.js'
import { startServer, type TestServer } from '../../support/server.js'
import { aliasBombSeed } from '../../support/seeds.js'

const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, token: glpat-alice-token }
  - { username: dave, token: glpat-dave-token }
groups:
  - { path: acme, visibility: private, members: { alice: owner } }
projects:
  - path: acme/widgets
    visibility: private
    labels: [ { name: bug } ]
    issues: [ { title: One, author: alice }, { title: Two, author: alice } ]
`
type Json = Record<string, unknown>
const ROOT = 'glpat-root-token'
let t: TestServer
beforeEach(async () => {
  t = await startServer(seed)
})
afterEach(() => t.close())

const post = (body: string, type = 'application/yaml') =>
  t.http('POST', '/-/emulator/seed', { token: ROOT, headers: { 'content-type': type }, form: body })
const issues = async (project: string) =>
  (
    (
      await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/issues`, {
        token: ROOT,
      })
    ).body as Json[]
  )
    .sort((a, b) => (a.iid as number) - (b.iid as number))
    .map((i) => [i.iid, i.title, i.labels])

describe('POST /-/emulator/seed adds to what exists', () => {
  it('puts a project in an existing group and in an existing user namespace', async () => {
    const res = await post(
      'projects:\n  - { path: acme/gadgets, members: { dave: developer } }\n  - { path: dave/notes }\n',
    )
    expect(res.status).toBe(201)
    const gadgets = await t.http('GET', '/api/v4/projects/acme%2Fgadgets', { token: 'glpat-dave-token' })
    expect(gadgets.status).toBe(200)
    expect((gadgets.body as { namespace: Json }).namespace.full_path).toBe('acme')
    expect((await t.http('GET', '/api/v4/projects/dave%2Fnotes', { token: ROOT })).status).toBe(200)
  })

  it('adds issues to an existing project, iids continuing, with its existing labels', async () => {
    const res = await post(
      'projects:\n  - path: acme/widgets\n    labels: [ { name: ui } ]\n    issues:\n      - { title: Three, labels: [bug], author: alice }\n      - { title: Four, labels: [ui], author: alice }\n',
    )
    expect(res.status).toBe(201)
    expect(await issues('acme/widgets')).toEqual([
      [1, 'One', []],
      [2, 'Two', []],
      [3, 'Three', ['bug']],
      [4, 'Four', ['ui']],
    ])
  })

  it('counts a seeded merge request on the issue it closes, in issues read before it came', async () => {
    const count = async (project: string) =>
      (
        (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/issues/1`, { token: ROOT }))
          .body as Json
      ).merge_requests_count
    expect(await count('acme/widgets')).toBe(0)
    const res = await post(
      'projects:\n  - path: acme/fixes\n    issues: [ { title: Broken, author: alice } ]\n    merge_requests:\n      - { title: Fix, author: alice, source_branch: fix, closes_issues: [1] }\n',
    )
    expect(res.status).toBe(201)
    expect([await count('acme/fixes'), await count('acme/widgets')]).toEqual([1, 0])
  })

  it('adds members to an existing group', async () => {
    expect((await t.http('GET', '/api/v4/groups/acme', { token: 'glpat-dave-token' })).status).toBe(404)
    expect((await post('groups:\n  - { path: acme, members: { dave: reporter } }\n')).status).toBe(201)
    expect((await t.http('GET', '/api/v4/groups/acme', { token: 'glpat-dave-token' })).status).toBe(200)
    expect(
      (await t.http('GET', '/api/v4/projects/acme%2Fwidgets', { token: 'glpat-dave-token' })).status,
    ).toBe(200)
  })

  it('refuses what cannot be added, and changes nothing', async () => {
    const cases: [string, string][] = [
      [
        'projects:\n  - { path: acme/widgets, visibility: public }\n',
        'request body: projects[0].visibility: project acme/widgets exists: only members, labels, milestones, issues, variables and job_token_allowlist can be added',
      ],
      [
        'projects:\n  - { path: nowhere/x }\n',
        'request body: projects[0].path: unknown namespace nowhere (not a listed group or user)',
      ],
      [
        'projects:\n  - { path: acme/widgets, labels: [ { name: bug } ] }\n',
        'request body: projects[0].labels[0].name: duplicate label bug',
      ],
      [
        'groups:\n  - { path: dave }\n',
        "request body: groups[0].path: duplicate path dave (a user's namespace)",
      ],
      [
        'projects:\n  - { path: acme/widgets, members: { erin: guest } }\n',
        'request body: projects[0].members.erin: unknown user erin',
      ],
    ]
    for (const [body, message] of cases) {
      const res = await post(body)
      expect([res.status, res.body]).toEqual([400, { message }])
    }
    expect(await issues('acme/widgets')).toHaveLength(2)
  })

  it('reads YAML as application/yaml, text/yaml, and a form-encoded body that is no form (curl --data-binary)', async () => {
    const body = (n: number) =>
      `projects:\n  - path: acme/widgets\n    issues: [ { title: "Via ${n}", author: alice } ]\n`
    for (const [n, type] of ['application/yaml', 'text/yaml', 'application/x-www-form-urlencoded'].entries())
      expect((await post(body(n), type)).status).toBe(201)
    expect((await issues('acme/widgets')).map(([, title]) => title)).toEqual([
      'One',
      'Two',
      'Via 0',
      'Via 1',
      'Via 2',
    ])
    const form = await post('users=alice&projects=x', 'application/x-www-form-urlencoded')
    expect(form.status).toBe(400)
    expect(form.body).toEqual({
      message: 'request body: a form is no seed; send YAML or JSON (Content-Type: application/yaml)',
    })
  })
})

describe('POST /-/emulator/seed refuses a seed posted twice, and a body curl -d flattened', () => {
  it('a seed naming an issue the project has already is refused with 409, naming it, and changes nothing', async () => {
    const body = 'projects:\n  - path: acme/widgets\n    issues:\n      - { title: Three, author: alice }\n'
    expect((await post(body)).status).toBe(201)
    const again = await post(body)
    expect([again.status, again.body]).toEqual([
      409,
      {
        message:
          'request body: projects[0].issues[0].title: acme/widgets already has this issue (#3 "Three"); a seed adds, it does not update (POST /-/emulator/reset first to start over)',
      },
    ])
    const seeded = await post(
      'projects:\n  - path: acme/widgets\n    issues: [ { title: Four }, { title: One } ]\n',
    )
    expect([seeded.status, (seeded.body as Json).message]).toEqual([
      409,
      expect.stringContaining('projects[0].issues[1].title: acme/widgets already has this issue (#1 "One")'),
    ])
    expect((await issues('acme/widgets')).map(([, title]) => title)).toEqual(['One', 'Two', 'Three'])
  })

  it('a one-line YAML body that does not parse, or is all comment, says to send the file with --data-binary', async () => {
    const hint =
      ' (the body has no line breaks: send the file as it is (curl --data-binary @seed.yaml), not with curl -d, which drops them)'
    const flat = 'projects:  - path: acme/widgets    issues: [ { title: Three, author: alice } ]'
    for (const type of ['application/x-www-form-urlencoded', 'application/yaml']) {
      const res = await post(flat, type)
      expect([res.status, res.body]).toEqual([
        400,
        { message: `request body: line 1, column 12: Unexpected block-seq-ind on same line with key${hint}` },
      ])
    }
    const comment = await post(
      '# my seed: more issuesprojects:  - path: acme/widgets',
      'application/x-www-form-urlencoded',
    )
    expect([comment.status, comment.body]).toEqual([
      400,
      { message: `request body: one comment line, no seed${hint}` },
    ])
    // Not flattened: a JSON body, and YAML with its line breaks, get the plain message.
    const json = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      json: { projects: [{ path: 'nowhere/x' }] },
    })
    expect(json.body).toEqual({
      message: 'request body: projects[0].path: unknown namespace nowhere (not a listed group or user)',
    })
    const yaml = await post('projects:\n  - path: [\n')
    expect((yaml.body as Json).message).not.toContain('--data-binary')
    expect(await issues('acme/widgets')).toHaveLength(2)
  })
})

describe("startServer's seed() adds to what exists too", () => {
  it('takes a project in the built-in seed group', async () => {
    const server = await startPublic({ port: 0 })
    try {
      await server.seed({ projects: [{ path: 'demo/more', issues: [{ title: 'Added' }] }] })
      const res = await fetch(`${server.apiUrl}/projects/demo%2Fmore/issues`, {
        headers: { 'private-token': server.token! },
      })
      expect(((await res.json()) as Json[]).map((i) => i.title)).toEqual(['Added'])
      await expect(
        server.seed({ projects: [{ path: 'demo/more', issues: [{ title: 'Added' }] }] }),
      ).rejects.toMatchObject({
        name: 'SeedError',
        conflict: true,
        message: expect.stringContaining('demo/more already has this issue (#1 "Added")'),
      })
    } finally {
      await server.close()
    }
  })
})

describe('POST /-/emulator/seed and YAML aliases', () => {
  it('refuses an alias bomb at once with a 400 naming the limit, and changes nothing', async () => {
    const bomb = aliasBombSeed()
    expect(bomb.length).toBeGreaterThan(30_000)
    const res = await post(bomb)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      message: 'request body: YAML aliases expand too far (limit 100): write the repeated parts out',
    })
    expect((await t.http('GET', '/api/v4/projects/acme%2Fbomb', { token: ROOT })).status).toBe(404)
    expect((await t.http('GET', '/-/health')).status).toBe(200)
  })

  it('still reads a seed that reuses an anchored list a few times', async () => {
    const res = await post(
      'projects:\n  - path: acme/widgets\n    labels: [ { name: ui } ]\n    issues:\n      - { title: Three, labels: &both [bug, ui] }\n      - { title: Four, labels: *both }\n',
    )
    expect(res.status).toBe(201)
    expect((await issues('acme/widgets')).slice(2)).toEqual([
      [3, 'Three', ['bug', 'ui']],
      [4, 'Four', ['bug', 'ui']],
    ])
  })
})
