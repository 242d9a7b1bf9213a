import { commitFiles } from '../../support/ci-files.js'
import { manualClock, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer of acme
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

const create = (token = MARK, ref = 'ci') => t.http('POST', `${APP}/pipeline`, { token, json: { ref } })
const jobNames = (pipelineId: number) =>
  t.server.store.pipelines
    .jobs(pipelineId)
    .map((j) => j.name)
    .sort()
const refused = (message: string) => ({ message: { base: [message] } })
const denied = (path: string) =>
  `Project \`${path}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`

describe('include: project', () => {
  it("merges another project's files at its default branch or a ref, their local includes read there", async () => {
    await commitFiles(t, 'acme/other', 'v2', { 'templates/build.yml': 'build2: { script: echo v2 }\n' })
    await commitFiles(t, 'acme/other', 'main', {
      'templates/build.yml': 'include: [{ local: templates/lint.yml }]\nbuild: { script: echo build }\n',
      'templates/lint.yml': 'lint: { script: echo lint from other }\n',
    })
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml':
        'include:\n  - project: acme/other\n    file: /templates/build.yml\n  - { project: ACME/Other, ref: v2, file: [templates/build.yml] }\nown: { script: x }\n',
      'templates/lint.yml': 'lint: { script: echo lint from app }\n',
    })
    const res = await create()
    expect(res.status).toBe(201)
    const id = (res.body as Json).id as number
    expect(jobNames(id)).toEqual(['build', 'build2', 'lint', 'own'])
    const lint = t.server.store.pipelines.jobs(id).find((j) => j.name === 'lint')
    expect(t.server.store.jobDefinitions.get(lint?.id as number)?.script).toEqual(['echo lint from other'])

    // The included branch moved: the next pipeline of the same commit reads it again.
    const moved = await t.http('POST', '/api/v4/projects/acme%2Fother/repository/commits', {
      token: MARK,
      json: {
        branch: 'main',
        commit_message: 'move',
        actions: [{ action: 'update', file_path: 'templates/build.yml', content: 'moved: { script: x }\n' }],
      },
    })
    expect(moved.status).toBe(201)
    const again = await create()
    expect(jobNames((again.body as Json).id as number)).toEqual(['build2', 'moved', 'own'])
  })

  it('refuses a project the pipeline user may not read, a missing ref or file, with GitLab errors and nothing kept', async () => {
    const made = await t.http('POST', '/api/v4/projects', {
      token: ROOT,
      json: { name: 'secret', visibility: 'private', initialize_with_readme: true },
    })
    expect(made.status).toBe(201)
    await commitFiles(t, 'root/secret', 'main', { 'ci.yml': 'secret: { script: echo s }\n' }, ROOT)
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: { project: root/secret, file: ci.yml }\nown: { script: x }\n',
    })
    const count = () =>
      t.server.store.pipelines.count({
        projectId: t.server.store.projects.byPath('acme/app')!.id,
        order: 'id',
        sort: 'asc',
      })
    const before = count()
    const res = await create()
    expect([res.status, res.body]).toEqual([400, refused(denied('root/secret'))])
    expect(count()).toBe(before)
    // The admin may read it: the same commit makes a pipeline for them (the refusal was not kept).
    const admin = await create(ROOT)
    expect(admin.status).toBe(201)
    expect(jobNames((admin.body as Json).id as number)).toEqual(['own', 'secret'])
    // ...and refuses mark again (what the admin could read was not kept for others either).
    expect((await create()).body).toEqual(refused(denied('root/secret')))

    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: { project: acme/nope, file: ci.yml }\nown: { script: x }\n',
    })
    expect((await create()).body).toEqual(refused(denied('acme/nope')))
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: { project: acme/other, ref: nope, file: ci.yml }\nown: { script: x }\n',
    })
    expect((await create()).body).toEqual(refused('Project `acme/other` reference `nope` does not exist!'))
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: { project: acme/other, file: missing.yml }\nown: { script: x }\n',
    })
    expect((await create()).body).toEqual(refused('Project `acme/other` file `missing.yml` does not exist!'))
  })
})
