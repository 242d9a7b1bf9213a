/*
 * Runners through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md): `POST /user/runners`,
 * `gl.runners` (list, all, get, save, verify, delete), `project.runners` (enable, list, disable) and a
 * runner's jobs (python_gitlab_runners.py).
 */
import { join } from 'node:path'
import { serverEach } from '../support/server.js'
import { runPythonGitlab } from '../support/python-gitlab.js'

const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: glpat-mark-token }
groups:
  - { path: acme, visibility: private, members: { mark: maintainer } }
projects:
  - { path: acme/widgets, visibility: private }
  - { path: acme/gadgets, visibility: private }
`
const t = serverEach(seed)

it('python-gitlab creates, lists, edits, enables, verifies and deletes runners', async () => {
  const printed = await runPythonGitlab(join(__dirname, 'python_gitlab_runners.py'), {
    GITLAB_URL: t.baseUrl,
    GITLAB_TOKEN: 'glpat-mark-token',
    ADMIN_TOKEN: 'glpat-root-token',
  })
  expect(printed).toEqual({
    token: true,
    refused: [403, '403 Forbidden - Insufficient permissions'],
    mine: [true],
    all: [true],
    details: ['edited', true, ['docker', 'linux'], 'never_contacted', true],
    // The instance runner, then the enabled one.
    in_gadgets: [false, true],
    after: [],
    jobs: 0,
    deleted: true,
  })
})
