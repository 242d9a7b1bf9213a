import { collect, NOT_MODIFIED } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { widgetsSeed } from '../support/seeds.js'

/* `client.projects`' writes against the reference server, every body checked against src/schema. */

const { as } = clientsOnSeed(widgetsSeed)

it('creates, edits, archives, transfers, shares and deletes a project', async () => {
  const alice = as('glpat-alice-token')
  const root = as('glpat-root-token')
  const made = await alice.projects.create({
    name: 'Client Made',
    topics: ['api'],
    initialize_with_readme: true,
  })
  expect(made).toMatchObject({
    path_with_namespace: 'alice/client-made',
    topics: ['api'],
    default_branch: 'main',
  })
  expect(await alice.projects.edit(made.id, { description: 'Edited' })).toMatchObject({
    description: 'Edited',
  })
  expect(await alice.projects.archive(made.id)).toMatchObject({ archived: true })
  expect(await alice.projects.unarchive(made.id)).toMatchObject({ archived: false })
  const moved = await alice.projects.transfer(made.id, 'acme')
  expect(moved).toMatchObject({ path_with_namespace: 'acme/client-made' })
  const platform = (await root.groups.get('acme/platform')).id
  expect(await root.projects.share(made.id, { group_id: platform, group_access: 30 })).toMatchObject({
    group_id: platform,
    group_access: 30,
    expires_at: null,
  })
  await root.projects.unshare(made.id, platform)
  const rootTool = await root.projects.createForUser((await root.users.current()).id, { name: 'Root Tool' })
  expect(rootTool).toMatchObject({ path_with_namespace: 'root/root-tool' })
  expect((await collect(root.projects.listForUser('root'))).map((p) => p.path)).toEqual(['root-tool'])
  expect(await root.projects.remove(made.id)).toEqual({ message: '202 Accepted' })
  const marked = await root.projects.get(made.id)
  expect(marked.marked_for_deletion_at).not.toBeNull()
  await root.projects.remove(made.id, { permanently_remove: true, full_path: marked.path_with_namespace })
  expect(await apiFailure(root.projects.get(made.id))).toMatchObject({
    status: 404,
    body: { message: '404 Project Not Found' },
  })
})

it("refuses a taken path with GitLab's body", async () => {
  const alice = as('glpat-alice-token')
  const acme = (await alice.groups.get('acme')).id
  expect(await apiFailure(alice.projects.create({ path: 'widgets', namespace_id: acme }))).toMatchObject({
    status: 400,
    body: { message: { path: ['has already been taken'] } },
  })
})

it('forks a project, lists its forks, unlinks and links the fork again', async () => {
  const alice = as('glpat-alice-token')
  const source = await alice.projects.get('acme/widgets')
  const fork = await alice.projects.fork('acme/widgets', { path: 'widgets-fork', name: 'Widgets fork' })
  expect(fork).toMatchObject({
    path_with_namespace: 'alice/widgets-fork',
    import_status: 'scheduled',
    forked_from_project: { id: source.id, path_with_namespace: 'acme/widgets' },
  })
  expect((await collect(alice.projects.forks('acme/widgets', { search: 'fork' }))).map((p) => p.id)).toEqual([
    fork.id,
  ])
  expect(await alice.projects.unlinkFork(fork.id)).toBeUndefined()
  expect(await alice.projects.unlinkFork(fork.id)).toBe(NOT_MODIFIED)
  expect((await alice.projects.get(fork.id)).forked_from_project).toBeUndefined()
  expect(await alice.projects.linkFork(fork.id, source.id)).toMatchObject({
    forked_from_project: { id: source.id },
  })
  expect(await apiFailure(alice.projects.fork('acme/widgets', { namespace_path: 'acme' }))).toMatchObject({
    status: 409,
    body: {
      message: [
        'Project namespace name has already been taken',
        'Name has already been taken',
        'Path has already been taken',
      ],
    },
  })
})
