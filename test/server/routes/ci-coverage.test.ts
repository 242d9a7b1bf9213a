/*
 * Jobs' `coverage:` against the real server: the number the finished job's trace reports through the
 * expression (`Ci::Build#update_coverage`), the pipeline's mean of its jobs' and posted statuses'
 * coverage, the statuses list, and GitLab's error for an expression that is not one.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const CONFIG = String.raw`
unit:
  coverage: '/Lines:\s+(\d+\.\d+)%/'
  script:
    - 'echo "Lines: 10.00% (first run)"'
    - 'echo "Branches 99.9% Lines:   71.25% Lines:   72.50%"'
    - 'echo "Lines: n/a"'
integration:
  coverage: '/Total coverage: \d+/'
  script: ['echo "Total coverage: 90 of 100"']
silent:
  coverage: '/Coverage: \d+%/'
  script: ['echo "nothing measured"']
plain:
  script: ['echo "Lines: 50.00%"']
`

const get = async (path: string) => {
  const res = await t.http('GET', `${APP}${path}`, { token: MARK })
  expect(res.status).toBe(200)
  return res.body
}
const trigger = () => t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
const runOut = async (pipeline: number) => {
  for (let i = 0; i < 60 && ((await get(`/pipelines/${pipeline}`)) as Json).status !== 'success'; i++)
    clock.advance(1000)
}

describe('jobs with coverage:', () => {
  it("take their coverage from the trace's last matching line, and the pipeline the mean", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const res = await trigger()
    expect(res.status).toBe(201)
    const pipeline = (res.body as Json).id as number
    const before = (await get(`/pipelines/${pipeline}/jobs`)) as Json[]
    expect(before.map((j) => j.coverage)).toEqual([null, null, null, null])
    await runOut(pipeline)
    const jobs = (await get(`/pipelines/${pipeline}/jobs`)) as Json[]
    const coverage = Object.fromEntries(jobs.map((j) => [j.name, j.coverage]))
    // unit: the last line that matches, its last match's group; integration: the first number of
    // the match; silent: no line matches; plain: no expression.
    expect(coverage).toEqual({ unit: 72.5, integration: 90, silent: null, plain: null })
    const unit = jobs.find((j) => j.name === 'unit') as Json
    expect(((await get(`/jobs/${unit.id as number}`)) as Json).coverage).toBe(72.5)
    expect(((await get(`/pipelines/${pipeline}`)) as Json).coverage).toBe('81.25')
    const sha = ((await get(`/pipelines/${pipeline}`)) as Json).sha as string
    const statuses = (await get(`/repository/commits/${sha}/statuses?all=true`)) as Json[]
    expect(statuses.find((s) => s.name === 'unit')?.coverage).toBe(72.5)
  })

  it('is refused unless it is a /regular expression/, as GitLab words it', async () => {
    for (const coverage of ["'Lines: \\d+'", "'/(unclosed/'", '42']) {
      await commitFiles(t, 'acme/app', 'ci', {
        '.gitlab-ci.yml': `unit:\n  coverage: ${coverage}\n  script: [x]\n`,
      })
      const res = await t.http('POST', `${APP}/pipeline`, { token: MARK, json: { ref: 'ci' } })
      expect(res).toMatchObject({
        status: 400,
        body: {
          message: { base: ['jobs:unit:coverage config must be a regular expression with re2 syntax'] },
        },
      })
    }
  })
})
