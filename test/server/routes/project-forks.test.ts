import { serverResetEach } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Forks (lib/api/projects.rb `POST :id/fork`, `GET :id/forks`, `DELETE :id/fork`,
 * `POST :id/fork/:forked_from_id`; Projects::ForkService, Projects::UnlinkForkService): the fork's
 * repository, its place in the network, who may, GitLab's refusals, and what a deleted source leaves.
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const BOB = 'glpat-bob-token'
const GUS = 'glpat-gus-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: ${ALICE} }
  - { username: bob, name: Bob, token: ${BOB} }
  - { username: gus, name: Gus, token: ${GUS} }
groups:
  - { path: acme, name: ACME, visibility: public, members: { alice: owner, gus: guest } }
  - { path: closed, visibility: private, members: { bob: owner } }
projects:
  - path: acme/widgets
    name: Widgets
    visibility: public
    description: The widgets
    refs: [main]
    branches: [feature]
    tags: [v1]
    files: { README.md: hello }
  - path: acme/secret
    visibility: private
    refs: [main]
`
type Json = Record<string, unknown>
const t = serverResetEach(seed, { clock: manualClock('2026-03-01T10:00:00.000Z') })
const W = '/api/v4/projects/acme%2Fwidgets'

const fork = (json: Json = {}, token = BOB, from = W) => t.http('POST', `${from}/fork`, { token, json })
const get = (path: string, token = BOB) => t.http('GET', path, { token })
const names = (body: unknown) => (body as Json[]).map((p) => p.path_with_namespace)
const refs = (id: unknown) =>
  inspectDb(t.server.store)
    .prepare('SELECT kind, name, sha FROM project_refs WHERE project_id = ? ORDER BY kind, name')
    .all(id)

describe('POST /projects/:id/fork', () => {
  it("forks into the caller's namespace: the source's refs at the same commits, the relation, forks_count", async () => {
    const res = await fork()
    expect(res.status).toBe(201)
    const body = res.body as Json
    expect(body).toMatchObject({
      name: 'Widgets',
      path: 'widgets',
      path_with_namespace: 'bob/widgets',
      description: 'The widgets',
      visibility: 'public',
      default_branch: 'main',
      import_status: 'scheduled',
      forks_count: 0,
      forked_from_project: { id: expect.any(Number), path_with_namespace: 'acme/widgets', forks_count: 1 },
    })
    const source = (await get(W)).body as Json
    expect(refs(body.id)).toEqual(refs(source.id))
    expect(refs(body.id).map((r) => (r as Json).name)).toEqual(['feature', 'main', 'v1'])
    expect(source.forks_count).toBe(1)
    expect(source).not.toHaveProperty('forked_from_project')
    const read = (await get(`/api/v4/projects/${String(body.id)}`)).body as Json
    expect(read).toMatchObject({ import_status: 'finished', forked_from_project: { id: source.id } })
    // `GET /projects/:id/import` reads the fork's `import_state` too; a fork has no `import_type`, and
    // its correlation id is the fork request's.
    const imported = (await get(`/api/v4/projects/${String(body.id)}/import`)).body as Json
    expect(imported).toMatchObject({ id: body.id, import_status: 'finished', import_type: null })
    expect(imported.correlation_id).toBe(res.headers['x-request-id'])
    expect(imported.correlation_id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect((await get(`${W}/import`)).body).toMatchObject({ import_status: 'none' })
    // Anonymous callers get `ProjectDetails`: the basic fields and the public source.
    const anonymous = (await t.http('GET', `/api/v4/projects/${String(body.id)}`)).body as Json
    expect(anonymous.forked_from_project).toMatchObject({
      id: source.id,
      path_with_namespace: 'acme/widgets',
    })
    expect(anonymous).not.toHaveProperty('import_status')
    // The fork's repository reads as the source's, and its default branch is protected.
    const file = await get(`/api/v4/projects/${String(body.id)}/repository/files/README.md/raw?ref=main`)
    expect(file.text).toBe('hello')
    const branch = (await get(`/api/v4/projects/${String(body.id)}/repository/branches/main`)).body as Json
    expect(branch).toMatchObject({ protected: true })
  })

  it('takes a namespace, name, path, description, lower visibility and one branch', async () => {
    const res = await fork({
      namespace_path: 'closed',
      name: 'Gadgets',
      path: 'gadgets',
      description: 'Mine',
      visibility: 'internal',
      branches: 'feature',
    })
    expect(res.status).toBe(201)
    const body = res.body as Json
    expect(body).toMatchObject({
      path_with_namespace: 'closed/gadgets',
      name: 'Gadgets',
      description: 'Mine',
      // The least of the source's, the namespace's (private) and the asked visibility.
      visibility: 'private',
      default_branch: 'feature',
    })
    expect(refs(body.id).map((r) => (r as Json).name)).toEqual(['feature'])
    const byId = await fork({
      namespace_id: body.namespace && (body.namespace as Json).id,
      path: 'g2',
      name: 'G2',
    })
    expect(byId.status).toBe(201)
    expect((byId.body as Json).path_with_namespace).toBe('closed/g2')
  })

  it("answers GitLab's refusals and stores nothing", async () => {
    const before = inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM projects').get()
    expect((await t.http('POST', `${W}/fork`, { json: {} })).status).toBe(401)
    expect((await fork({}, BOB, '/api/v4/projects/acme%2Fsecret')).body).toEqual({
      message: '404 Project Not Found',
    })
    // A guest sees the private project but may not fork it (`fork_project`).
    const guest = await fork({}, GUS, '/api/v4/projects/acme%2Fsecret')
    expect([guest.status, guest.body]).toEqual([404, { message: '404 Not Found' }])
    // `repository_disabled` prevents `fork_project`, for administrators too; `private` leaves it to members.
    const off = await t.http('PUT', W, { token: ALICE, json: { repository_access_level: 'disabled' } })
    expect(off.status).toBe(200)
    expect((await fork({}, ROOT)).body).toEqual({ message: '404 Not Found' })
    await t.http('PUT', W, { token: ALICE, json: { repository_access_level: 'private' } })
    expect((await fork()).body).toEqual({ message: '404 Not Found' })
    await t.http('PUT', W, { token: ALICE, json: { repository_access_level: 'enabled' } })
    expect((await fork({ namespace_path: 'nope' })).body).toEqual({ message: '404 Namespace Not Found' })
    expect((await fork({ namespace_id: 99999 })).body).toEqual({ message: '404 Namespace Not Found' })
    expect((await fork({ branches: 'nope' })).body).toEqual({ message: '404 Source Branch Not Found' })
    // Bob may read the public group but not create projects in it.
    expect((await fork({ namespace: 'acme' })).body).toEqual({ message: '404 Target Namespace Not Found' })
    // Alice's fork into acme, where the source already holds the name and the path.
    const taken = await fork({ namespace_path: 'acme' }, ALICE)
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual({
      message: [
        'Project namespace name has already been taken',
        'Name has already been taken',
        'Path has already been taken',
      ],
    })
    expect(inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM projects').get()).toEqual(before)
    expect(inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM fork_network_members').get()).toEqual(
      {
        n: 0,
      },
    )
  })
})

describe('GET /projects/:id/forks', () => {
  it('lists the forks the caller can see, paged and filtered as GET /projects', async () => {
    expect((await fork()).status).toBe(201)
    expect((await fork({ namespace_path: 'closed', path: 'hidden-fork', name: 'Hidden' })).status).toBe(201)
    const mine = await get(`${W}/forks`)
    expect(names(mine.body)).toEqual(['closed/hidden-fork', 'bob/widgets'])
    expect(mine.headers['x-total']).toBe('2')
    // Alice cannot see the private group's fork; anonymous callers see the public one.
    expect(names((await get(`${W}/forks`, ALICE)).body)).toEqual(['bob/widgets'])
    expect(names((await t.http('GET', `${W}/forks`)).body)).toEqual(['bob/widgets'])
    expect(names((await get(`${W}/forks?search=hidden`)).body)).toEqual(['closed/hidden-fork'])
    const page = await get(`${W}/forks?per_page=1&order_by=id&sort=asc`)
    expect([names(page.body), page.headers['x-next-page']]).toEqual([['bob/widgets'], '2'])
    expect((await get('/api/v4/projects/acme%2Fsecret/forks')).body).toEqual({
      message: '404 Project Not Found',
    })
  })
})

describe('DELETE /projects/:id/fork and POST /projects/:id/fork/:forked_from_id', () => {
  it('unlinks a fork (Owner; 304 when not a fork) and links it again', async () => {
    const made = (await fork()).body as Json
    const path = `/api/v4/projects/${String(made.id)}`
    const source = (await get(W)).body as Json
    // Alice reads Bob's public fork but does not own it (`remove_fork_project`).
    expect((await t.http('DELETE', `${path}/fork`, { token: ALICE })).status).toBe(403)
    expect((await t.http('DELETE', `${W}/fork`, { token: ALICE })).status).toBe(304)
    expect((await t.http('DELETE', `${path}/fork`, { token: BOB })).status).toBe(204)
    expect((await t.http('DELETE', `${path}/fork`, { token: BOB })).status).toBe(304)
    const unlinked = (await get(path)).body as Json
    expect(unlinked).not.toHaveProperty('forked_from_project')
    // `import_state` is the project's own: unlinking leaves it `finished` (`Projects::UnlinkForkService`).
    expect(unlinked.import_status).toBe('finished')
    expect(unlinked).not.toHaveProperty('mr_default_target_self')
    expect(((await get(W)).body as Json).forks_count).toBe(0)

    expect((await t.http('POST', `${path}/fork/99999`, { token: BOB })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await t.http('POST', `${path}/fork/${String(made.id)}`, { token: BOB })).body).toEqual({
      message: 'Target project cannot be equal to source project',
    })
    const linked = await t.http('POST', `${path}/fork/${String(source.id)}`, { token: BOB })
    expect(linked.status).toBe(201)
    expect(linked.body).toMatchObject({ id: made.id, forked_from_project: { id: source.id } })
    const again = await t.http('POST', `${path}/fork/${String(source.id)}`, { token: BOB })
    expect([again.status, again.body]).toEqual([409, { message: 'Project already forked' }])
    // Alice owns the source, not the fork.
    expect((await t.http('POST', `${W}/fork/${String(made.id)}`, { token: GUS })).status).toBe(403)
  })

  it('keeps mr_default_target_self (fork, create, edit) and shows it on forks only', async () => {
    const made = await fork({ mr_default_target_self: true })
    expect((made.body as Json).mr_default_target_self).toBe(true)
    const path = `/api/v4/projects/${String((made.body as Json).id)}`
    expect(((await get(path)).body as Json).mr_default_target_self).toBe(true)
    const edited = await t.http('PUT', path, { token: BOB, json: { mr_default_target_self: false } })
    expect([edited.status, (edited.body as Json).mr_default_target_self]).toEqual([200, false])
    expect((await get(W)).body).not.toHaveProperty('mr_default_target_self')
    // A project made on its own keeps the setting; linking it makes it a fork, which shows it, and
    // its import state, never set by a fork's copy, stays `none` (`ForkService#link_existing_project`).
    const own = await t.http('POST', '/api/v4/projects', {
      token: BOB,
      json: { name: 'own', mr_default_target_self: true },
    })
    expect(own.body).not.toHaveProperty('mr_default_target_self')
    const ownPath = `/api/v4/projects/${String((own.body as Json).id)}`
    const source = (await get(W)).body as Json
    const linked = await t.http('POST', `${ownPath}/fork/${String(source.id)}`, { token: BOB })
    expect(linked.body).toMatchObject({ mr_default_target_self: true, import_status: 'none' })
  })

  it("refuses to make a fork more visible than its source (the model's visibility_level_allowed_as_fork)", async () => {
    const made = (await fork({ visibility: 'internal' })).body as Json
    const path = `/api/v4/projects/${String(made.id)}`
    expect((await t.http('PUT', W, { token: ALICE, json: { visibility: 'internal' } })).status).toBe(200)
    const refused = await t.http('PUT', path, { token: BOB, json: { visibility: 'public' } })
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        message: {
          visibility_level: ['public is not allowed since the fork source project has lower visibility.'],
        },
      },
    ])
    expect(((await get(path)).body as Json).visibility).toBe('internal')
    // Unlinked, it is no fork: nothing holds it back.
    expect((await t.http('DELETE', `${path}/fork`, { token: BOB })).status).toBe(204)
    expect((await t.http('PUT', path, { token: BOB, json: { visibility: 'public' } })).status).toBe(200)
  })

  it('a deleted source leaves its forks, without the relation; a deleted fork leaves the count', async () => {
    const first = (await fork()).body as Json
    const second = (
      await fork({ path: 'second', name: 'Second' }, BOB, `/api/v4/projects/${String(first.id)}`)
    ).body as Json
    expect(((await get(`/api/v4/projects/${String(first.id)}`)).body as Json).forks_count).toBe(1)
    const removed = await t.http('DELETE', `/api/v4/projects/${String(second.id)}`, { token: BOB })
    expect(removed.status).toBe(202)
    const permanently = `permanently_remove=true&full_path=${encodeURIComponent(
      `bob/second-deletion_scheduled-${String(second.id)}`,
    )}`
    const forGood = await t.http('DELETE', `/api/v4/projects/${String(second.id)}?${permanently}`, {
      token: BOB,
    })
    expect(forGood.status).toBe(202)
    expect(((await get(`/api/v4/projects/${String(first.id)}`)).body as Json).forks_count).toBe(0)

    const gone = await t.http('DELETE', '/api/v4/projects/acme%2Fwidgets', { token: ALICE })
    expect(gone.status).toBe(202)
    const sourceGone = await t.http(
      'DELETE',
      `/api/v4/projects/acme%2Fwidgets-deletion_scheduled-${String(
        (first.forked_from_project as Json).id,
      )}?permanently_remove=true&full_path=${encodeURIComponent(
        `acme/widgets-deletion_scheduled-${String((first.forked_from_project as Json).id)}`,
      )}`,
      { token: ALICE },
    )
    expect(sourceGone.status).toBe(202)
    expect((await get(`/api/v4/projects/${String((first.forked_from_project as Json).id)}`)).status).toBe(404)
    const orphan = await get(`/api/v4/projects/${String(first.id)}`)
    expect(orphan.status).toBe(200)
    expect(orphan.body).not.toHaveProperty('forked_from_project')
    expect((orphan.body as Json).import_status).toBe('finished')
  })
})

describe('a fork declared in the seed (forked_from)', () => {
  it('is the fork POST /projects/:id/fork makes: network, repository, protected default branch, import_status', async () => {
    const seeded = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      form: 'projects:\n  - { path: bob/seeded, visibility: public, forked_from: acme/widgets }\n',
      headers: { 'content-type': 'application/yaml' },
    })
    expect(seeded.status).toBeLessThan(300)
    const made = (await fork({ path: 'made', name: 'Made' })).body as Json
    const fromSeed = (await get('/api/v4/projects/bob%2Fseeded')).body as Json
    const fromApi = (await get(`/api/v4/projects/${String(made.id)}`)).body as Json
    for (const key of ['forked_from_project', 'import_status', 'default_branch', 'mr_default_target_self'])
      expect([key, fromSeed[key]]).toEqual([key, fromApi[key]])
    // No request made it: its import state records no correlation id.
    const seededImport = (await get(`/api/v4/projects/${String(fromSeed.id)}/import`)).body as Json
    expect(seededImport).toMatchObject({ import_status: 'finished', correlation_id: null })
    expect(refs(fromSeed.id)).toEqual(refs(fromApi.id))
    expect(names((await get(`${W}/forks`)).body)).toEqual(['bob/made', 'bob/seeded'])
    const branch = (await get(`/api/v4/projects/${String(fromSeed.id)}/repository/branches/main`)).body
    expect(branch).toMatchObject({ protected: true })
  })
})

describe('GET /projects/:id/repository/compare with from_project_id', () => {
  it('reads `from` in a project of the same fork network the caller can read; 400 otherwise', async () => {
    const made = (await fork()).body as Json
    const source = (await get(W)).body as Json
    const commit = await t.http('POST', `/api/v4/projects/${String(made.id)}/repository/commits`, {
      token: BOB,
      json: {
        branch: 'main',
        commit_message: 'In the fork',
        actions: [{ action: 'create', file_path: 'fork.txt', content: 'mine\n' }],
      },
    })
    expect(commit.status).toBe(201)
    const compare = await get(
      `/api/v4/projects/${String(made.id)}/repository/compare?from=main&to=main&from_project_id=${String(source.id)}`,
    )
    expect(compare.status).toBe(200)
    expect((compare.body as { commits: Json[] }).commits.map((c) => c.title)).toEqual(['In the fork'])
    const secret = (await get('/api/v4/projects/acme%2Fsecret', ROOT)).body as Json
    const outside = await get(
      `/api/v4/projects/${String(made.id)}/repository/compare?from=main&to=main&from_project_id=${String(secret.id)}`,
    )
    expect([outside.status, outside.body]).toEqual([
      400,
      { message: `Target project id:${String(secret.id)} is not a fork of project id:${String(made.id)}` },
    ])
  })
})
