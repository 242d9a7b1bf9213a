/*
 * @gitbeaker/rest builds groups through the API as a suite's fixtures do: a group, a subgroup,
 * an edit and a removal (two calls from 18.0: mark, then permanently_remove with the full path).
 */
import { Gitlab } from '@gitbeaker/rest'
import { serverEach } from '../support/server.js'

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
`

const t = serverEach(seed)
let alice: InstanceType<typeof Gitlab>
beforeEach(() => {
  alice = new Gitlab({ host: t.baseUrl, token: 'glpat-alice-token' })
})

it('Groups.create, a subgroup, Groups.edit, Groups.allSubgroups and Groups.remove', async () => {
  const group = await alice.Groups.create('Suite', 'suite', { description: 'Made by a suite' })
  expect(group).toMatchObject({ name: 'Suite', full_path: 'suite', description: 'Made by a suite' })
  const sub = await alice.Groups.create('Team', 'team', {
    parentId: group.id as number,
    visibility: 'private',
  })
  expect(sub).toMatchObject({ full_path: 'suite/team', parent_id: group.id })
  const edited = await alice.Groups.edit(sub.id as number, { name: 'Team A', path: 'team-a' })
  expect(edited).toMatchObject({ name: 'Team A', full_path: 'suite/team-a' })
  expect((await alice.Groups.allSubgroups(group.id as number)).map((g) => g.full_path)).toEqual([
    'suite/team-a',
  ])
  await alice.Groups.remove(sub.id as number)
  const marked = await alice.Groups.show(sub.id as number)
  expect(marked.marked_for_deletion_on).not.toBeNull()
  await alice.Groups.remove(sub.id as number, {
    permanentlyRemove: true,
    fullPath: marked.full_path as string,
  })
  const err = (await alice.Groups.show(sub.id as number).then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: { response?: { status: number } } }
  expect(err.cause?.response?.status).toBe(404)
  const taken = (await alice.Groups.create('Suite', 'suite').then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: { description?: string; response?: { status: number } } }
  expect([taken.cause?.response?.status, taken.cause?.description]).toEqual([
    400,
    'Failed to save group {:path=>["has already been taken"]}',
  ])
})
