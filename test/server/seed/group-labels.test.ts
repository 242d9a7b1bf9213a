import { parseSeed, SeedError } from '../../../src/server/seed/parse.js'
import { startServer } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * A seed's groups may declare labels and milestones, as `POST /groups/:id/labels` and
 * `/milestones` make them: the issues of projects below use them by name, as GitLab's
 * `available_labels` and milestones of the groups above a project offer them.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - path: acme
    labels: [ { name: bug, color: '#ff0000', description: Broken } ]
    milestones: [ { title: v1, due_date: 2026-06-30 } ]
  - path: acme/team
    labels: [ { name: ux } ]
projects:
  - path: acme/team/app
    labels: [ { name: local } ]
    issues:
      - { title: One, labels: [bug, ux, local], milestone: v1 }
`
type Json = Record<string, unknown>

/** The message `parseSeed` throws, or `ok`. */
function problem(text: string): string {
  try {
    parseSeed(text, 'seed.yaml')
    return 'ok'
  } catch (err) {
    if (!(err instanceof SeedError)) throw err
    return err.message
  }
}

it('makes group labels and milestones that issues below use; a reset brings them back', async () => {
  const t = await startServer(seed)
  try {
    const labels = await t.http('GET', '/api/v4/groups/acme/labels', { token: ROOT })
    expect(labels.status).toBe(200)
    expect((labels.body as Json[]).map((l) => [l.name, l.color, l.description])).toEqual([
      ['bug', '#ff0000', 'Broken'],
    ])
    const milestones = (await t.http('GET', '/api/v4/groups/acme/milestones', { token: ROOT })).body as Json[]
    expect(milestones).toMatchObject([{ iid: 1, title: 'v1', due_date: '2026-06-30', state: 'active' }])
    const issue = async () =>
      (await t.http('GET', '/api/v4/projects/acme%2Fteam%2Fapp/issues/1', { token: ROOT })).body as Json
    expect((await issue()).labels).toEqual(['bug', 'local', 'ux'])
    expect((await issue()).milestone).toMatchObject({ id: milestones[0]!.id, group_id: expect.any(Number) })
    await t.http('DELETE', '/api/v4/groups/acme/labels/bug', { token: ROOT })
    expect((await issue()).labels).toEqual(['local', 'ux'])
    t.server.reset()
    expect((await issue()).labels).toEqual(['bug', 'local', 'ux'])
    const owners = inspectDb(t.server.store)
      .prepare('SELECT title, project_id IS NULL AS group_owned FROM labels ORDER BY title')
      .all()
    expect(owners).toEqual([
      { title: 'bug', group_owned: 1 },
      { title: 'local', group_owned: 0 },
      { title: 'ux', group_owned: 1 },
    ])
  } finally {
    await t.close()
  }
})

it('refuses duplicate group labels and milestones, bad dates, and labels no group above offers', () => {
  expect(problem(seed)).toBe('ok')
  expect(problem(seed.replace('[ { name: ux } ]', '[ { name: ux }, { name: ux } ]'))).toBe(
    'seed.yaml: groups[1].labels[1].name: duplicate label ux',
  )
  expect(
    problem(
      seed.replace(
        '[ { title: v1, due_date: 2026-06-30 } ]',
        '[ { title: v1 }, { title: v1, due_date: 2026-02-30 } ]',
      ),
    ),
  ).toMatch(/groups\[0\]\.milestones\[1\]\.(title: duplicate milestone v1|due_date: invalid date 2026-02-30)/)
  // A sibling group's labels are not the project's.
  const sibling = seed
    .replace(
      '  - path: acme/team\n',
      '  - path: acme/other\n    labels: [ { name: far } ]\n  - path: acme/team\n',
    )
    .replace('labels: [bug, ux, local]', 'labels: [bug, far]')
  expect(problem(sibling)).toMatch(/projects\[0\]\.issues\[0\]\.labels\[1\]: unknown label far/)
})

it('POST /-/emulator/seed adds labels and milestones to a group that exists; one it has is a duplicate', async () => {
  const t = await startServer(seed)
  try {
    const post = (body: string) =>
      t.http('POST', '/-/emulator/seed', {
        token: ROOT,
        headers: { 'content-type': 'application/yaml' },
        form: body,
      })
    const added = await post(`
groups:
  - path: acme
    labels: [ { name: triage } ]
projects:
  - path: acme/team/app
    issues: [ { title: Two, labels: [triage, ux], milestone: v1 } ]
`)
    expect(added.status).toBe(201)
    const two = (await t.http('GET', '/api/v4/projects/acme%2Fteam%2Fapp/issues/2', { token: ROOT }))
      .body as Json
    expect(two.labels).toEqual(['triage', 'ux'])
    expect((two.milestone as Json).title).toBe('v1')
    const before = inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM labels').get()
    const again = await post('groups:\n  - path: acme\n    labels: [ { name: bug } ]\n')
    expect(again.status).toBe(400)
    expect(JSON.stringify(again.body)).toContain('groups[0].labels[0].name: duplicate label bug')
    expect(inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM labels').get()).toEqual(before)
  } finally {
    await t.close()
  }
})
