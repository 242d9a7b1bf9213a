/*
 * Commit statuses through our client (src/api/commit-statuses.ts) and python-gitlab (Debian's
 * python3-gitlab; CONTRIBUTING.md): statuses posted on a commit, one moved, and the commit's list.
 */
import { join } from 'node:path'
import { collect, createClient } from '../../src/api/client.js'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { runPythonGitlab } from '../support/python-gitlab.js'
import { serverEach } from '../support/server.js'

const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

it('our client posts, moves and lists commit statuses, with GitLab’s errors thrown', async () => {
  const api = createClient({ baseUrl: t.baseUrl, token: 'glpat-mark-token' })
  const sha = 'main'
  const pending = await api.commitStatuses.create('acme/app', sha, {
    state: 'pending',
    ref: 'main',
    name: 'e2e',
  })
  const done = await api.commitStatuses.create('acme/app', sha, { state: 'failed', ref: 'main', name: 'e2e' })
  expect([done.id, done.status, done.author?.username]).toEqual([pending.id, 'failed', 'mark'])
  await api.commitStatuses.create('acme/app', sha, { state: 'success', ref: 'main', name: 'e2e' })
  const latest = await collect(api.commitStatuses.list('acme/app', sha))
  expect(latest.map((s) => [s.name, s.status])).toEqual([['e2e', 'success']])
  const all = await collect(api.commitStatuses.list('acme/app', sha, { all: true }))
  expect(all.map((s) => s.status)).toEqual(['failed', 'success'])
  await expect(
    api.commitStatuses.create('acme/app', 'f'.repeat(40), { state: 'success', ref: 'main' }),
  ).rejects.toMatchObject({ status: 404 })
})

it('python-gitlab: commit.statuses.create and .list()', async () => {
  expect(
    await runPythonGitlab(join(__dirname, 'python_gitlab_commit_statuses.py'), {
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-mark-token',
    }),
  ).toEqual({
    same: true,
    moved: ['success', 90.5, 'https://ci.example.com/1', 'mark'],
    listed: [
      ['ci/lint', 'success'],
      ['ci/docs', 'pending'],
    ],
    refused: [400, 'state does not have a valid value'],
    // The mean of the statuses' coverage (ci/docs has none), as GitLab's string.
    pipeline: ['external', 'running', '90.50'],
  })
})
