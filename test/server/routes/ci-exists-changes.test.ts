/*
 * `rules:exists` against the pipeline commit's files and `rules:changes` (and `only:changes`) against
 * what a push changed, through the real server: files committed through the API, pipelines by trigger and
 * by push (`lib/gitlab/ci/build/rules/rule/clause/exists.rb`, `changes.rb`).
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

const jobNames = async (id: number) =>
  ((await t.http('GET', `${APP}/pipelines/${id}/jobs`, { token: MARK })).body as Json[])
    .map((j) => String(j.name))
    .sort()
const trigger = async (ref: string) => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=${ref}&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
/** A commit through the API (a push): `start` makes `branch` anew from it. */
const push = async (branch: string, files: Record<string, string>, start?: string) => {
  const res = await t.http('POST', `${APP}/repository/commits`, {
    token: MARK,
    json: {
      branch,
      ...(start ? { start_branch: start } : {}),
      commit_message: 'change',
      actions: Object.entries(files).map(([file_path, content]) => ({
        action: 'create',
        file_path,
        content,
      })),
    },
  })
  expect(res.status).toBe(201)
  const pipelines = (await t.http('GET', `${APP}/pipelines`, { token: MARK, query: 'source=push' }))
    .body as Json[]
  return pipelines[0]?.id as number
}

describe('rules:exists', () => {
  it("matches the commit's files with fnmatch's globs (dot files, **/, {a,b}, paths:)", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
always: { script: x }
docker: { script: x, rules: [ { exists: [Dockerfile] } ] }
docs: { script: x, rules: [ { exists: ['docs/**/*.md'] } ] }
dotfile: { script: x, rules: [ { exists: ['*.yml'] } ] }
either: { script: x, rules: [ { exists: ['{lib,src}/*.ts'] } ] }
paths-form: { script: x, rules: [ { exists: { paths: [Dockerfile] } } ] }
missing: { script: x, rules: [ { exists: [Makefile] } ] }
shallow: { script: x, rules: [ { exists: ['*.md'] } ] }
and-if: { script: x, rules: [ { if: $NOPE, exists: [Dockerfile] }, { when: never } ] }
expanded: { script: x, variables: { DIR: docs }, rules: [ { exists: ['$DIR/guide/*.md'] } ] }
undefined-var: { script: x, rules: [ { exists: ['\${NOPE}/*.md'] } ] }
`,
      Dockerfile: 'FROM scratch\n',
      'docs/guide/intro.md': '# Intro\n',
      'src/main.ts': 'export {}\n',
    })
    expect(await jobNames(await trigger('ci'))).toEqual([
      'always',
      'docker',
      'docs',
      'dotfile',
      'either',
      'expanded',
      'paths-form',
    ])
  })
})

describe('rules:changes', () => {
  const CONFIG = `
always: { script: x }
src: { script: x, rules: [ { changes: ['src/**/*'] } ] }
docs: { script: x, rules: [ { changes: [docs/*] } ] }
only-src: { script: x, only: { changes: ['src/*'] } }
except-src: { script: x, except: { changes: ['src/*'] } }
`
  it('a push that moves a branch runs the jobs whose paths changed; a trigger, a new branch all of them', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    expect(await jobNames(await push('ci', { 'src/app.ts': 'x\n' }))).toEqual(['always', 'only-src', 'src'])
    expect(await jobNames(await push('ci', { 'docs/a.md': 'x\n' }))).toEqual(['always', 'docs', 'except-src'])
    // Not a push, or a push that made the branch: nothing to compare, `changes` matches.
    expect(await jobNames(await trigger('ci'))).toEqual(['always', 'docs', 'only-src', 'src'])
    expect(await jobNames(await push('fresh', { 'README.md': 'x\n' }, 'ci'))).toEqual([
      'always',
      'docs',
      'only-src',
      'src',
    ])
  })
})
