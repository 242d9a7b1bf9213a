import { commitFiles } from '../../support/ci-files.js'
import { fileServer } from '../../support/file-server.js'
import { manualClock, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer of acme
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // no member
const LINT = '/api/v4/projects/acme%2Fapp/ci/lint'
type Json = Record<string, unknown>

const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

const post = (json: Json, token = MARK) => t.http('POST', LINT, { token, json })
const pipelineCount = () =>
  t.server.store.pipelines.count({
    projectId: t.server.store.projects.byPath('acme/app')!.id,
    order: 'id',
    sort: 'asc',
  })

const CONFIG = `include: { local: /templates/build.yml }
stages: [build, test]
test:
  stage: test
  script: [rspec]
  needs: [{ job: build, artifacts: false }]
  environment: { name: review }
  tags: [ruby]
`

describe('POST /projects/:id/ci/lint', () => {
  it('answers the merged configuration, its includes and (asked) its jobs, creating nothing', async () => {
    const sha = await commitFiles(t, 'acme/app', 'main', {
      'templates/build.yml': 'default: { before_script: [setup] }\nbuild: { stage: build, script: make }\n',
    })
    const before = pipelineCount()
    const res = await post({ content: CONFIG, include_jobs: true })
    expect(res.status).toBe(200)
    const body = res.body as Json
    expect(body).toMatchObject({ valid: true, errors: [], warnings: [] })
    expect(body.merged_yaml).toBe(
      [
        '---',
        'default:',
        '  before_script:',
        '  - setup',
        'build:',
        '  stage: build',
        '  script: make',
        'stages:',
        '- .pre',
        '- build',
        '- test',
        '- .post',
        'test:',
        '  stage: test',
        '  script:',
        '  - rspec',
        '  needs:',
        '  - job: build',
        '    artifacts: false',
        '  environment:',
        '    name: review',
        '  tags:',
        '  - ruby',
        '',
      ].join('\n'),
    )
    expect(body.includes).toEqual([
      {
        type: 'local',
        location: 'templates/build.yml',
        blob: `${t.baseUrl}/acme/app/-/blob/${sha}/templates/build.yml`,
        raw: `${t.baseUrl}/acme/app/-/raw/${sha}/templates/build.yml`,
        extra: {},
        context_project: 'acme/app',
        context_sha: sha,
      },
    ])
    expect(body.jobs).toEqual([
      {
        name: 'build',
        stage: 'build',
        before_script: ['setup'],
        script: ['make'],
        after_script: [],
        tag_list: [],
        only: { refs: ['branches', 'tags'] },
        except: null,
        environment: null,
        when: 'on_success',
        allow_failure: false,
        needs: null,
      },
      {
        name: 'test',
        stage: 'test',
        before_script: ['setup'],
        script: ['rspec'],
        after_script: [],
        tag_list: ['ruby'],
        only: { refs: ['branches', 'tags'] },
        except: null,
        environment: 'review',
        when: 'on_success',
        allow_failure: false,
        needs: [{ name: 'build', artifacts: false, optional: false }],
      },
    ])
    expect(pipelineCount()).toBe(before)

    // Psych's YAML 1.1: strings it would read as booleans or numbers quoted, nil as nothing.
    const plain = await post({
      content: "build: { script: make, variables: { A: 'yes', B: '1' }, cache: ~ }",
    })
    expect(plain.status).toBe(200)
    expect(plain.body).not.toHaveProperty('jobs')
    expect(plain.body).toMatchObject({ valid: true, includes: [] })
    expect((plain.body as Json).merged_yaml).toBe(
      "---\nbuild:\n  script: make\n  variables:\n    A: 'yes'\n    B: '1'\n  cache:\n",
    )
  })

  it('lists a file of another project as GitLab does (`file`, its project and ref in `extra`), refusing one the caller may not read', async () => {
    const other = await commitFiles(t, 'acme/other', 'main', { 'ci/shared.yml': 'shared: { script: s }\n' })
    const head = await commitFiles(t, 'acme/app', 'main', { 'x.txt': 'x' })
    const res = await post({
      content: 'include: { project: acme/other, file: /ci/shared.yml }\nown: { script: x }',
    })
    expect(res.body).toMatchObject({ valid: true })
    expect((res.body as Json).includes).toEqual([
      {
        type: 'file',
        location: 'ci/shared.yml',
        blob: `${t.baseUrl}/acme/other/-/blob/${other}/ci/shared.yml`,
        raw: `${t.baseUrl}/acme/other/-/raw/${other}/ci/shared.yml`,
        extra: { project: 'acme/other', ref: 'HEAD' },
        context_project: 'acme/app',
        context_sha: head,
      },
    ])
    const hidden = await post({
      content: 'include: { project: root/hidden, file: ci.yml }\nown: { script: x }',
    })
    expect((hidden.body as Json).errors).toEqual([
      'Project `root/hidden` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.',
    ])
  })

  it("answers an invalid configuration with valid: false and the pipeline's own error strings", async () => {
    const stage = await post({ content: 'build: { stage: nope, script: make }' })
    expect(stage.status).toBe(200)
    expect(stage.body).toEqual({
      valid: false,
      errors: [
        'build job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post',
      ],
      warnings: [],
      merged_yaml: '---\nbuild:\n  stage: nope\n  script: make\n',
      includes: [],
    })
    // Loading failed: nothing merged to show.
    const missing = await post({
      content: 'include: { local: nope.yml }\nbuild: { script: make }',
      include_jobs: true,
    })
    expect(missing.body).toEqual({
      valid: false,
      errors: ['Local file `nope.yml` does not exist!'],
      warnings: [],
      merged_yaml: null,
      includes: null,
      jobs: [],
    })
    const empty = await post({ content: '' })
    expect((empty.body as Json).errors).toEqual(['Please provide content of .gitlab-ci.yml'])
  })

  it("refuses what GitLab refuses: content missing (400), below Developer (403), a project one can't see (404)", async () => {
    const none = await post({ include_jobs: true })
    expect([none.status, none.body]).toEqual([400, { error: 'content is missing' }])
    const guest = await post({ content: 'build: { script: make }' }, GUS)
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const outsider = await post({ content: 'build: { script: make }' }, OTTO)
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Project Not Found' }])
    const developer = await post({ content: 'build: { script: make }' }, DANA)
    expect([developer.status, (developer.body as Json).valid]).toEqual([200, true])
  })
})

describe('dry_run', () => {
  const RULED = `build: { script: make }
deploy:
  script: ship
  environment: production
  rules: [{ if: '$CI_COMMIT_BRANCH == "develop"', when: manual }]
`
  it("simulates a push pipeline of the ref: its rules applied, GitLab's job fields and refusals", async () => {
    const main = await post({ content: RULED, dry_run: true, include_jobs: true })
    expect(main.status).toBe(200)
    expect((main.body as Json).jobs).toEqual([
      {
        name: 'build',
        stage: 'test',
        before_script: [],
        script: ['make'],
        after_script: [],
        tag_list: [],
        environment: null,
        when: 'on_success',
        allow_failure: false,
      },
    ])
    const develop = await post({ content: RULED, dry_run: true, include_jobs: true, ref: 'develop' })
    expect(
      ((develop.body as Json).jobs as Json[]).map((j) => [j.name, j.when, j.allow_failure, j.environment]),
    ).toEqual([
      ['build', 'on_success', false, null],
      ['deploy', 'manual', false, 'production'],
    ])
    // The static check lists every job, whatever the ref.
    const all = await post({ content: RULED, include_jobs: true })
    expect(((all.body as Json).jobs as Json[]).map((j) => j.name)).toEqual(['build', 'deploy'])

    const filtered = await post({
      content: `workflow: { rules: [{ when: never }] }\n${RULED}`,
      dry_run: true,
    })
    expect(filtered.body).toMatchObject({
      valid: false,
      errors: ['Pipeline filtered out by workflow rules.'],
    })
    expect((filtered.body as Json).merged_yaml).toEqual(expect.stringContaining('workflow:'))
    const nowhere = await post({ content: RULED, dry_run: true, ref: 'nope', include_jobs: true })
    expect(nowhere.body).toEqual({
      valid: false,
      errors: ['Reference not found'],
      warnings: [],
      merged_yaml: null,
      includes: null,
      jobs: [],
    })
  })
})

describe('GET /projects/:id/ci/lint', () => {
  it(".gitlab-ci.yml of the default branch's head, or of content_ref", async () => {
    const head = await t.http('GET', LINT, { token: MARK })
    expect([head.status, (head.body as Json).errors]).toEqual([
      200,
      ['Please provide content of .gitlab-ci.yml'],
    ])

    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'build: { stage: nope, script: make }\n' })
    const bad = await t.http('GET', LINT, { token: MARK, query: 'content_ref=ci' })
    expect(bad.body).toMatchObject({
      valid: false,
      merged_yaml: '---\nbuild:\n  stage: nope\n  script: make\n',
    })
    const sha = await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': 'build: { script: make }\n' })
    const good = await t.http('GET', LINT, { token: MARK, query: `sha=${sha}&include_jobs=true` })
    expect(good.body).toMatchObject({ valid: true, errors: [], jobs: [{ name: 'build', stage: 'test' }] })
  })

  it('refuses both refs together (400), an unknown ref (404), a caller without read_code (403)', async () => {
    const both = await t.http('GET', LINT, { token: MARK, query: 'sha=main&content_ref=main' })
    expect([both.status, both.body]).toEqual([400, { error: 'sha, content_ref are mutually exclusive' }])
    const unknown = await t.http('GET', LINT, { token: MARK, query: 'content_ref=nope' })
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Commit Not Found' }])
    // Another project's commit is no commit of this one, even though git objects are stored once.
    const made = await t.http('POST', '/api/v4/projects', {
      token: 'glpat-root-token',
      json: { name: 'secret', visibility: 'private', initialize_with_readme: true },
    })
    expect(made.status).toBe(201)
    const secret = await commitFiles(
      t,
      'root/secret',
      'main',
      { '.gitlab-ci.yml': 'secret: { script: s }\n' },
      'glpat-root-token',
    )
    const foreign = await t.http('GET', LINT, { token: MARK, query: `content_ref=${secret}` })
    expect([foreign.status, foreign.body]).toEqual([404, { message: '404 Commit Not Found' }])
    // Nor through `include: project` of a project one may read.
    const included = await post({
      content: `include: { project: acme/other, ref: ${secret}, file: .gitlab-ci.yml }\nown: { script: x }`,
    })
    expect((included.body as Json).errors).toEqual([
      `Project \`acme/other\` reference \`${secret}\` does not exist!`,
    ])
    const guest = await t.http('GET', LINT, { token: GUS })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
  })

  it("an empty repository is 404, a dry run by a reader who may not create pipelines GitLab's refusal", async () => {
    const made = await t.http('POST', '/api/v4/projects', { token: MARK, json: { name: 'blank' } })
    expect(made.status).toBe(201)
    const empty = await t.http('GET', '/api/v4/projects/mark%2Fblank/ci/lint', { token: MARK })
    expect([empty.status, empty.body]).toEqual([404, { message: '404 Repository Not Found' }])

    await commitFiles(t, 'acme/public', 'main', { '.gitlab-ci.yml': 'build: { script: make }\n' })
    const reader = await t.http('GET', '/api/v4/projects/acme%2Fpublic/ci/lint', {
      token: OTTO,
      query: 'dry_run=true',
    })
    expect(reader.body).toMatchObject({
      valid: false,
      errors: ['Insufficient permissions to create a new pipeline'],
      merged_yaml: null,
    })
    const statics = await t.http('GET', '/api/v4/projects/acme%2Fpublic/ci/lint', { token: OTTO })
    expect(statics.body).toMatchObject({ valid: true, errors: [] })
  })

  it('is described in the served OpenAPI document, with its result schema', async () => {
    const doc = (await t.http('GET', '/api/v4/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    }
    const lint = doc.paths['/projects/{id}/ci/lint']
    expect(Object.keys(lint ?? {}).sort()).toEqual(['get', 'post'])
    expect(JSON.stringify(lint?.post?.responses['200'])).toContain('CiLintResult')
  })
})

describe('include: remote in the lint', () => {
  const local = serverEach(pipelineSeed, () => ({ clock: manualClock(), allowLocalRequests: true }))

  it('fetches the file, lists it as GitLab does and answers its fetch errors', async () => {
    const web = await fileServer({ '/ci/remote.yml': 'remote: { script: r }\n' })
    try {
      const url = `${web.base}/ci/remote.yml`
      const lint = (content: string) => local.http('POST', LINT, { token: MARK, json: { content } })
      const res = await lint(`include: ${url}\nown: { script: x }`)
      expect(res.body).toMatchObject({
        valid: true,
        merged_yaml: '---\nremote:\n  script: r\nown:\n  script: x\n',
      })
      expect((res.body as Json).includes).toEqual([
        {
          type: 'remote',
          location: url,
          blob: null,
          raw: url,
          extra: {},
          context_project: 'acme/app',
          context_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        },
      ])
      const missing = await lint(`include: ${web.base}/ci/missing.yml\nown: { script: x }`)
      expect((missing.body as Json).errors).toEqual([
        `Remote file \`${web.base}/ci/missing.yml\` could not be fetched because of HTTP code \`404\` error!`,
      ])
      expect(web.requests).toEqual(['/ci/remote.yml', '/ci/missing.yml'])
    } finally {
      await web.close()
    }
  })
})

describe('$VARIABLES in include locations, in the lint', () => {
  it("expand with the ref linted (the default branch, content_ref, or the dry run's push pipeline)", async () => {
    await commitFiles(t, 'acme/app', 'main', { 'ci/main.yml': 'on_main: { script: x }\n' })
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: "ci/${CI_COMMIT_REF_NAME}$CI_PIPELINE_SOURCE.yml"\nown: { script: x }\n',
      'ci/ci.yml': 'on_ci: { script: x }\n',
      'ci/cipush.yml': 'on_ci_push: { script: x }\n',
    })
    const content =
      'include: { project: acme/app, ref: "${CI_COMMIT_REF_NAME}", file: "ci/$CI_COMMIT_REF_NAME.yml" }\nown: { script: x }\n'
    const byPost = await post({ content })
    expect(byPost.body).toMatchObject({
      valid: true,
      includes: [{ location: 'ci/main.yml', extra: { ref: 'main' } }],
    })
    // The static check has no pipeline source; the dry run is a push pipeline of its ref.
    const byGet = await t.http('GET', LINT, { token: MARK, query: 'content_ref=ci&include_jobs=true' })
    expect(byGet.body).toMatchObject({ valid: true, includes: [{ location: 'ci/ci.yml' }] })
    const dry = await t.http('GET', LINT, {
      token: MARK,
      query: 'content_ref=ci&dry_run=true&dry_run_ref=ci',
    })
    expect(dry.body).toMatchObject({ valid: true, includes: [{ location: 'ci/cipush.yml' }] })
  })
})

describe('warnings', () => {
  const RULES_WHEN = (job: string) =>
    `jobs:${job} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - read more: https://docs.gitlab.com/ee/ci/jobs/job_troubleshooting.html#job-may-allow-multiple-pipelines-to-run-for-a-single-action-warning`
  const CONTENT = `always: { script: x, rules: [{ when: always }] }
guarded: { script: x, rules: [{ if: '$CI_COMMIT_BRANCH', when: manual }] }
never: { script: x, rules: [{ if: '$A' }, { when: never }] }
.hidden: { script: x, rules: [{ when: on_success }] }
manual: { script: x, rules: [{ if: '$A', when: never }, { when: manual }] }
plain: { script: x }
`
  it("answers GitLab's `rules:when` warning for each job that may run twice, none with workflow:rules", async () => {
    const res = await post({ content: CONTENT })
    expect(res.body).toMatchObject({
      valid: true,
      errors: [],
      warnings: [RULES_WHEN('always'), RULES_WHEN('manual')],
    })
    const dry = await post({ content: CONTENT, dry_run: true })
    expect(dry.body).toMatchObject({ valid: true, warnings: [RULES_WHEN('always'), RULES_WHEN('manual')] })
    const ruled = await post({ content: `workflow: { rules: [{ when: always }] }\n${CONTENT}` })
    expect(ruled.body).toMatchObject({ valid: true, warnings: [] })
    // Warnings stand beside errors.
    const both = await post({ content: `${CONTENT}bad: { stage: nope, script: x }\n` })
    expect(both.body).toMatchObject({ valid: false, warnings: [RULES_WHEN('always'), RULES_WHEN('manual')] })
  })
})

describe('includes of included files', () => {
  it('names the project and commit each was read in, and its includer as the context', async () => {
    const app = await commitFiles(t, 'acme/app', 'main', { 'ci/back.yml': 'back: { script: x }\n' })
    const other = await commitFiles(t, 'acme/other', 'main', {
      'ci/shared.yml':
        'include: [ci/nested.yml, { project: acme/app, ref: main, file: ci/back.yml }]\nshared: { script: x }\n',
      'ci/nested.yml': 'nested: { script: x }\n',
    })
    const res = await post({
      content: 'include: { project: acme/other, file: ci/shared.yml }\nown: { script: x }',
    })
    expect(res.body).toMatchObject({ valid: true })
    const at = (project: string, sha: string, path: string) => ({
      blob: `${t.baseUrl}/${project}/-/blob/${sha}/${path}`,
      raw: `${t.baseUrl}/${project}/-/raw/${sha}/${path}`,
    })
    expect((res.body as Json).includes).toEqual([
      {
        type: 'file',
        location: 'ci/shared.yml',
        ...at('acme/other', other, 'ci/shared.yml'),
        extra: { project: 'acme/other', ref: 'HEAD' },
        context_project: 'acme/app',
        context_sha: app,
      },
      {
        type: 'local',
        location: 'ci/nested.yml',
        ...at('acme/other', other, 'ci/nested.yml'),
        extra: {},
        context_project: 'acme/other',
        context_sha: other,
      },
      {
        type: 'file',
        location: 'ci/back.yml',
        ...at('acme/app', app, 'ci/back.yml'),
        extra: { project: 'acme/app', ref: 'main' },
        context_project: 'acme/other',
        context_sha: other,
      },
    ])
  })
})
