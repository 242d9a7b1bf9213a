/*
 * Projects built through the API as gitbeaker's users build them (`Projects.create`, `edit`,
 * `remove`, `archive`, `transfer`, `share`, `Users.allProjects`): the client must not notice it is
 * not GitLab, and an issue, a trigger and an export work in the project it made.
 */
import { Gitlab } from '@gitbeaker/rest'
import { startServer, type TestServer } from '../support/server.js'

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
groups:
  - { path: acme, name: ACME, visibility: private, members: { alice: owner } }
`

let t: TestServer
let alice: InstanceType<typeof Gitlab>
beforeEach(async () => {
  t = await startServer(seed)
  alice = new Gitlab({ host: t.baseUrl, token: 'glpat-alice-token' })
})
afterEach(() => t.close())

it('creates, edits, archives, transfers and removes a project through gitbeaker', async () => {
  const made = await alice.Projects.create({ name: 'Beaker App', initializeWithReadme: true, topics: ['x'] })
  expect(made).toMatchObject({
    path_with_namespace: 'alice/beaker-app',
    default_branch: 'main',
    topics: ['x'],
  })
  const edited = await alice.Projects.edit(made.id, { description: 'From gitbeaker', name: 'Beaker App 2' })
  expect(edited).toMatchObject({ description: 'From gitbeaker', name: 'Beaker App 2' })
  expect(await alice.Projects.archive(made.id)).toMatchObject({ archived: true })
  expect(await alice.Projects.unarchive(made.id)).toMatchObject({ archived: false })
  expect(await alice.Projects.transfer(made.id, 'acme')).toMatchObject({
    path_with_namespace: 'acme/beaker-app',
  })
  expect((await alice.Users.allProjects('alice')).length).toBe(0)

  const issue = await alice.Issues.create(made.id, 'In a made project')
  expect(issue).toMatchObject({ iid: 1, references: { full: 'acme/beaker-app#1' } })
  const trigger = await alice.PipelineTriggerTokens.create(made.id, 'deploy')
  const pipeline = await alice.PipelineTriggerTokens.trigger(made.id, 'main', trigger.token as string)
  expect(pipeline).toMatchObject({ ref: 'main', source: 'trigger' })

  await alice.Projects.remove(made.id)
  expect(await alice.Projects.show(made.id)).toMatchObject({ marked_for_deletion_on: expect.any(String) })
  const full = ((await alice.Projects.show(made.id)) as { path_with_namespace: string }).path_with_namespace
  await alice.Projects.remove(made.id, { permanentlyRemove: true, fullPath: full })
  const gone = await alice.Projects.show(made.id).then(
    () => undefined,
    (e: { cause?: { response?: { status: number } } }) => e.cause?.response?.status,
  )
  expect(gone).toBe(404)
})
