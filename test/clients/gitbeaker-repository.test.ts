/*
 * A repository worked through gitbeaker as its users work one (`Branches`, `RepositoryFiles`,
 * `Commits`, `Repositories.allRepositoryTrees` with its keyset pages, `Tags`, `ProtectedBranches`):
 * the client must not notice it is not GitLab.
 */
import { Gitlab } from '@gitbeaker/rest'
import { serverEach } from '../support/server.js'
import { MARK, RITA, repositorySeed } from '../support/repository-seed.js'

const t = serverEach(repositorySeed)
let mark: InstanceType<typeof Gitlab>
let rita: InstanceType<typeof Gitlab>
beforeEach(() => {
  mark = new Gitlab({ host: t.baseUrl, token: MARK })
  rita = new Gitlab({ host: t.baseUrl, token: RITA })
})

it('creates a branch, commits files, reads them back, walks the tree and tags the result', async () => {
  expect(await mark.Branches.create('acme/app', 'feature/ci', 'main')).toMatchObject({ name: 'feature/ci' })
  await mark.RepositoryFiles.create(
    'acme/app',
    '.gitlab-ci.yml',
    'feature/ci',
    'build:\n  script: [make]\n',
    'Add CI',
  )
  const file = await rita.RepositoryFiles.show('acme/app', '.gitlab-ci.yml', 'feature/ci')
  expect(Buffer.from(file.content, 'base64').toString()).toBe('build:\n  script: [make]\n')
  await mark.RepositoryFiles.edit(
    'acme/app',
    '.gitlab-ci.yml',
    'feature/ci',
    'build:\n  script: [make all]\n',
    'Edit',
    {
      lastCommitId: String(file.last_commit_id),
    },
  )
  expect(await rita.RepositoryFiles.showRaw('acme/app', '.gitlab-ci.yml', 'feature/ci')).toBe(
    'build:\n  script: [make all]\n',
  )
  const commit = await mark.Commits.create('acme/app', 'feature/ci', 'Docs', [
    { action: 'create', filePath: 'docs/a.md', content: 'a' },
    {
      action: 'create',
      filePath: 'docs/b.md',
      content: Buffer.from('b').toString('base64'),
      encoding: 'base64',
    },
  ])
  expect(commit).toMatchObject({ title: 'Docs', stats: { additions: 2, deletions: 0, total: 2 } })
  expect(await rita.Commits.show('acme/app', commit.id)).toMatchObject({
    id: commit.id,
    parent_ids: [expect.any(String)],
  })
  const commits = await rita.Commits.all('acme/app', { refName: 'feature/ci' })
  expect(commits.map((c) => c.title)).toEqual(['Docs', 'Edit', 'Add CI', 'main'])
  const tree = await rita.Repositories.allRepositoryTrees('acme/app', {
    ref: 'feature/ci',
    recursive: true,
    perPage: 2,
  })
  expect(tree.map((e) => e.path)).toEqual(['docs', '.gitlab-ci.yml', 'docs/a.md', 'docs/b.md'])
  await mark.RepositoryFiles.remove('acme/app', 'docs/b.md', 'feature/ci', 'Remove b')
  await expect(rita.RepositoryFiles.show('acme/app', 'docs/b.md', 'feature/ci')).rejects.toThrow()

  const tag = await mark.Tags.create('acme/app', 'v1.0', 'feature/ci', { message: 'First' })
  expect(tag).toMatchObject({ name: 'v1.0', message: 'First', commit: { title: 'Remove b' } })
  expect((await rita.Tags.all('acme/app')).map((x) => x.name)).toEqual(['v1.0'])
})

it('protects a branch pattern, lists branches and deletes one', async () => {
  await mark.Branches.create('acme/app', 'release/1', 'main')
  const rule = await mark.ProtectedBranches.protect('acme/app', 'release/*', { pushAccessLevel: 30 })
  expect(rule).toMatchObject({ name: 'release/*', push_access_levels: [{ access_level: 30 }] })
  expect((await mark.ProtectedBranches.all('acme/app')).map((p) => p.name)).toEqual(['main', 'release/*'])
  expect(await rita.Branches.show('acme/app', 'release/1')).toMatchObject({
    protected: true,
    developers_can_push: true,
  })
  expect((await rita.Branches.all('acme/app', { search: 'rel' })).map((b) => b.name)).toEqual(['release/1'])
  await mark.ProtectedBranches.unprotect('acme/app', 'release/*')
  await mark.Branches.remove('acme/app', 'release/1')
  expect((await rita.Branches.all('acme/app')).map((b) => b.name)).toEqual(['develop', 'main'])
})
