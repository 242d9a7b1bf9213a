/*
 * `only`/`except` against the real server: a `.gitlab-ci.yml` committed through the API, pipelines made
 * by a trigger, by `POST /pipeline` and on a tag, and the jobs GitLab would put in each
 * (`lib/gitlab/ci/build/policy/refs.rb`, `variables.rb`; `Build::Seed#included?`).
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
beforeEach(async () => {
  t = await startServer(pipelineSeed, { clock: manualClock() })
})
afterEach(() => t.close())

const names = async (res: { status: number; body: unknown }) => {
  expect(res.status).toBe(201)
  const id = (res.body as Json).id as number
  const jobs = (await t.http('GET', `${APP}/pipelines/${id}/jobs`, { token: MARK })).body as Json[]
  return jobs.map((j) => String(j.name)).sort()
}
const trigger = (ref: string, variables = '') =>
  t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=${ref}&token=${MARK_TRIGGER}${variables}` })
const api = (ref: string) => t.http('POST', `${APP}/pipeline`, { token: MARK, json: { ref } })
const tag = async (name: string, ref: string) =>
  expect(
    (await t.http('POST', `${APP}/repository/tags`, { token: MARK, json: { tag_name: name, ref } })).status,
  ).toBe(201)

const CONFIG = `
always: { script: echo always }
on-branches: { script: echo b, only: [branches] }
on-tags: { script: echo t, only: [tags] }
on-ci-branch: { script: echo c, only: [ci] }
on-release-pattern: { script: echo r, only: ['/^v\\d+/'] }
by-trigger: { script: echo tr, only: [triggers] }
by-api: { script: echo api, only: [api] }
not-by-trigger: { script: echo nt, except: [triggers] }
elsewhere: { script: echo e, only: ['ci@other/project'] }
here: { script: echo h, only: ['ci@acme/app'] }
when-go:
  script: echo go
  only: { variables: [$GO == "1"] }
unless-go:
  script: echo ngo
  except: { variables: [$GO] }
both:
  script: echo both
  only: { refs: [ci], variables: [$GO == "1"] }
web-only: { script: echo w, only: { refs: [web] } }
`

describe('only/except', () => {
  it("picks the jobs by refs, sources, patterns, project paths and variables, with GitLab's default", async () => {
    const sha = await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    expect(await names(await trigger('ci'))).toEqual([
      'always',
      'by-trigger',
      'here',
      'on-branches',
      'on-ci-branch',
      'unless-go',
    ])
    expect(await names(await trigger('ci', '&variables[GO]=1'))).toEqual([
      'always',
      'both',
      'by-trigger',
      'here',
      'on-branches',
      'on-ci-branch',
      'when-go',
    ])
    expect(await names(await api('ci'))).toEqual([
      'always',
      'by-api',
      'here',
      'not-by-trigger',
      'on-branches',
      'on-ci-branch',
      'unless-go',
    ])
    // A tag: `tags` and the pattern match, `branches` and the branch name do not.
    await tag('v1.0', sha)
    expect(await names(await api('v1.0'))).toEqual([
      'always',
      'by-api',
      'not-by-trigger',
      'on-release-pattern',
      'on-tags',
      'unless-go',
    ])
  })

  it('has no default `only` under workflow:rules, and refuses a pipeline no job is left in', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
workflow: { rules: [ { when: always } ] }
plain: { script: echo p }
tagged: { script: echo t, only: [tags] }
`,
    })
    expect(await names(await trigger('ci'))).toEqual(['plain'])
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'tagged: { script: echo t, only: [tags] }\n',
    })
    const none = await api('ci')
    expect([none.status, none.body]).toEqual([
      400,
      {
        message: {
          base: [
            'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
          ],
        },
      },
    ])
  })

  it.each([
    [
      'build: { script: x, rules: [ { when: always } ], only: [main] }',
      'jobs:build config key may not be used with `rules`: only',
    ],
    ['build: { script: x, only: main }', 'jobs:build:only has to be either an array of conditions or a hash'],
    [
      'build: { script: x, only: [1] }',
      'jobs:build:only config should be an array of strings or regular expressions using re2 syntax',
    ],
    [
      'build: { script: x, except: { refs: ["/(/"] } }',
      'jobs:build:except refs should be an array of strings or regular expressions using re2 syntax',
    ],
    [
      'build: { script: x, only: { branches: true } }',
      'jobs:build:only config contains unknown keys: branches',
    ],
    [
      'build: { script: x, only: { variables: ["$A = 1"] } }',
      'jobs:build:only variables Invalid expression syntax',
    ],
    ['build: { script: x, only: {} }', "jobs:build:only config can't be blank"],
  ])("refuses %s with GitLab's error, keeping nothing", async (config, message) => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': `${config}\n` })
    const listed = async () =>
      ((await t.http('GET', `${APP}/pipelines`, { token: MARK })).body as Json[]).length
    const before = await listed()
    const res = await api('ci')
    expect([res.status, res.body]).toEqual([400, { message: { base: [message] } }])
    expect(await listed()).toBe(before)
  })
})
