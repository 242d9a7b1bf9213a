/*
 * Projects built through the API as gitbeaker's users build them (`Projects.create`, `edit`,
 * `remove`, `archive`, `transfer`, `share`, `Users.allProjects`, `fork` and its relation): the
 * client must not notice it is not GitLab, and an issue, a trigger, an export and CI/CD variables
 * (`ProjectVariables`) work in the project it made.
 */
import { Gitlab } from '@gitbeaker/rest'
import { serverEach } from '../support/server.js'
import { refusal } from '../support/gitbeaker.js'
import { inspectDb } from '../../src/server/store/inspect.js'

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
groups:
  - { path: acme, name: ACME, visibility: private, members: { alice: owner } }
`

const t = serverEach(seed)
let alice: InstanceType<typeof Gitlab>
beforeEach(() => {
  alice = new Gitlab({ host: t.baseUrl, token: 'glpat-alice-token' })
})

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
  // No `.gitlab-ci.yml` yet: GitLab refuses the pipeline (`Missing CI config file`) and keeps none.
  expect(
    await refusal(alice.PipelineTriggerTokens.trigger(made.id, 'main', trigger.token as string)),
  ).toEqual([400, expect.stringContaining('Missing CI config file')])
  expect(await alice.Pipelines.all(made.id)).toEqual([])
  await alice.RepositoryFiles.create(
    made.id,
    '.gitlab-ci.yml',
    'main',
    'build:\n  script: echo build\n',
    'Add CI',
  )
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

it('exports a project made through the API with its first commit, and imports it into another', async () => {
  const made = await alice.Projects.create({ name: 'Source', initializeWithReadme: true })
  await alice.Issues.create(made.id, 'Carried over')
  const waitFor = async (path: string, key: string, done: string[]) => {
    let value = ''
    for (let i = 0; i < 500 && !done.includes(value); i++)
      value = ((await t.http('GET', path, { token: 'glpat-alice-token' })).body as Record<string, string>)[
        key
      ]!
    return value
  }
  await alice.ProjectImportExports.scheduleExport(made.id, undefined as never)
  expect(await waitFor(`/api/v4/projects/${made.id}/export`, 'export_status', ['finished', 'failed'])).toBe(
    'finished',
  )
  const archive = await alice.ProjectImportExports.download(made.id)
  const imported = await alice.ProjectImportExports.import(
    { content: archive, filename: 'source_export.tar.gz' },
    'copy',
    { namespace: 'acme', name: 'Copy' },
  )
  expect(imported).toMatchObject({ path_with_namespace: 'acme/copy' })
  expect(await waitFor('/api/v4/projects/acme%2Fcopy/import', 'import_status', ['finished', 'failed'])).toBe(
    'finished',
  )
  expect((await alice.Issues.all({ projectId: 'acme/copy' })).map((i) => [i.iid, i.title])).toEqual([
    [1, 'Carried over'],
  ])
  // The first commit travelled in project.bundle: the copy's branch is at the same commit.
  const refs = inspectDb(t.server.store).prepare(
    'SELECT p.full_path, r.kind, r.name, r.sha FROM project_refs r JOIN projects p ON p.id = r.project_id ORDER BY p.id',
  )
  const [from, to] = refs.all() as { full_path: string; kind: string; name: string; sha: string }[]
  expect(from).toMatchObject({ full_path: 'alice/Source', kind: 'branch', name: 'main' })
  expect(to).toEqual({ ...from, full_path: 'acme/copy' })
  const copy = await t.http('GET', '/api/v4/projects/acme%2Fcopy', { token: 'glpat-alice-token' })
  expect(copy.body).toMatchObject({ default_branch: 'main' })
})

it('forks a project through gitbeaker: fork, allForks, removeForkRelationship, createForkRelationship', async () => {
  const source = await alice.Projects.create({
    name: 'Upstream',
    namespaceId: (await alice.Groups.show('acme')).id,
    initializeWithReadme: true,
  })
  const fork = await alice.Projects.fork(source.id, { path: 'my-upstream', name: 'My upstream' })
  expect(fork).toMatchObject({
    path_with_namespace: 'alice/my-upstream',
    import_status: 'scheduled',
    forked_from_project: { id: source.id },
  })
  expect((await alice.Projects.allForks(source.id)).map((p) => p.id)).toEqual([fork.id])
  expect(await alice.Branches.all(fork.id)).toMatchObject([{ name: 'main', protected: true }])
  await alice.Projects.removeForkRelationship(fork.id)
  expect(await alice.Projects.show(fork.id)).not.toHaveProperty('forked_from_project')
  expect(await alice.Projects.createForkRelationship(fork.id, source.id)).toMatchObject({
    forked_from_project: { id: source.id },
  })
  expect(await refusal(alice.Projects.fork(source.id, { namespacePath: 'acme' }))).toEqual([
    409,
    expect.stringContaining('Path has already been taken'),
  ])
})

it("works a project's CI/CD variables through gitbeaker's ProjectVariables, environment scopes filtered", async () => {
  const made = await alice.Projects.create({ name: 'Vars' })
  await alice.ProjectVariables.create(made.id, 'URL', 'https://prod', { environmentScope: 'production' })
  await alice.ProjectVariables.create(made.id, 'URL', 'https://stage', { environmentScope: 'staging' })
  const masked = await alice.ProjectVariables.create(made.id, 'TOKEN', 'abcdefgh12', {
    masked: true,
    raw: true,
  })
  expect(masked).toMatchObject({ key: 'TOKEN', masked: true, raw: true, variable_type: 'env_var' })
  expect((await alice.ProjectVariables.all(made.id)).map((v) => v.key)).toEqual(['URL', 'URL', 'TOKEN'])
  expect(await refusal(alice.ProjectVariables.show(made.id, 'URL'))).toEqual([
    409,
    "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
  ])
  const stage = await alice.ProjectVariables.show(made.id, 'URL', {
    filter: { environment_scope: 'staging' },
  })
  expect(stage.value).toBe('https://stage')
  const edited = await alice.ProjectVariables.edit(made.id, 'URL', 'https://prod2', {
    filter: { environment_scope: 'production' },
  })
  expect(edited).toMatchObject({ value: 'https://prod2', environment_scope: 'production' })
  await alice.ProjectVariables.remove(made.id, 'URL', { filter: { environment_scope: 'staging' } })
  await alice.ProjectVariables.remove(made.id, 'TOKEN')
  expect((await alice.ProjectVariables.all(made.id)).map((v) => v.value)).toEqual(['https://prod2'])
})
