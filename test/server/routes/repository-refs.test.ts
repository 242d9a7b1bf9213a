import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { DANA, GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'
import type { PushEvent } from '../../../src/server/services/repository/repository.js'
import { readFileAt } from '../../../src/server/git/read-file.js'
import { openState } from '../../../src/server/start/open-state.js'
import { parseSeed } from '../../../src/server/seed/parse.js'
import { Actor } from '../../../src/server/services/access.js'

const P = '/api/v4/projects/acme%2Fapp'
const CI = '/api/v4/projects/acme%2Fci'
type Json = Record<string, unknown>
const ZERO = '0'.repeat(40)

let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
})
afterEach(() => t.close())

const commit = async (branch: string, path: string, content = 'x', token = MARK) => {
  clock.advance(1000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token,
    json: {
      branch,
      commit_message: `edit ${path}`,
      actions: [{ action: 'create', file_path: path, content }],
    },
  })
  expect(res.status).toBe(201)
  return (res.body as Json).id as string
}

describe('seeded files', () => {
  it("commits a seed's files: on every seeded ref; the tree lists them, readFileAt reads them", async () => {
    const tree = await t.http('GET', `${CI}/repository/tree?recursive=true`, { token: RITA })
    expect(tree.status).toBe(200)
    expect(tree.body).toEqual([
      { id: expect.any(String), name: 'docs', type: 'tree', path: 'docs', mode: '040000' },
      {
        id: expect.any(String),
        name: '.gitlab-ci.yml',
        type: 'blob',
        path: '.gitlab-ci.yml',
        mode: '100644',
      },
      { id: expect.any(String), name: 'README.md', type: 'blob', path: 'docs/README.md', mode: '100644' },
    ])
    expect(tree.headers['x-total']).toBe('3')
    for (const ref of ['main', 'develop', 'v0'])
      expect(
        (await t.http('GET', `${CI}/repository/files/.gitlab-ci.yml/raw?ref=${ref}`, { token: RITA })).text,
      ).toBe('build:\n  script: [make]\n')
    const sha = ((await t.http('GET', `${CI}/repository/commits/main`, { token: RITA })).body as Json)
      .id as string
    expect(readFileAt(t.server.store, sha, '.gitlab-ci.yml')?.toString()).toBe('build:\n  script: [make]\n')
    expect(readFileAt(t.server.store, sha, 'docs')).toBeUndefined()
    const top = await t.http('GET', `${CI}/repository/tree?path=docs`, { token: RITA })
    expect((top.body as Json[]).map((e) => e.path)).toEqual(['docs/README.md'])
    expect((await t.http('GET', `${CI}/repository/tree?path=nope`, { token: RITA })).body).toEqual({
      message: '404 Tree Not Found',
    })
    expect((await t.http('GET', `${CI}/repository/tree`, { token: GUS })).status).toBe(403)
  })

  it('pages the tree by offset and by keyset (page_token)', async () => {
    const first = await t.http('GET', `${CI}/repository/tree?recursive=true&pagination=keyset&per_page=2`, {
      token: RITA,
    })
    const items = first.body as Json[]
    expect(items.map((e) => e.path)).toEqual(['docs', '.gitlab-ci.yml'])
    expect(first.headers.link).toContain(`page_token=${String(items[1]!.id)}`)
    expect(first.headers.link).toContain('rel="next"')
    const next = await t.http(
      'GET',
      `${CI}/repository/tree?recursive=true&pagination=keyset&per_page=2&page_token=${String(items[1]!.id)}`,
      { token: RITA },
    )
    expect((next.body as Json[]).map((e) => e.path)).toEqual(['docs/README.md'])
    expect(next.headers.link).toBeUndefined()
    const offset = await t.http('GET', `${CI}/repository/tree?recursive=true&per_page=1&page=3`, {
      token: RITA,
    })
    expect((offset.body as Json[]).map((e) => e.path)).toEqual(['docs/README.md'])
    expect(offset.headers['x-total-pages']).toBe('3')
  })
})

describe('commits list', () => {
  it('all=true walks every branch and tag, newest first, each commit once, ref_name ignored', async () => {
    const a = await commit('develop', 'a.txt')
    const list = async (q: string) =>
      ((await t.http('GET', `${P}/repository/commits?${q}`, { token: RITA })).body as Json[]).map((x) => x.id)
    const main = await list('ref_name=main')
    expect(main).not.toContain(a)
    const all = await list('all=true&ref_name=main')
    expect(all[0]).toBe(a)
    expect(new Set(all).size).toBe(all.length)
    expect(all).toEqual(expect.arrayContaining(main))
    expect(await list('all=true&path=a.txt')).toEqual([a])
  })

  it('lists newest first, by ref_name, path, since and until, with pages', async () => {
    const a = await commit('develop', 'a.txt')
    const b = await commit('develop', 'b.txt')
    const c = await commit('develop', 'dir/c.txt')
    const list = async (q: string) =>
      ((await t.http('GET', `${P}/repository/commits?${q}`, { token: RITA })).body as Json[]).map((x) => x.id)
    const all = await list('ref_name=develop')
    expect(all.slice(0, 3)).toEqual([c, b, a])
    expect(all).toHaveLength(4)
    expect(await list('ref_name=develop&path=dir')).toEqual([c])
    expect(await list('ref_name=develop&since=2026-03-01T10:00:02Z&until=2026-03-01T10:00:02Z')).toEqual([b])
    const page = await t.http('GET', `${P}/repository/commits?ref_name=develop&per_page=2&page=2`, {
      token: RITA,
    })
    expect((page.body as Json[]).map((x) => x.id)).toEqual([a, all[3]])
    expect(page.headers['x-total']).toBe('4')
    expect(await list('ref_name=nope')).toEqual([])
    const withStats = await t.http(
      'GET',
      `${P}/repository/commits?ref_name=develop&with_stats=true&per_page=1`,
      { token: RITA },
    )
    expect((withStats.body as Json[])[0]).toMatchObject({
      id: c,
      stats: { additions: 1, deletions: 0, total: 1 },
    })
    const one = await t.http('GET', `${P}/repository/commits/${c.slice(0, 7)}?stats=false`, { token: RITA })
    expect(one.body).toMatchObject({ id: c, project_id: expect.any(Number) })
    expect(one.body).not.toHaveProperty('stats')
    const { token } = (await t.http('POST', `${P}/triggers`, { token: MARK, json: { description: 'x' } }))
      .body as Json
    const pipeline = await t.http('POST', `${P}/trigger/pipeline`, {
      form: `ref=develop&token=${String(token)}`,
    })
    expect(pipeline.status).toBe(201)
    const detail = (await t.http('GET', `${P}/repository/commits/develop`, { token: RITA })).body as Json
    expect(detail).toMatchObject({
      id: c,
      status: (pipeline.body as Json).status,
      last_pipeline: { id: (pipeline.body as Json).id, sha: c, ref: 'develop', source: 'trigger' },
    })
    expect((await t.http('GET', `${P}/repository/commits/${'0'.repeat(40)}`, { token: RITA })).body).toEqual({
      message: '404 Commit Not Found',
    })
  })
})

describe('branches', () => {
  it("searches as GitLab's GitRefsFinder: ^prefix, suffix$, else a substring with the exact match first; any case", async () => {
    for (const branch of ['feature/main', 'Main-old'])
      await t.http('POST', `${P}/repository/branches`, { token: DANA, json: { branch, ref: 'main' } })
    const names = async (search: string) => {
      const res = await t.http('GET', `${P}/repository/branches`, {
        token: DANA,
        query: `search=${encodeURIComponent(search)}`,
      })
      return [(res.body as Json[]).map((b) => b.name), res.headers['x-total']]
    }
    expect(await names('main')).toEqual([['main', 'Main-old', 'feature/main'], '3'])
    expect(await names('^MAI')).toEqual([['Main-old', 'main'], '2'])
    expect(await names('main$')).toEqual([['feature/main', 'main'], '2'])
    expect(await names('^dev')).toEqual([['develop'], '1'])
    expect(await names('^main$')).toEqual([['main'], '1'])
    expect(await names('f*/m')).toEqual([['feature/main'], '1'])
  })

  it('lists with search and GitLab keys; merged, protected, can_push and default per branch', async () => {
    await t.http('POST', `${P}/repository/branches`, {
      token: DANA,
      json: { branch: 'feature/login', ref: 'main' },
    })
    const list = await t.http('GET', `${P}/repository/branches`, { token: DANA })
    expect((list.body as Json[]).map((b) => b.name)).toEqual(['develop', 'feature/login', 'main'])
    const main = (list.body as Json[])[2]!
    expect(Object.keys(main)).toEqual([
      'name',
      'commit',
      'merged',
      'protected',
      'developers_can_push',
      'developers_can_merge',
      'can_push',
      'default',
      'web_url',
    ])
    expect(main).toMatchObject({
      protected: true,
      default: true,
      can_push: false,
      merged: false,
      developers_can_push: false,
    })
    expect((list.body as Json[])[1]).toMatchObject({
      name: 'feature/login',
      merged: true,
      protected: false,
      can_push: true,
    })
    const search = await t.http('GET', `${P}/repository/branches?search=feat`, { token: DANA })
    expect((search.body as Json[]).map((b) => b.name)).toEqual(['feature/login'])
    expect(search.headers['x-total']).toBe('1')
    const one = await t.http('GET', `${P}/repository/branches/${encodeURIComponent('feature/login')}`, {
      token: RITA,
    })
    expect(one.body).toMatchObject({
      name: 'feature/login',
      web_url: expect.stringMatching(/\/acme\/app\/-\/tree\/feature\/login$/),
    })
    expect((await t.http('GET', `${P}/repository/branches/nope`, { token: RITA })).body).toEqual({
      message: '404 Branch Not Found',
    })
  })

  it("creates from a ref and deletes, with GitLab's refusals, changing nothing when refused", async () => {
    const create = (json: Json, token = DANA) => t.http('POST', `${P}/repository/branches`, { token, json })
    const created = await create({ branch: 'topic', ref: 'develop' })
    expect(created.status).toBe(201)
    const cases: [Json, number, unknown, string?][] = [
      [{ branch: 'topic', ref: 'main' }, 400, { message: 'Branch already exists' }],
      [{ branch: 'bad..name', ref: 'main' }, 400, { message: 'Branch name is invalid' }],
      [{ branch: 'other', ref: 'nope' }, 400, { message: 'Invalid reference name: nope' }],
      [{ ref: 'main' }, 400, { error: 'branch is missing, branch is empty' }],
      [{ branch: 'other', ref: 'main' }, 403, { message: '403 Forbidden' }, RITA],
      [{ branch: 'other', ref: 'main' }, 404, { message: '404 Project Not Found' }, OTTO],
    ]
    for (const [json, status, body, token] of cases) {
      const res = await create(json, token)
      expect([json, res.status, res.body]).toEqual([json, status, body])
    }
    expect(
      ((await t.http('GET', `${P}/repository/branches`, { token: DANA })).body as Json[]).map((b) => b.name),
    ).toEqual(['develop', 'main', 'topic'])
    expect((await t.http('DELETE', `${P}/repository/branches/main`, { token: MARK })).body).toEqual({
      message: 'Cannot remove HEAD branch',
    })
    await t.http('POST', `${P}/protected_branches`, {
      token: MARK,
      json: { name: 'top*', push_access_level: 30 },
    })
    const refused = await t.http('DELETE', `${P}/repository/branches/topic`, { token: DANA })
    expect([refused.status, refused.body]).toEqual([
      405,
      { message: 'You dont have permission to delete the branch' },
    ])
    expect((await t.http('DELETE', `${P}/repository/branches/topic`, { token: MARK })).status).toBe(204)
    expect((await t.http('DELETE', `${P}/repository/branches/topic`, { token: MARK })).status).toBe(404)
  })

  it('protects and unprotects (Maintainer): a wildcard lets Developers push where its level says', async () => {
    const made = await t.http('POST', `${P}/protected_branches`, {
      token: MARK,
      json: { name: 'release/*', push_access_level: 30, merge_access_level: 40 },
    })
    expect(made.status).toBe(201)
    expect(Object.keys(made.body as Json)).toEqual([
      'id',
      'name',
      'push_access_levels',
      'merge_access_levels',
      'allow_force_push',
      'unprotect_access_levels',
      'code_owner_approval_required',
      'inherited',
    ])
    expect(made.body).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
      allow_force_push: false,
    })
    const again = await t.http('POST', `${P}/protected_branches`, {
      token: MARK,
      json: { name: 'release/*' },
    })
    expect([again.status, again.body]).toEqual([
      409,
      { message: "Protected branch 'release/*' already exists" },
    ])
    const bad = await t.http('POST', `${P}/protected_branches`, {
      token: MARK,
      json: { name: 'x', push_access_level: 35 },
    })
    expect([bad.status, bad.body]).toEqual([400, { error: 'push_access_level does not have a valid value' }])
    expect(
      (await t.http('POST', `${P}/protected_branches`, { token: DANA, json: { name: 'x' } })).status,
    ).toBe(403)
    expect((await t.http('GET', `${P}/protected_branches`, { token: DANA })).status).toBe(403)
    await t.http('POST', `${P}/repository/branches`, {
      token: MARK,
      json: { branch: 'release/1', ref: 'main' },
    })
    const branch = (await t.http('GET', `${P}/repository/branches/release%2F1`, { token: DANA })).body as Json
    expect(branch).toMatchObject({
      protected: true,
      developers_can_push: true,
      developers_can_merge: false,
      can_push: true,
    })
    const list = await t.http('GET', `${P}/protected_branches`, { token: MARK })
    expect((list.body as Json[]).map((p) => p.name)).toEqual(['main', 'release/*'])
    expect((await t.http('GET', `${P}/protected_branches/nope`, { token: MARK })).body).toEqual({
      message: '404 Not found',
    })
    expect((await t.http('DELETE', `${P}/protected_branches/main`, { token: MARK })).status).toBe(204)
    expect(await commit('main', 'by-dana.txt', 'x', DANA)).toMatch(/^[0-9a-f]{40}$/)
  })
})

describe('tags', () => {
  it('creates lightweight and annotated tags, lists, reads and deletes them', async () => {
    const light = await t.http('POST', `${P}/repository/tags`, {
      token: DANA,
      json: { tag_name: 'v1', ref: 'main' },
    })
    expect(light.status).toBe(201)
    expect(Object.keys(light.body as Json)).toEqual([
      'name',
      'message',
      'target',
      'commit',
      'release',
      'protected',
      'created_at',
    ])
    expect(light.body).toMatchObject({
      name: 'v1',
      message: '',
      created_at: null,
      release: null,
      protected: false,
    })
    expect((light.body as Json).target).toBe(((light.body as Json).commit as Json).id)
    clock.advance(60_000)
    const sha = await commit('develop', 'new.txt')
    const annotated = await t.http('POST', `${P}/repository/tags`, {
      token: DANA,
      json: { tag_name: 'v2', ref: 'develop', message: 'Second' },
    })
    expect(annotated.body).toMatchObject({
      name: 'v2',
      message: 'Second',
      commit: { id: sha },
      created_at: '2026-03-01T10:01:01.000+00:00',
    })
    expect((annotated.body as Json).target).not.toBe(sha)
    const names = async (q = '') =>
      ((await t.http('GET', `${P}/repository/tags${q}`, { token: RITA })).body as Json[]).map((x) => x.name)
    expect(await names()).toEqual(['v2', 'v1'])
    expect(await names('?order_by=name&sort=asc')).toEqual(['v1', 'v2'])
    expect(await names('?search=2')).toEqual(['v2'])
    for (const tag_name of ['V1-rc', 'v1.1'])
      await t.http('POST', `${P}/repository/tags`, { token: DANA, json: { tag_name, ref: 'main' } })
    // `TagsFinder`: sorted first, then the exact match (any case) moved to the front; none for a pattern.
    expect(await names('?search=v1&order_by=name&sort=asc')).toEqual(['v1', 'V1-rc', 'v1.1'])
    expect(await names('?search=V1&order_by=name&sort=desc')).toEqual(['v1', 'v1.1', 'V1-rc'])
    expect(await names('?search=v1*&order_by=name&sort=desc')).toEqual(['v1.1', 'v1', 'V1-rc'])
    expect(await names('?search=^v1$')).toEqual(['v1'])
    for (const tag of ['V1-rc', 'v1.1'])
      await t.http('DELETE', `${P}/repository/tags/${tag}`, { token: DANA })
    const taken = await t.http('POST', `${P}/repository/tags`, {
      token: DANA,
      json: { tag_name: 'v1', ref: 'main' },
    })
    expect([taken.status, taken.body]).toEqual([409, { message: 'Tag v1 already exists' }])
    const target = await t.http('POST', `${P}/repository/tags`, {
      token: DANA,
      json: { tag_name: 'v3', ref: 'nope' },
    })
    expect([target.status, target.body]).toEqual([400, { message: 'Target nope is invalid' }])
    expect(
      (await t.http('POST', `${P}/repository/tags`, { token: RITA, json: { tag_name: 'v3', ref: 'main' } }))
        .status,
    ).toBe(403)
    expect((await t.http('DELETE', `${P}/repository/tags/v1`, { token: DANA })).status).toBe(204)
    expect((await t.http('GET', `${P}/repository/tags/v1`, { token: DANA })).body).toEqual({
      message: '404 Tag Not Found',
    })
    expect(await names()).toEqual(['v2'])
  })
})

describe('push listeners and reset', () => {
  it('tells onPush listeners of commits, branches and tags made through the API, after they are stored', async () => {
    const state = openState({ seed: parseSeed(repositorySeed, 'seed.yml'), clock })
    try {
      const { repository } = state.services
      const mark = new Actor(state.store.users.byUsername('mark')!)
      const events: Omit<PushEvent, 'project' | 'user'>[] = []
      repository.onPush(({ project, user, ...e }) => {
        expect([project.full_path, user.username]).toEqual(['acme/app', 'mark'])
        // Stored before the listener hears of it: a pipeline created here reads the new commit.
        expect(repository.resolveCommit(project, e.ref)).toBe(e.after === ZERO ? undefined : e.after)
        events.push(e)
      })
      const before = repository.branches.get(mark, 'acme/app', 'develop').commit.id
      const sha = repository.commits.create(mark, 'acme/app', {
        branch: 'develop',
        commit_message: 'm',
        actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }],
      }).id
      repository.files.update(mark, 'acme/app', 'x.txt', {
        branch: 'develop',
        commit_message: 'u',
        content: 'y',
      })
      const updated = repository.branches.get(mark, 'acme/app', 'develop').commit.id
      repository.branches.create(mark, 'acme/app', { branch: 'b', ref: 'develop' })
      repository.branches.remove(mark, 'acme/app', 'b')
      repository.tags.create(mark, 'acme/app', { tag_name: 't', ref: 'develop' })
      expect(events).toEqual([
        { kind: 'branch', ref: 'develop', before, after: sha },
        { kind: 'branch', ref: 'develop', before: sha, after: updated },
        { kind: 'branch', ref: 'b', before: ZERO, after: updated },
        { kind: 'branch', ref: 'b', before: updated, after: ZERO },
        { kind: 'tag', ref: 't', before: ZERO, after: updated },
      ])
    } finally {
      await state.close()
    }
  })

  it('reset() returns to the seed: commits, branches, tags and protections made through the API go', async () => {
    const seeded = async () => ({
      branches: (await t.http('GET', `${P}/repository/branches`, { token: MARK })).body,
      tags: (await t.http('GET', `${P}/repository/tags`, { token: MARK })).body,
      protected: (await t.http('GET', `${P}/protected_branches`, { token: MARK })).body,
    })
    const before = await seeded()
    await commit('develop', 'x.txt')
    await t.http('POST', `${P}/repository/branches`, { token: MARK, json: { branch: 'b', ref: 'develop' } })
    await t.http('POST', `${P}/repository/tags`, {
      token: MARK,
      json: { tag_name: 't', ref: 'develop', message: 'm' },
    })
    await t.http('POST', `${P}/protected_branches`, { token: MARK, json: { name: 'b' } })
    expect(await seeded()).not.toEqual(before)
    expect((await t.http('POST', '/-/emulator/reset', { token: 'glpat-root-token' })).status).toBe(200)
    expect(await seeded()).toEqual(before)
    expect((await t.http('GET', `${P}/repository/files/x.txt?ref=develop`, { token: MARK })).status).toBe(404)
  })
})

describe('projects made through the API', () => {
  it('initialize_with_readme commits README.md by the creator; an empty project takes its first commit and protects it', async () => {
    const made = await t.http('POST', '/api/v4/projects', {
      token: MARK,
      json: { name: 'Readme', namespace_id: 2, description: 'About it', initialize_with_readme: true },
    })
    expect(made.status).toBe(201)
    const id = (made.body as Json).id as number
    const readme = await t.http('GET', `/api/v4/projects/${id}/repository/files/README.md/raw`, {
      token: MARK,
    })
    expect([readme.status, readme.text]).toEqual([200, '# Readme\n\nAbout it\n'])
    const c = (await t.http('GET', `/api/v4/projects/${id}/repository/commits/main`, { token: MARK })).body
    expect(c).toMatchObject({ title: 'Initial commit', author_name: 'Mark Maintainer', parent_ids: [] })

    const empty = (
      await t.http('POST', '/api/v4/projects', { token: MARK, json: { name: 'Empty', namespace_id: 2 } })
    ).body as Json
    const E = `/api/v4/projects/${String(empty.id)}`
    expect((await t.http('GET', `${E}/repository/tree`, { token: MARK })).status).toBe(404)
    expect((await t.http('GET', `${E}/protected_branches`, { token: MARK })).body).toEqual([])
    const first = await t.http('POST', `${E}/repository/commits`, {
      token: MARK,
      json: {
        branch: 'main',
        commit_message: 'first',
        actions: [{ action: 'create', file_path: 'a', content: 'a' }],
      },
    })
    expect(first.status).toBe(201)
    expect((first.body as Json).parent_ids).toEqual([])
    expect(
      ((await t.http('GET', `${E}/protected_branches`, { token: MARK })).body as Json[]).map((p) => p.name),
    ).toEqual(['main'])
  })
})

describe('with --data', () => {
  it('keeps commits, branches and tags made through the API across a restart; a reset then removes them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-repository-'))
    try {
      const first = await startServer(repositorySeed, { data: dir })
      const made = await first.http('POST', `${P}/repository/commits`, {
        token: MARK,
        json: {
          branch: 'kept',
          start_branch: 'main',
          commit_message: 'k',
          actions: [{ action: 'create', file_path: 'k.txt', content: 'kept' }],
        },
      })
      expect(made.status).toBe(201)
      await first.http('POST', `${P}/repository/tags`, {
        token: MARK,
        json: { tag_name: 'k1', ref: 'kept', message: 'k' },
      })
      await first.close()
      const second = await startServer(repositorySeed, { data: dir })
      try {
        expect(
          (await second.http('GET', `${P}/repository/files/k.txt/raw?ref=k1`, { token: MARK })).text,
        ).toBe('kept')
        expect(
          ((await second.http('GET', `${P}/repository/branches/kept`, { token: MARK })).body as Json).commit,
        ).toMatchObject({
          id: (made.body as Json).id,
        })
        expect((await second.http('POST', '/-/emulator/reset', { token: 'glpat-root-token' })).status).toBe(
          200,
        )
        expect((await second.http('GET', `${P}/repository/branches/kept`, { token: MARK })).status).toBe(404)
        expect((await second.http('GET', `${P}/repository/tags/k1`, { token: MARK })).status).toBe(404)
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
