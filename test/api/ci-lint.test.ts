import { createClient, GitLabApiError } from '../../src/api/client.js'
import { commitFiles } from '../support/ci-files.js'
import { manualClock, pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))
const client = (token: string) =>
  createClient({ baseUrl: t.baseUrl, token, retry: { sleep: async () => undefined, maxRetries: 1 } })

describe('ciLint client', () => {
  it('lints content and the project file, an invalid configuration answered, not thrown', async () => {
    const mark = client('glpat-mark-token')
    const ok = await mark.ciLint.lint('acme/app', { content: 'build: { script: make }', include_jobs: true })
    expect(ok).toMatchObject({ valid: true, errors: [], merged_yaml: '---\nbuild:\n  script: make\n' })
    expect(ok.jobs?.map((j) => [j.name, j.stage, j.script])).toEqual([['build', 'test', ['make']]])

    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'stages: 1\nbuild: { script: make }\n' })
    const bad = await mark.ciLint.lintProject('acme/app', { content_ref: 'ci' })
    expect(bad).toMatchObject({ valid: false, errors: ['stages config should be an array of strings'] })
    expect(bad).not.toHaveProperty('jobs')

    const refused = mark.ciLint.lintProject('acme/app', { content_ref: 'nope' })
    await expect(refused).rejects.toBeInstanceOf(GitLabApiError)
    await expect(
      client('glpat-gus-token').ciLint.lint('acme/app', { content: 'x: 1' }),
    ).rejects.toMatchObject({
      status: 403,
    })
  })
})
