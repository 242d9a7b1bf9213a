import { collect } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { widgetsSeed } from '../support/seeds.js'

/* `client.groups` writes against the reference server, every body checked against src/schema. */

const { as } = clientsOnSeed(widgetsSeed)

it('creates a group and a subgroup, lists, edits, moves, shares and removes them', async () => {
  const alice = as('glpat-alice-token')
  const tools = await alice.groups.create({ name: 'Tools', path: 'tools', visibility: 'internal' })
  expect(tools).toMatchObject({ full_path: 'tools', visibility: 'internal', shared_with_groups: [] })
  const cli = await alice.groups.create({ name: 'CLI', path: 'cli', parent_id: tools.id })
  expect(cli).toMatchObject({ full_path: 'tools/cli', parent_id: tools.id, full_name: 'Tools / CLI' })
  expect((await collect(alice.groups.subgroups(tools.id))).map((g) => g.full_path)).toEqual(['tools/cli'])
  expect(await alice.groups.edit(cli.id, { description: 'Command line' })).toMatchObject({
    description: 'Command line',
  })
  expect((await collect(alice.groups.transferLocations(cli.id))).map((g) => g.full_path)).toEqual([
    'acme',
    'acme/platform',
  ])
  const moved = await alice.groups.transfer(cli.id, (await alice.groups.get('acme')).id)
  expect(moved).toMatchObject({ full_path: 'acme/cli', visibility: 'private' })
  expect((await collect(alice.groups.descendantGroups('acme'))).map((g) => g.full_path)).toEqual([
    'acme/cli',
    'acme/platform',
  ])
  const shared = await alice.groups.share(tools.id, { group_id: moved.id, group_access: 30 })
  expect(shared.shared_with_groups).toMatchObject([{ group_id: moved.id, group_access_level: 30 }])
  await alice.groups.unshare(tools.id, moved.id)
  expect(await alice.groups.remove(moved.id)).toEqual({ message: '202 Accepted' })
  const marked = await alice.groups.get(moved.id)
  expect(marked.marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  await alice.groups.remove(moved.id, { permanently_remove: true, full_path: marked.full_path })
  expect(await apiFailure(alice.groups.get(moved.id))).toMatchObject({
    status: 404,
    body: { message: '404 Group Not Found' },
  })
})

it("refuses with GitLab's bodies", async () => {
  const bob = as('glpat-bob-token')
  expect(await apiFailure(bob.groups.create({ name: 'Sub', path: 'sub', parent_id: 1 }))).toMatchObject({
    status: 404,
  })
  const alice = as('glpat-alice-token')
  expect(await apiFailure(alice.groups.create({ name: 'ACME', path: 'acme' }))).toMatchObject({
    status: 400,
    body: { message: 'Failed to save group {:path=>["has already been taken"]}' },
  })
  expect(await apiFailure(alice.groups.edit('acme', { name: 'Mine' }))).toMatchObject({
    status: 403,
    body: { message: '403 Forbidden' },
  })
})
