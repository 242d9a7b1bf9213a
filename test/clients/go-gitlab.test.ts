/*
 * go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev, built with Debian's golang-go in GOPATH
 * mode: no module proxy needed) works the reference server as a Go user's suite would
 * (go_gitlab_world.go): as an admin it builds a world, pages through issues by resp.NextPage, works
 * the repository and CI (contributors, commit comments and merged branches too), and is refused.
 * The program is compiled once per run into a temp dir (test/support/go-gitlab.ts). A contributor's
 * machine needs both packages (CONTRIBUTING.md): without them the test fails and says so.
 */
import { goProgram, run } from '../support/go-gitlab.js'
import { startServer, type TestServer } from '../support/server.js'

const world = goProgram('go_gitlab_world.go')

let t: TestServer
beforeEach(async () => {
  t = await startServer('users:\n  - { username: root, admin: true, token: glpat-root-token }\n')
})
afterEach(() => t.close())

it('go-gitlab builds a world as an admin, pages issues by resp.NextPage, works the repository and CI, and reads refusals as *gitlab.ErrorResponse, the same after a reset', async () => {
  const once = async () => {
    const { stdout } = await run(world.path, [t.baseUrl, 'glpat-root-token'], { timeout: 60_000 })
    return JSON.parse(stdout) as unknown
  }
  const first = await once()
  await t.server.reset()
  expect(await once()).toEqual(first)
  expect(first).toEqual({
    world: {
      user: 'rae',
      token: ['suite', ['api'], true, true],
      member: ['rae', 20],
      project: ['go-team/gopher', 'private', 'main'],
    },
    issues: {
      label: ['bug', '#d9534f'],
      milestone: [1, 'Go 1', 'active'],
      first: [1, ['bug', 'ux'], 'Go 1', 'opened'],
      notes: ['First note', 'Second note'],
      time: ['3h', '1h 30m', 10800, 5400],
    },
    // go-gitlab reads x-total, x-total-pages, x-per-page, x-page, x-next-page and x-prev-page; a blank one is 0.
    pages: [
      { titles: ['Issue 1', 'Issue 2'], total: 5, pages: 3, per_page: 2, current: 1, next: 2, previous: 0 },
      { titles: ['Issue 3', 'Issue 4'], total: 5, pages: 3, per_page: 2, current: 2, next: 3, previous: 1 },
      { titles: ['Issue 5'], total: 5, pages: 3, per_page: 2, current: 3, next: 0, previous: 2 },
    ],
    edited: { issue: ['Issue 2, edited', ['bug'], 'closed', true], closed: ['Issue 2, edited'] },
    repository: {
      file: ['.gitlab-ci.yml', 'main'],
      branch: ['feature', 'Add CI', false],
      tag: ['v1.0', 'First release', 'Add CI'],
      commits: ['Add docs', 'Add CI', 'Initial commit'],
      compare: {
        commit: 'Add docs',
        commits: ['Add docs'],
        diffs: [['docs/go.md', true, '@@ -0,0 +1 @@\n+go\n']],
      },
    },
    ci: {
      variable: ['DEPLOY_TARGET', 'staging', 'env_var', false, false, '*'],
      read: 'production',
      keys: ['DEPLOY_TARGET'],
      trigger: ['go suite', true],
      pipeline: ['main', 'trigger', true, true],
      // Newest first; `build` names no stage, so it is in `test`, GitLab's default.
      jobs: [
        ['test', 'test', true],
        ['build', 'test', true],
      ],
    },
    habits: {
      shared: [['Partners', 30]],
      // CreateIssueLinkOptions sends `"link_type": null` when unset: Grape lets it pass, relates_to.
      link: [1, 3, 'relates_to'],
      // CreateImpersonationTokenOptions.ExpiresAt is a time.Time, sent with its time: the date is kept.
      impersonation: ['go-imp', true, true],
      // An edit without ExpiresAt sends `"expires_at": null`, which GitLab reads as nil: the expiry goes.
      expiring: ['2099-01-01', true, 20],
      commit: ['Two actions', 1, 2],
      protected: ['feature', 40, 40],
      pipeline: ['main', 'api', [['FROM_GO', 'yes', 'env_var']]],
      // Newest first, as GitLab's `GET /users` orders them.
      users: [
        ['rae', 1, 2, 2],
        ['root', 2, 0, 2],
      ],
    },
    reads: {
      milestone: ['2027-01-01', '2027-01-31'],
      assigned: [['rae'], '2027-01-31', true, 'Go 2'],
      iids: ['Issue 1', 'Issue 3'],
      labels: ['Issue 1', 'Issue 3', 'Issue 4', 'Issue 5'],
      not_labels: ['Assigned', 'Issue 2, edited'],
      search: ['Issue 2, edited'],
      assignee: ['Assigned'],
      not_milestone: ['Assigned'],
      created_after: 6,
      // GetFileMetaData is a HEAD read of the X-Gitlab-* headers alone.
      meta: ['Makefile', 'Makefile', 5, 'base64', 'main', false, true, true, 40, 64],
      raw: 'all:\n',
      tree: [
        ['docs', 'tree', 1],
        ['.gitlab-ci.yml', 'blob', 1],
        ['README.md', 'blob', 2],
        ['docs/go.md', 'blob', 2],
      ],
      // GitLab's ref search: `^fea` is a prefix.
      branches: ['feature'],
      // ListCommitsOptions.All: every branch, here the feature branch's commit under docs/.
      all_commits: ['Add docs'],
      me: ['rae', false],
      sudo: [
        'rae',
        [403, '{message: 403 Forbidden - Must be admin to use sudo}'],
        [404, "{message: 404 User with ID or username 'nobody' Not Found}"],
      ],
      // Keyset pages by the Link header's rel="next", without x-total or x-next-page, as GitLab answers them.
      keyset: [
        ['go-team/gopher', true, true],
        ['partners/alpha', true, true],
        ['partners/beta', true, true],
      ],
    },
    // A comment without a line arrives with null path, line and line_type (go-gitlab sends them so).
    repository_extras: {
      contributors: [['root', 3, 0]],
      comments: [
        ['Looks good', '', 0, '', 'rae'],
        ['On all:', 'Makefile', 1, 'new', 'root'],
      ],
      merged: [202, ['feature', 'main']],
    },
    // ErrorResponse.Message is go-gitlab's flattening of GitLab's body (parseError): `{key: value}`, sorted.
    // The Events API: each ref the world moved (the README's first, `done` last), and the admin's issues opened and closed.
    events: {
      pushes: [
        ['pushed new', 'branch', 'main', 1, 'Initial commit'],
        ['pushed to', 'branch', 'main', 1, 'Add CI'],
        ['pushed new', 'branch', 'feature', 0, ''],
        ['pushed to', 'branch', 'feature', 1, 'Add docs'],
        ['pushed new', 'tag', 'v1.0', 1, 'Add CI'],
        ['pushed to', 'branch', 'main', 1, 'Two actions'],
        // The merged branch `done`, made and then cleaned away by DeleteMergedBranches.
        ['pushed new', 'branch', 'done', 0, ''],
        ['deleted', 'branch', 'done', 0, ''],
      ],
      issues: { opened: 6, closed: 1 },
    },
    errors: {
      missing_project: [404, '{message: 404 Project Not Found}'],
      missing_issue: [404, '{message: 404 Not found}'],
      reporter_branch: [403, '{message: 403 Forbidden}'],
      reporter_variable: [403, '{message: 403 Forbidden}'],
      no_title: [400, '{error: title is missing}'],
      bad_color: [400, '{message: {color: [must be a valid color code]}}'],
      taken_label: [409, '{message: Label already exists}'],
      bad_variable: [400, "{message: {key: [can contain only letters, digits and '_'.]}}"],
      // A Reporter sees confidential issues too.
      reporter_read: 6,
    },
  })
}, 90_000)
