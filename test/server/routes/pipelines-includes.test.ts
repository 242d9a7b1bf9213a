import { commitFiles } from '../../support/ci-files.js'
import { fileServer } from '../../support/file-server.js'
import { eventually } from '../../support/hook-receiver.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach, type TestServer } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer of acme
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

const t = serverEach(pipelineSeed, () => ({ clock: manualClock() }))

const create = (token = MARK, ref = 'ci', server: TestServer = t) =>
  server.http('POST', `${APP}/pipeline`, { token, json: { ref } })
const jobNames = (pipelineId: number, server: TestServer = t) =>
  server.server.store.pipelines
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

    // A repository feature turned off hides the files even from a maintainer (`download_code`).
    await commitFiles(t, 'acme/other', 'main', { 'ci.yml': 'other: { script: x }\n' })
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: { project: acme/other, file: ci.yml }\nown: { script: x }\n',
    })
    expect((await create()).status).toBe(201)
    const off = await t.http('PUT', '/api/v4/projects/acme%2Fother', {
      token: MARK,
      json: { repository_access_level: 'disabled' },
    })
    expect(off.status).toBe(200)
    expect((await create()).body).toEqual(refused(denied('acme/other')))
    await t.http('PUT', '/api/v4/projects/acme%2Fother', {
      token: MARK,
      json: { repository_access_level: 'enabled' },
    })

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

describe('include: remote', () => {
  const local = serverEach(pipelineSeed, () => ({ clock: manualClock(), allowLocalRequests: true }))
  let web: Awaited<ReturnType<typeof fileServer>>
  beforeEach(async () => {
    web = await fileServer({
      '/ci/remote.yml': 'include: [{ local: ci/own.yml }]\nremote: { script: echo remote }\n',
      '/ci/empty.yml': '',
      '/ci/big.yml': `${'#'.repeat(1024 * 1024)}\n`,
    })
  })
  afterEach(() => web.close())
  const config = (include: string) => ({ '.gitlab-ci.yml': `include: ${include}\nmain: { script: x }\n` })

  it("fetches the URL, its local includes read from the pipeline's commit, for the API and triggers", async () => {
    await commitFiles(local, 'acme/app', 'ci', {
      ...config(`${web.base}/ci/remote.yml`),
      'ci/own.yml': 'own: { script: echo own }\n',
    })
    const res = await create(MARK, 'ci', local)
    expect(res.status).toBe(201)
    expect(jobNames((res.body as Json).id as number, local)).toEqual(['main', 'own', 'remote'])
    const triggered = await local.http('POST', `${APP}/trigger/pipeline`, {
      form: `ref=ci&token=${MARK_TRIGGER}`,
    })
    expect(triggered.status).toBe(201)
    expect(jobNames((triggered.body as Json).id as number, local)).toEqual(['main', 'own', 'remote'])
    // Each pipeline fetches it again (the file may change), once.
    expect(web.requests).toEqual(['/ci/remote.yml', '/ci/remote.yml'])
  })

  it("answers GitLab's errors for a missing, empty, unreachable or badly named file", async () => {
    const refusal = async (include: string) => {
      await commitFiles(local, 'acme/app', 'ci', config(include))
      const res = await create(MARK, 'ci', local)
      expect(res.status).toBe(400)
      return (res.body as { message: { base: string[] } }).message.base[0]
    }
    expect(await refusal(`{ remote: "${web.base}/ci/missing.yml" }`)).toBe(
      `Remote file \`${web.base}/ci/missing.yml\` could not be fetched because of HTTP code \`404\` error!`,
    )
    expect(await refusal(`${web.base}/ci/empty.yml`)).toBe(
      `Included file \`${web.base}/ci/empty.yml\` is empty or does not exist!`,
    )
    // Past GitLab's 1 MiB YAML limit the rest is not read.
    expect(await refusal(`${web.base}/ci/big.yml`)).toBe(
      `Included file \`${web.base}/ci/big.yml\` does not have valid YAML syntax!`,
    )
    expect(await refusal(`{ remote: "${web.base}/ci/remote.txt" }`)).toBe(
      `Included file \`${web.base}/ci/remote.txt\` does not have YAML extension!`,
    )
    expect(await refusal('{ remote: "ftp://example.com/ci.yml" }')).toBe(
      'Remote file `ftp://example.com/ci.yml` does not have a valid address!',
    )
    const closed = web.base
    await web.close()
    web = await fileServer({})
    const port = new URL(closed).port
    expect(await refusal(`${closed}/ci/remote.yml`)).toBe(
      `Remote file could not be fetched because Failed to open TCP connection to 127.0.0.1:${port} (Connection refused - connect(2) for "127.0.0.1" port ${port})!`,
    )
  })

  it('follows a push: the pipeline comes once the file is fetched', async () => {
    const pushed = await local.http('POST', `${APP}/repository/commits`, {
      token: MARK,
      json: {
        branch: 'main',
        commit_message: 'remote CI',
        actions: [
          {
            action: 'create',
            file_path: '.gitlab-ci.yml',
            content: config(`${web.base}/ci/remote.yml`)['.gitlab-ci.yml'],
          },
          { action: 'create', file_path: 'ci/own.yml', content: 'own: { script: x }\n' },
        ],
      },
    })
    expect(pushed.status).toBe(201)
    const sha = (pushed.body as Json).id
    const latest = await eventually(
      async () => ((await local.http('GET', `${APP}/pipelines`, { token: MARK })).body as Json[])[0],
      (p) => p?.sha === sha,
    )
    expect(latest).toMatchObject({ source: 'push', ref: 'main' })
    expect(jobNames(latest?.id as number, local)).toEqual(['main', 'own', 'remote'])
  })

  it("is awaited by the emulator's settle: the push's pipeline made and run to its end", async () => {
    const slow = await fileServer({ '/ci/remote.yml': 'remote: { script: echo remote }\n' }, 300)
    try {
      const pushed = await local.http('POST', `${APP}/repository/commits`, {
        token: MARK,
        json: {
          branch: 'main',
          commit_message: 'slow remote CI',
          actions: [
            {
              action: 'create',
              file_path: '.gitlab-ci.yml',
              content: config(`${slow.base}/ci/remote.yml`)['.gitlab-ci.yml'],
            },
          ],
        },
      })
      expect(pushed.status).toBe(201)
      const settled = await local.http('POST', '/-/emulator/settle', { token: ROOT })
      expect(settled.status).toBe(200)
      const latest = ((await local.http('GET', `${APP}/pipelines`, { token: MARK })).body as Json[])[0]
      expect(latest).toMatchObject({ sha: (pushed.body as Json).id, source: 'push', status: 'success' })
    } finally {
      await slow.close()
    }
  })

  it('expands $VARIABLES in the URL before it is fetched', async () => {
    await commitFiles(local, 'acme/app', 'ci', {
      // A string is a URL or a path before expansion (GitLab's order): a variable URL needs `remote:`.
      ...config('{ remote: "${SERVER}/${CI_COMMIT_REF_NAME}/remote.yml" }'),
      'ci/own.yml': 'own: { script: x }\n',
    })
    const res = await local.http('POST', `${APP}/pipeline`, {
      token: MARK,
      json: { ref: 'ci', variables: [{ key: 'SERVER', value: web.base }] },
    })
    expect(res.status).toBe(201)
    expect(jobNames((res.body as Json).id as number, local)).toEqual(['main', 'own', 'remote'])
    expect(web.requests).toEqual(['/ci/remote.yml'])
  })

  it('refuses local addresses without --allow-local-requests', async () => {
    await commitFiles(t, 'acme/app', 'ci', config(`${web.base}/ci/remote.yml`))
    const res = await create()
    expect([res.status, res.body]).toEqual([
      400,
      refused(
        'Remote file could not be fetched because URL is blocked: Requests to localhost are not allowed!',
      ),
    ])
    expect(web.requests).toEqual([])
  })
})

describe('$VARIABLES in include locations', () => {
  const withVariables = (variables: Json[], ref = 'ci') =>
    t.http('POST', `${APP}/pipeline`, { token: MARK, json: { ref, variables } })

  it("expands the pipeline's variables and the predefined ones in local, project, ref and file", async () => {
    await commitFiles(t, 'acme/other', 'v2', { 'templates/build.yml': 'build2: { script: echo v2 }\n' })
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': [
        'include:',
        '  - local: ci/$FLAVOUR.yml',
        '  - { project: "${CI_PROJECT_NAMESPACE}/other", ref: "%OTHER_REF%", file: "templates/$KIND.yml" }',
        '  - ci/${CI_COMMIT_REF_NAME}-only.yml',
        'own: { script: x }',
        '',
      ].join('\n'),
      'ci/fast.yml': 'fast: { script: x }\n',
      'ci/slow.yml': 'slow: { script: x }\n',
      'ci/ci-only.yml': 'branch: { script: x }\n',
    })
    const vars = (flavour: string, type = 'env_var') => [
      { key: 'FLAVOUR', value: flavour, variable_type: type },
      { key: 'OTHER_REF', value: 'v2' },
      { key: 'KIND', value: 'build' },
    ]
    const fast = await withVariables(vars('fast'))
    expect(fast.status).toBe(201)
    expect(jobNames((fast.body as Json).id as number)).toEqual(['branch', 'build2', 'fast', 'own'])
    // The same commit with other variables reads other files (no compiled configuration reused), a
    // file variable by its content.
    const slow = await withVariables(vars('slow', 'file'))
    expect(slow.status).toBe(201)
    expect(jobNames((slow.body as Json).id as number)).toEqual(['branch', 'build2', 'own', 'slow'])
  })

  it('expands an unknown variable to nothing, as GitLab does, and refuses what that leaves', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: { local: "ci/$NOPE.yml" }\nown: { script: x }\n',
    })
    const res = await withVariables([])
    expect([res.status, res.body]).toEqual([
      400,
      refused('Included file `ci/.yml` does not have YAML extension!'),
    ])
  })
})
