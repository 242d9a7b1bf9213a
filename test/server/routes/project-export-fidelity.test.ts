import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { tarGzMembers } from '../../support/archive-members.js'
import { droppedKeys, TREE } from '../../support/gitlab-permitted-attributes.js'
import { exportSettled, importFile, settled } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
type Json = Record<string, unknown>

/** A project with branches, merge requests (one merged), a confidential and locked issue, notes both ways. */
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: ${ALICE} }
groups:
  - { path: acme, name: ACME, visibility: internal, members: { alice: maintainer } }
projects:
  - path: acme/app
    visibility: internal
    refs: [main, develop, feature/login]
    issues:
      - { title: Open question, author: alice }
      - { title: Security hole, author: alice, confidential: true, discussion_locked: true }
    merge_requests:
      - { title: Login, author: alice, source_branch: feature/login, mentions_issues: [1] }
      - { title: Develop, author: alice, source_branch: develop, state: merged, mentions_issues: [1] }
`
const APP = '/api/v4/projects/acme%2Fapp'
const COPY = '/api/v4/projects/acme%2Fapp-copy'
const BRANCHES = ['develop', 'feature/login', 'main']

let t: TestServer
let tmp: string
beforeAll(async () => {
  t = await startServer(seed)
  tmp = mkdtempSync(join(tmpdir(), 'export-fidelity-'))
})
afterAll(async () => {
  await t.close()
  rmSync(tmp, { recursive: true, force: true })
})

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' })
const ok = async (method: string, path: string, json?: unknown, token = ROOT) => {
  const res = await t.http(method, path, { token, json })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body as Json & Json[]
}

/** The SHA each ref resolves to, as the API reports it: the `sha` of a pipeline triggered on it. */
async function refShas(project: string, refs: string[]): Promise<Record<string, unknown>> {
  const { token } = await ok('POST', `${project}/triggers`, { description: 'refs' })
  const out: Record<string, unknown> = {}
  for (const ref of refs) {
    const res = await t.http('POST', `${project}/trigger/pipeline`, {
      form: `ref=${encodeURIComponent(ref)}&token=${String(token)}`,
    })
    out[ref] = res.status === 201 ? (res.body as Json).sha : `${res.status} ${res.text}`
  }
  return out
}

/** `git bundle verify` (throws unless git accepts the bundle), then its refs by `git bundle list-heads`. */
function listHeads(bundle: Buffer): Record<string, string> {
  const repo = mkdtempSync(join(tmp, 'verify-'))
  git(repo, 'init', '-q')
  const file = join(tmp, 'project.bundle')
  writeFileSync(file, bundle)
  git(repo, 'bundle', 'verify', '-q', file)
  return Object.fromEntries(
    git(repo, 'bundle', 'list-heads', file)
      .trim()
      .split('\n')
      .map((l) => l.split(' ').reverse()),
  ) as Record<string, string>
}

async function exportArchive(project: string): Promise<Buffer> {
  await ok('POST', `${project}/export`)
  await exportSettled(t, project, ROOT)
  const dl = await request(`${t.baseUrl}${project}/export/download`, { headers: { 'private-token': ROOT } })
  return Buffer.from(await dl.body.arrayBuffer())
}

async function importArchive(file: string, path: string): Promise<Json> {
  const res = await importFile(t, file, { path, namespace: 'acme' }, ROOT, 'export.tar.gz')
  return settled(t, res.body!.id, ROOT)
}

describe('an export GitLab imports without losing data', () => {
  let files: Map<string, { body: string; bytes: Buffer }>
  let archive: string
  let refs: Record<string, unknown>
  let mergeRequests: Json[]
  const lines = (relation: string) =>
    files
      .get(`./tree/project/${relation}.ndjson`)!
      .body.split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Json)

  beforeAll(async () => {
    await ok('POST', `${APP}/issues/1/notes`, { body: 'Public remark' }, ALICE)
    await ok('POST', `${APP}/issues/1/notes`, { body: 'Internal remark', internal: true }, ALICE)
    refs = await refShas(APP, BRANCHES)
    mergeRequests = await ok('GET', `${APP}/issues/1/related_merge_requests`)
    const bytes = await exportArchive(APP)
    archive = join(tmp, 'app.tar.gz')
    writeFileSync(archive, bytes)
    files = await tarGzMembers(bytes)
  })

  it("writes only attributes GitLab's import permits (import_export.yml), in relations it reads", () => {
    const dropped: string[] = []
    for (const [name, { body }] of files) {
      const relation = /^\.\/tree\/project\/(.+)\.ndjson$/.exec(name)?.[1]
      if (name === './tree/project.json') dropped.push(...droppedKeys('project', JSON.parse(body), TREE))
      if (!relation) continue
      const tree = TREE[relation]
      if (!tree) {
        dropped.push(`${relation}: not a relation GitLab reads`)
        continue
      }
      const values = ['project_feature', 'ci_cd_settings'].includes(relation)
        ? [JSON.parse(body) as unknown] // a single relation: one value, no newline
        : body
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as unknown)
      for (const value of values) dropped.push(...droppedKeys(relation, value, tree))
    }
    expect(dropped).toEqual([])
    expect(
      ['project_feature', 'ci_cd_settings', 'protected_branches'].map((r) =>
        files.has(`./tree/project/${r}.ndjson`),
      ),
    ).toEqual([true, true, true])
  })

  it('writes internal notes as confidential, and confidential and locked issues', () => {
    const [first, second] = lines('issues')
    expect((first!.notes as Json[]).map((n) => [n.note, n.confidential])).toEqual([
      ['Public remark', false],
      ['Internal remark', true],
    ])
    expect(second).toMatchObject({ confidential: true, discussion_locked: true })
  })

  it('writes project.bundle: git verifies it, its refs are the SHAs the API reports, merge requests have their diff', () => {
    const heads = listHeads(files.get('./project.bundle')!.bytes)
    const [login, merged] = [...mergeRequests].sort((a, b) => Number(a.iid) - Number(b.iid))
    expect(heads).toEqual({
      HEAD: refs.main,
      ...Object.fromEntries(BRANCHES.map((b) => [`refs/heads/${b}`, refs[b]])),
      'refs/merge-requests/1/head': login!.sha,
      'refs/merge-requests/2/head': merged!.sha,
      [`refs/keep-around/${String(merged!.merge_commit_sha)}`]: merged!.merge_commit_sha,
    })
    const repo = mkdtempSync(join(tmp, 'repo-'))
    git(repo, 'init', '-q')
    git(repo, 'fetch', '-q', join(tmp, 'project.bundle'), 'refs/*:refs/*')
    expect(git(repo, 'rev-parse', `${String(login!.sha)}^`).trim()).toBe(refs.main)
    const diffRefs = login!.diff_refs as Json
    expect(lines('merge_requests')[0]).toMatchObject({
      iid: 1,
      diff_head_sha: login!.sha,
      target_branch_sha: refs.main,
      source_branch_sha: refs['feature/login'],
      merge_request_diff: {
        base_commit_sha: diffRefs.base_sha,
        head_commit_sha: diffRefs.head_sha,
        start_commit_sha: diffRefs.start_sha,
        merge_request_diff_commits: [{ sha: login!.sha }],
      },
    })
    expect(lines('merge_requests')[1]).toMatchObject({ merge_commit_sha: merged!.merge_commit_sha })
  })

  it('imports back with the same notes, issue flags, visibility and refs', async () => {
    expect(await importArchive(archive, 'app-copy')).toMatchObject({
      import_status: 'finished',
      failed_relations: [],
    })
    const notes = async (project: string) =>
      ((await ok('GET', `${project}/issues/1/notes`, undefined)) as Json[])
        .map((n) => ({
          body: n.body,
          internal: n.internal,
          system: n.system,
          author: (n.author as Json).username,
        }))
        .sort((a, b) => String(a.body).localeCompare(String(b.body)))
    expect(await notes(COPY)).toEqual(await notes(APP))
    const flags = async (project: string) =>
      ((await ok('GET', `${project}/issues`)) as Json[]).map((i) => [
        i.iid,
        i.confidential,
        i.discussion_locked,
      ])
    expect(await flags(COPY)).toEqual(await flags(APP))
    expect((await ok('GET', COPY)).visibility).toBe('internal')
    // The copy's refs, as its own export writes them: the same commits, merge request heads included.
    expect(listHeads((await tarGzMembers(await exportArchive(COPY))).get('./project.bundle')!.bytes)).toEqual(
      listHeads(files.get('./project.bundle')!.bytes),
    )
  })

  it('restores the branches and tags of a bundle git made; an archive whose bundle is broken fails', async () => {
    const withBundle = async (make: (bundle: string) => void, name: string) => {
      const dir = mkdtempSync(join(tmp, 'archive-'))
      execFileSync('tar', ['-xzf', archive, '-C', dir])
      make(join(dir, 'project.bundle'))
      const file = join(tmp, `${name}.tar.gz`)
      execFileSync('tar', ['-czf', file, '-C', dir, '.'])
      return importArchive(file, name)
    }
    const tagged = await withBundle((bundle) => {
      const repo = mkdtempSync(join(tmp, 'tagged-'))
      git(repo, 'init', '-q', '-b', 'trunk')
      writeFileSync(join(repo, 'README.md'), 'hello\n')
      git(repo, 'add', 'README.md')
      git(repo, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'first')
      git(repo, 'tag', 'v1.0')
      git(repo, 'bundle', 'create', '-q', bundle, '--all')
    }, 'app-tagged')
    expect(tagged).toMatchObject({ import_status: 'finished' })
    // The copy has no CI configuration (its commits hold no .gitlab-ci.yml): a ref it has says so.
    const has = 'Missing CI config file'
    const lacks = 'Reference not found'
    expect(
      Object.values(await refShas('/api/v4/projects/acme%2Fapp-tagged', ['trunk', 'v1.0', 'main'])).map(
        (r) => (String(r).includes(has) ? has : String(r).includes(lacks) ? lacks : r),
      ),
    ).toEqual([has, has, lacks])

    const broken = await withBundle((bundle) => writeFileSync(bundle, 'not a bundle'), 'app-broken')
    expect(broken).toMatchObject({
      import_status: 'failed',
      import_error: expect.stringContaining('repository'),
    })
  })
})
