/*
 * The Events API through python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md): what a project's
 * issues, comments (on an issue and on a commit) and pushes recorded, as `project.events`, `gl.events` and `user.events` list it.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const run = promisify(execFile)
const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

it('python-gitlab: project.events, gl.events and user.events', async () => {
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
  const { stdout } = await run(python, [join(__dirname, 'python_gitlab_events.py')], {
    env: { ...process.env, GITLAB_URL: t.baseUrl, GITLAB_TOKEN: 'glpat-mark-token' },
    timeout: 60_000,
  })
  expect(JSON.parse(stdout)).toEqual({
    project: ['commented on', 'pushed to', 'closed', 'commented on', 'opened'],
    push: ['main', 'Add notes'],
    note: [
      ['Looks good', 'Commit', 'Add notes'],
      ['Seen again', 'Issue', 'Flaky'],
    ],
    mine: ['Flaky', 'Flaky'],
    user: 5,
    refused: [400, 'target_type does not have a valid value'],
  })
})
