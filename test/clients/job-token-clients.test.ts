/*
 * CI/CD job tokens through a real client: python-gitlab (Debian's python3-gitlab; CONTRIBUTING.md)
 * with `job_token=`, which sends `JOB-TOKEN`, reads what GitLab's job token routes open to it
 * (doc/ci/jobs/ci_job_token.md: branches, tags, a commit) in the job's own project only.
 */
import { join } from 'node:path'
import { manualClock, pipelineSeed, runningJobToken } from '../support/pipeline-seed.js'
import { runPythonGitlab } from '../support/python-gitlab.js'
import { serverEach } from '../support/server.js'

const ROOT = 'glpat-root-token'
let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/** The token of the job a new acme/app pipeline runs a second after it starts. */
const runningToken = async () => (await runningJobToken(t, clock)).token

it("python-gitlab with a running job's token reads its project's branches, tags and a commit", async () => {
  const tag = await t.http('POST', '/api/v4/projects/acme%2Fapp/repository/tags', {
    token: ROOT,
    json: { tag_name: 'v1.0', ref: 'main' },
  })
  expect(tag.status).toBe(201)
  const finished = await runningToken()
  // Its jobs take 2 s each: past them, the first token is a finished job's.
  for (let i = 0; i < 10; i++) {
    clock.advance(1000)
    await t.http('GET', '/api/v4/projects/acme%2Fapp/jobs', { token: ROOT })
  }
  const running = await runningToken()
  const main = (await t.http('GET', '/api/v4/projects/acme%2Fapp/repository/branches/main', { token: ROOT }))
    .body as { commit: { id: string } }
  const seen = await runPythonGitlab(join(__dirname, 'python_gitlab_job_token.py'), {
    GITLAB_URL: t.baseUrl,
    GITLAB_JOB_TOKEN: running,
    GITLAB_FINISHED_JOB_TOKEN: finished,
  })
  expect(seen).toEqual({
    branches: ['develop', 'feature/x', 'main'],
    tags: ['v1.0'],
    commit: main.commit.id,
    other: [404, '404 Project Not Found'],
    finished: [401, '401 Unauthorized'],
  })
}, 90_000)
