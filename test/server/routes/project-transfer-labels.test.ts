import { serverResetEach } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * `PUT /projects/:id/transfer` with issues that use the old group's labels and milestones
 * (`Projects::TransferService#update_group_labels`/`#update_group_milestones`,
 * app/services/labels/transfer_service.rb, app/services/milestones/transfer_service.rb): each such
 * label becomes a project label of the same title, colour and description, unless the new namespace
 * offers one of that title; each such milestone a project milestone of the same title, description and
 * dates, unless the project has one of that title. The issues follow; the group's own stay as they were.
 */

const OWEN = 'glpat-owen-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: owen, name: Owen, token: ${OWEN} }
groups:
  - { path: acme, name: ACME, members: { owen: owner } }
  - { path: acme/team, name: Team }
  - { path: labs, name: Labs, members: { owen: owner } }
projects:
  - path: acme/team/app
    issues:
      - { title: One, author: owen }
      - { title: Two, author: owen }
  - path: acme/team/other
    issues:
      - { title: Elsewhere, author: owen }
`
type Json = Record<string, unknown>
const t = serverResetEach(seed)

const post = async (path: string, json: Json) => {
  const res = await t.http('POST', `/api/v4/${path}`, { token: OWEN, json })
  expect(res.status).toBe(201)
  return res.body as Json & { id: number }
}
const put = async (path: string, json: Json) => {
  const res = await t.http('PUT', `/api/v4/${path}`, { token: OWEN, json })
  expect(res.status).toBe(200)
  return res.body as Json
}
const get = async (path: string) => (await t.http('GET', `/api/v4/${path}`, { token: OWEN })).body as Json
const rows = (sql: string) => inspectDb(t.server.store).prepare(sql).all()

it('copies the old group labels the issues use to the project, and moves group milestones to project milestones', async () => {
  await post('groups/acme/labels', { name: 'bug', color: '#ff0000', description: 'Broken' })
  await post('groups/acme%2Fteam/labels', { name: 'ux', color: '#00ff00' })
  await post('groups/acme/labels', { name: 'unused', color: '#0000ff' })
  // The new group has its own "ux": the issues take that one.
  const labsUx = await post('groups/labs/labels', { name: 'ux', color: '#123456' })
  const sprint = await post('groups/acme/milestones', {
    title: 'Sprint 1',
    description: 'First',
    start_date: '2026-01-01',
    due_date: '2026-01-31',
  })
  const app = 'projects/acme%2Fteam%2Fapp'
  await put(`${app}/issues/1`, { labels: 'bug,ux', milestone_id: sprint.id })
  await put(`${app}/issues/2`, { milestone_id: sprint.id })
  await put('projects/acme%2Fteam%2Fother/issues/1', { labels: 'bug', milestone_id: sprint.id })

  const moved = await t.http('PUT', `/api/v4/${app}/transfer`, { token: OWEN, json: { namespace: 'labs' } })
  expect(moved.status).toBe(200)
  const project = 'projects/labs%2Fapp'

  const labels = (await t.http('GET', `/api/v4/${project}/labels`, { token: OWEN })).body as Json[]
  expect(labels.map((l) => [l.name, l.color, l.description, l.is_project_label])).toEqual([
    ['bug', '#ff0000', 'Broken', true],
    ['ux', '#123456', null, false],
  ])
  const one = await get(`${project}/issues/1`)
  expect(one.labels).toEqual(['bug', 'ux'])
  const milestone = one.milestone as Json
  expect(milestone).toMatchObject({
    iid: 1,
    project_id: moved.body && (moved.body as Json).id,
    title: 'Sprint 1',
    description: 'First',
    start_date: '2026-01-01',
    due_date: '2026-01-31',
    state: 'active',
  })
  expect(milestone).not.toHaveProperty('group_id')
  expect(((await get(`${project}/issues/2`)).milestone as Json).id).toBe(milestone.id)
  const projectMilestones = (await t.http('GET', `/api/v4/${project}/milestones`, { token: OWEN }))
    .body as Json[]
  expect(projectMilestones.map((m) => m.title)).toEqual(['Sprint 1'])

  // The labels now on issue 1 are the project's copy and labs' own ux.
  const issueLabels = rows(
    `SELECT l.title, l.project_id IS NOT NULL AS own, l.group_id FROM issue_labels il
     JOIN labels l ON l.id = il.label_id JOIN issues i ON i.id = il.issue_id
     JOIN projects p ON p.id = i.project_id WHERE p.full_path = 'labs/app' ORDER BY l.title`,
  )
  expect(issueLabels).toEqual([
    { title: 'bug', own: 1, group_id: null },
    {
      title: 'ux',
      own: 0,
      group_id: (rows('SELECT group_id FROM labels WHERE id = ' + String(labsUx.id))[0] as Json).group_id,
    },
  ])
  // The group's label and milestone stay, and the other project's issue keeps them.
  const other = await get('projects/acme%2Fteam%2Fother/issues/1')
  expect(other.labels).toEqual(['bug'])
  expect((other.milestone as Json).id).toBe(sprint.id)
  expect(
    ((await t.http('GET', '/api/v4/groups/acme/labels', { token: OWEN })).body as Json[]).map((l) => l.name),
  ).toEqual(['bug', 'unused'])
})

it('a transfer within the group hierarchy keeps the group labels and milestones the project still sees', async () => {
  const bug = await post('groups/acme/labels', { name: 'bug', color: '#ff0000' })
  const sprint = await post('groups/acme/milestones', { title: 'Sprint 1' })
  const app = 'projects/acme%2Fteam%2Fapp'
  await put(`${app}/issues/1`, { labels: 'bug', milestone_id: sprint.id })
  const moved = await t.http('PUT', `/api/v4/${app}/transfer`, { token: OWEN, json: { namespace: 'acme' } })
  expect(moved.status).toBe(200)
  const one = await get('projects/acme%2Fapp/issues/1')
  expect(one.labels).toEqual(['bug'])
  expect(rows("SELECT id FROM labels WHERE title = 'bug'")).toEqual([{ id: bug.id }])
  // Milestones::FindOrCreateService finds the group's milestone from the new place too.
  expect((one.milestone as Json).id).toBe(sprint.id)
  expect(rows('SELECT COUNT(*) AS n FROM milestones')).toEqual([{ n: 1 }])
})
