/*
 * python-gitlab (Debian's python3-gitlab), the client most GitLab test suites use, builds labels,
 * milestones and an issue under them against the reference server (python_gitlab_world.py), and,
 * from a fresh instance (`seed: 'none'`), a user with a personal access token, and a whole world
 * (python_gitlab_whole_world.py: users, groups, members, a project and its issue sub-resources, a
 * reporter's reads and refusals, export, import and trigger), and a repository worked as a suite
 * works one (python_gitlab_repository.py: branches, files, commits, tree, tags, compare, diffs,
 * merge base, blobs, archives, branch and tag protection), and `public_jobs` turned off
 * (python_gitlab_public_jobs.py), and a file blamed (python_gitlab_blame.py), and a commit commented
 * on (python_gitlab_commit_comments.py), and a project forked
 * (python_gitlab_forks.py), and a user made external (python_gitlab_external.py), and CI/CD variables
 * worked and read by a pipeline's rules (python_gitlab_variables.py), and a group's too
 * (python_gitlab_group_variables.py), and the instance's (python_gitlab_instance_variables.py), and pipeline
 * schedules (python_gitlab_pipeline_schedules.py), and a project archived (python_gitlab_archived.py). A contributor's
 * machine needs the package (CONTRIBUTING.md): without
 * it the test fails and says so.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { pythonWithGitlab } from '../support/python-gitlab.js'
import { startServer, type TestServer } from '../support/server.js'
import { startServer as startEmulator } from '../../src/server/start/start-server.js'
import { wholeWorldAnswers } from '../support/whole-world.js'
import { externalUsersSeed } from '../support/seeds.js'

const run = promisify(execFile)
const SCRIPT = join(__dirname, 'python_gitlab_world.py')
const WHOLE_WORLD = join(__dirname, 'python_gitlab_whole_world.py')
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: rita, token: glpat-rita-token }
  - { username: gus, token: glpat-gus-token }
groups:
  - { path: acme, visibility: private, members: { rita: reporter, gus: guest } }
projects:
  - path: acme/widgets
    visibility: private
    labels: [ { name: bug, color: "#d9534f" } ]
`

/** What `script` prints run against a fresh instance (`seed: 'none'`, as root), the same again after a reset. */
async function twiceAroundReset(script: string): Promise<unknown> {
  const python = await pythonWithGitlab()
  const emulator = await startEmulator({ seed: 'none' })
  try {
    const world = async () => {
      const { stdout } = await run(python, [script], {
        env: { ...process.env, GITLAB_URL: emulator.url, GITLAB_TOKEN: emulator.token ?? '' },
        timeout: 60_000,
      })
      return JSON.parse(stdout) as unknown
    }
    const first = await world()
    await emulator.reset()
    expect(await world()).toEqual(first)
    return first
  } finally {
    await emulator.close()
  }
}

let t: TestServer
beforeEach(async () => {
  t = await startServer(seed)
})
afterEach(() => t.close())

/** What `script` prints run in acme/widgets as `token`'s user, the same again after a reset of the seeded server. */
async function inWidgetsAroundReset(script: string, token: string): Promise<unknown> {
  const python = await pythonWithGitlab()
  const world = async () => {
    const { stdout } = await run(python, [script], {
      env: {
        ...process.env,
        GITLAB_URL: t.baseUrl,
        GITLAB_TOKEN: token,
        GITLAB_GUEST_TOKEN: 'glpat-gus-token',
        GITLAB_PROJECT: 'acme/widgets',
      },
      timeout: 60_000,
    })
    return JSON.parse(stdout) as unknown
  }
  const first = await world()
  await t.server.reset()
  expect(await world()).toEqual(first)
  return first
}

it('python-gitlab creates labels and milestones and files an issue under them, again after a reset', async () => {
  const first = await inWidgetsAroundReset(SCRIPT, 'glpat-rita-token')
  expect(first).toEqual({
    label: { name: 'from python', color: '#008080', description: 'Made by python-gitlab' },
    label_saved: { color: '#0000FF', priority: 2 },
    subscribed: true,
    milestone: { iid: 1, title: 'Py 1', state: 'active' },
    issue: { labels: ['from python'], milestone: 'Py 1' },
    milestone_issues: ['Filed by python'],
    filtered: ['Filed by python'],
    closed: ['Py 1'],
    taken: [409, 'Label already exists'],
  })
}, 90_000)

it('python-gitlab starts from a fresh instance as root, makes a user and a token that works, again after a reset', async () => {
  const first = await twiceAroundReset(SCRIPT)
  expect(first).toEqual({
    root: { username: 'root', is_admin: true },
    user: { username: 'pat', name: 'Pat', bio: 'QA', state: 'active' },
    token: { name: 'suite', scopes: ['api'], active: true },
    as_user: { username: 'pat', is_admin: false },
    not_admin: [403, '403 Forbidden'],
    taken: [409, 'Email has already been taken'],
    blocked: 401,
  })
}, 90_000)

it('python-gitlab builds a whole world from a fresh instance, reads and is refused as a reporter, exports, imports and triggers, the same after a reset', async () => {
  expect(await twiceAroundReset(WHOLE_WORLD)).toEqual(wholeWorldAnswers)
}, 120_000)

it('python-gitlab works a repository: branches, files, commits with actions, the tree, tags, compare, diffs, blobs, archives and protection, again after a reset', async () => {
  const first = await inWidgetsAroundReset(join(__dirname, 'python_gitlab_repository.py'), 'glpat-root-token')
  expect(first).toEqual({
    branch: { name: 'feature', protected: false, merged: true },
    file: { name: '.gitlab-ci.yml', text: 'build:\n  script: [make]\n', size: 24 },
    raw: 'build:\n  script: [make test]\n',
    taken: [400, 'A file with this name already exists'],
    commit: { title: 'Two files', stats: { additions: 2, deletions: 0, total: 2 } },
    commits: ['Two files', 'Update CI', 'Add CI', 'main'],
    tree: ['docs', '.gitlab-ci.yml', 'docs/a.md', 'docs/b.md'],
    after_delete: ['docs/a.md'],
    tag: { name: 'v1.0', message: 'First', commit: 'Remove b' },
    compare: {
      commits: ['Add CI', 'Update CI', 'Two files', 'Remove b'],
      diffs: [
        ['.gitlab-ci.yml', true, '@@ -0,0 +1,2 @@\n+build:\n+  script: [make test]\n'],
        ['docs/a.md', true, '@@ -0,0 +1 @@\n+a\n'],
      ],
    },
    diff: ['@@ -0,0 +1 @@\n+a\n', '@@ -0,0 +1 @@\n+b\n'],
    merge_base: 'main',
    blob: [2, 'a\n'],
    archive: ['', '.gitlab-ci.yml', 'docs/', 'docs/a.md'],
    protected_tags: [['v*', 0]],
    refused_tag: [400, 'You are not allowed to create this tag as it is protected.'],
    protected: ['feature', 30],
    branches: ['feature', 'main'],
    left: ['main'],
  })
}, 90_000)

it("python-gitlab turns public_jobs off with project.save(): a Guest's pipeline list is refused, again after a reset", async () => {
  const first = await inWidgetsAroundReset(
    join(__dirname, 'python_gitlab_public_jobs.py'),
    'glpat-root-token',
  )
  expect(first).toEqual({
    default: true,
    guest_before: [],
    saved: false,
    guest_after: [403, '403 Forbidden'],
  })
}, 90_000)

describe('python-gitlab blames a file', () => {
  it('project.files.blame: ranges of lines with their commits, range[start]..range[end], 404 for a missing file, again after a reset', async () => {
    const first = await inWidgetsAroundReset(join(__dirname, 'python_gitlab_blame.py'), 'glpat-root-token')
    expect(first).toEqual({
      blame: [
        ['Notes', ['a']],
        ['Edit notes', ['B']],
        ['Notes', ['c']],
        ['Edit notes', ['d']],
      ],
      range: [
        ['Edit notes', ['B']],
        ['Notes', ['c']],
      ],
      missing: [404, '404 File Not Found'],
    })
  }, 90_000)
})

describe('python-gitlab comments on a commit', () => {
  it('commit.comments.create on the commit and on new and old lines of its diff, comments.list, 404 for an unknown commit, again after a reset', async () => {
    const first = await inWidgetsAroundReset(
      join(__dirname, 'python_gitlab_commit_comments.py'),
      'glpat-root-token',
    )
    expect(first).toEqual({
      made: [
        ['Looks good', null, null, null, 'root'],
        ['Capital', 'notes.md', 2, 'new', 'root'],
        ['Was small', 'notes.md', 2, 'old', 'root'],
      ],
      listed: ['Looks good', 'Capital', 'Was small'],
      missing: [404, '404 Commit Not Found'],
    })
  }, 90_000)
})

describe('python-gitlab forks a project', () => {
  it('project.forks.create and list, import_status finished (kept when unlinked), forked_from_project, 409, delete and create the relation, mr_default_target_self, compare across', async () => {
    const first = await inWidgetsAroundReset(join(__dirname, 'python_gitlab_forks.py'), 'glpat-root-token')
    expect(first).toEqual({
      created: ['root/widgets-fork', 'scheduled'],
      fork: { import_status: 'finished', forked_from: 'acme/widgets', branches: ['main'] },
      forks: ['root/widgets-fork'],
      forks_count: 1,
      taken: [
        409,
        [
          'Project namespace name has already been taken',
          'Name has already been taken',
          'Path has already been taken',
        ],
      ],
      compare: ['In the fork'],
      unlinked: [false, 'finished'],
      linked: [true, true],
    })
  }, 90_000)
})

it('python-gitlab creates, lists, saves and deletes project variables; a rules:if reads one', async () => {
  const first = await inWidgetsAroundReset(join(__dirname, 'python_gitlab_variables.py'), 'glpat-root-token')
  expect(first).toEqual({
    created: ['DEPLOY_TARGET', 'staging', 'env_var', false, false, '*'],
    listed: ['API_TOKEN', 'DEPLOY_TARGET'],
    saved: 'production',
    short: [400, { value: ['is invalid'] }],
    guest: 403,
    jobs: ['deploy'],
    left: [],
  })
}, 90_000)

it('python-gitlab works pipeline schedules: create, save, variables, play, take ownership, delete', async () => {
  const script = join(__dirname, 'python_gitlab_pipeline_schedules.py')
  expect(await inWidgetsAroundReset(script, 'glpat-root-token')).toEqual({
    created: ['refs/heads/main', '0 1 * * *', 'UTC', true, 'root', []],
    inputs: true,
    saved: ['Europe/Paris', [['NIGHTLY', 'yes']]],
    listed: ['nightly'],
    bad_cron: [400, { cron: ['syntax is invalid'] }],
    guest: 403,
    play: { message: '201 Created' },
    played: [['schedule', 'main']],
    jobs: ['nightly'],
    owner: 'root',
    left: [],
  })
}, 90_000)

it("python-gitlab creates, lists, saves and deletes group variables; a project's rules:if reads one", async () => {
  const script = join(__dirname, 'python_gitlab_group_variables.py')
  expect(await inWidgetsAroundReset(script, 'glpat-root-token')).toEqual({
    created: ['RELEASE_CHANNEL', 'beta', 'env_var', false, '*'],
    listed: ['GROUP_TOKEN', 'RELEASE_CHANNEL'],
    saved: 'stable',
    guest: 403,
    jobs: ['release'],
    left: [],
  })
}, 90_000)

it("python-gitlab works the instance's variables (gl.variables); a project's rules:if reads them under its own", async () => {
  const script = join(__dirname, 'python_gitlab_instance_variables.py')
  expect(await inWidgetsAroundReset(script, 'glpat-root-token')).toEqual({
    created: ['ONLY_INSTANCE', 'yes', 'env_var', false, 'everywhere'],
    fields: ['description', 'key', 'masked', 'protected', 'raw', 'value', 'variable_type'],
    listed: ['CHANNEL', 'ONLY_INSTANCE'],
    saved: 'instance-wide',
    huge: [400, { value: ['The value of the provided variable exceeds the 10000 character limit'] }],
    guest: 403,
    jobs: ['everywhere', 'overridden'],
    left: [],
  })
}, 90_000)

it('python-gitlab marks a user external; their project, group and issue lists leave out internal ones', async () => {
  const t = await startServer(externalUsersSeed)
  try {
    const python = await pythonWithGitlab()
    const script = join(__dirname, 'python_gitlab_external.py')
    const { stdout } = await run(python, [
      script,
      t.baseUrl,
      'glpat-root-token',
      'extout',
      'glpat-ext-out-token',
    ])
    expect(JSON.parse(stdout)).toEqual({
      external: true,
      before: ['corp/member', 'corp/shared', 'pub/open'],
      projects: ['pub/open'],
      groups: ['pub'],
      issues: ['Open issue'],
      hidden: [404, '404 Project Not Found'],
    })
  } finally {
    await t.close()
  }
}, 90_000)

it('python-gitlab archives a project: its writes are refused as GitLab refuses them, until unarchived', async () => {
  const t = await startServer(seed)
  try {
    const python = await pythonWithGitlab()
    const script = join(__dirname, 'python_gitlab_archived.py')
    const { stdout } = await run(python, [script, t.baseUrl, 'glpat-root-token', 'acme/widgets'])
    const forbidden = [403, '403 Forbidden']
    expect(JSON.parse(stdout)).toEqual({
      archived: true,
      note: forbidden,
      edit: forbidden,
      award: [404, '404 Award Emoji Not Found'],
      spend: forbidden,
      label: forbidden,
      milestone: forbidden,
      trigger: forbidden,
      notes: ['a note'],
      after: null,
      notes_after: ['a note', 'another'],
    })
  } finally {
    await t.close()
  }
}, 90_000)
