/*
 * Runners through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md): `POST /user/runners`,
 * `gl.runners` (list, all, get, save, verify, delete), `project.runners` (enable, list, disable) and a
 * runner's jobs (python_gitlab_runners.py).
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { serverEach } from '../support/server.js'

const run = promisify(execFile)
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
  let python: string | undefined
  for (const candidate of ['python3', '/usr/bin/python3'])
    if (
      !python &&
      (await run(candidate, ['-c', 'import gitlab']).then(
        () => true,
        () => false,
      ))
    )
      python = candidate
  if (!python)
    throw new Error('python-gitlab is missing: install python3-gitlab (apt-get install -y python3-gitlab)')
  const { stdout } = await run(python, [join(__dirname, 'python_gitlab_runners.py')], {
    env: {
      ...process.env,
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-mark-token',
      ADMIN_TOKEN: 'glpat-root-token',
    },
    timeout: 60_000,
  })
  expect(JSON.parse(stdout)).toEqual({
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
