import { spawnSync } from 'node:child_process'
import { gunzipSync, gzipSync } from 'node:zlib'
import { writeTree } from '../../../src/server/git/commit-files.js'
import { gitObject } from '../../../src/server/git/objects.js'
import { commitObject, signatureAt } from '../../../src/server/git/trees.js'
import { tarGzMembers } from '../../support/archive-members.js'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
const LONG = `deep/${'n'.repeat(120)}.txt`

let t: TestServer
let head: string
beforeAll(async () => {
  const clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
  clock.advance(1000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token: MARK,
    json: {
      branch: 'develop',
      commit_message: 'files',
      actions: [
        { action: 'create', file_path: 'README.md', content: '# App\n' },
        { action: 'create', file_path: 'bin/run', content: '#!/bin/sh\n', execute_filemode: true },
        { action: 'create', file_path: 'docs/guide/intro.md', content: 'Intro\n' },
        { action: 'create', file_path: 'docs/café.md', content: 'olé\n' },
        { action: 'create', file_path: LONG, content: 'long\n' },
      ],
    },
  })
  expect(res.status).toBe(201)
  head = (res.body as Json).id as string
})
afterAll(() => t.close())

/** The raw bytes and headers of a GET. */
const download = async (path: string, token = RITA) => {
  const res = await fetch(`${t.baseUrl}${P}${path}`, { headers: { 'private-token': token } })
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

/** The names and bytes of a zip's files, as Python's zipfile reads them, with their Unix modes. */
const zipMembers = (zip: Buffer) => {
  const py = spawnSync(
    '/usr/bin/python3',
    [
      '-c',
      `import io, json, sys, zipfile
z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
print(json.dumps([[i.filename, z.read(i).decode(), i.external_attr >> 16] for i in z.infolist()]))`,
    ],
    { input: zip },
  )
  expect(py.stderr.toString()).toBe('')
  return JSON.parse(py.stdout.toString()) as [string, string, number][]
}

describe('GET /repository/archive', () => {
  it('streams a tar.gz of the default branch by default, named and typed as Workhorse names it', async () => {
    const res = await download('/repository/archive?sha=develop')
    expect(res.status).toBe(200)
    const prefix = `app-develop-${head}`
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.tar.gz"`)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-transfer-encoding')).toBe('binary')
    const members = await tarGzMembers(res.bytes)
    expect([...members.keys()]).toEqual([
      `${prefix}/`,
      `${prefix}/README.md`,
      `${prefix}/bin/`,
      `${prefix}/bin/run`,
      `${prefix}/deep/`,
      `${prefix}/${LONG}`,
      `${prefix}/docs/`,
      `${prefix}/docs/café.md`,
      `${prefix}/docs/guide/`,
      `${prefix}/docs/guide/intro.md`,
    ])
    expect(members.get(`${prefix}/bin/run`)!.body).toBe('#!/bin/sh\n')
    expect(members.get(`${prefix}/${LONG}`)!.body).toBe('long\n')
    expect(members.get(`${prefix}/docs/café.md`)!.body).toBe('olé\n')
    // GNU tar reads it too: the pax headers, the modes git gives (775 for an executable).
    const tar = spawnSync('tar', ['-tvzf', '-'], { input: res.bytes })
    expect(tar.status).toBe(0)
    expect(tar.stdout.toString()).toMatch(new RegExp(`-rwxrwxr-x .* ${prefix}/bin/run\\n`))
    expect(tar.stdout.toString()).toMatch(new RegExp(`-rw-rw-r-- .* ${prefix}/README.md\\n`))
    // The global header carries the commit, as git archive's does.
    const id = spawnSync('git', ['get-tar-commit-id'], { input: gunzipSync(res.bytes) })
    expect(id.stdout.toString()).toBe(`${head}\n`)
  })

  it('the default branch when no sha; tar, tgz, gz and zip by the path or the format parameter', async () => {
    const main = (await t.http('GET', `${P}/repository/commits/main`, { token: RITA })).body as Json
    const plain = await download('/repository/archive')
    expect(plain.headers.get('content-disposition')).toBe(
      `attachment; filename="app-main-${String(main.id)}.tar.gz"`,
    )
    const tar = await download('/repository/archive.tar?sha=develop')
    expect(tar.headers.get('content-disposition')).toBe(`attachment; filename="app-develop-${head}.tar"`)
    expect((await tarGzMembers(gzipSync(tar.bytes))).has(`app-develop-${head}/README.md`)).toBe(true)
    for (const alias of ['tgz', 'gz', 'tar.gz'])
      expect(
        (await download(`/repository/archive.${alias}?sha=develop`)).headers.get('content-disposition'),
      ).toBe(`attachment; filename="app-develop-${head}.tar.gz"`)
    const zip = await download(`/repository/archive?sha=${head}&format=zip`)
    expect(zip.headers.get('content-type')).toBe('application/zip')
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="app-${head}-${head}.zip"`)
    const files = zipMembers(zip.bytes)
    const root = `app-${head}-${head}`
    // git archive's zip: folders as entries of their own, an executable's mode as the tree has it.
    expect(files.map(([name]) => name)).toEqual([
      `${root}/`,
      `${root}/README.md`,
      `${root}/bin/`,
      `${root}/bin/run`,
      `${root}/deep/`,
      `${root}/${LONG}`,
      `${root}/docs/`,
      `${root}/docs/café.md`,
      `${root}/docs/guide/`,
      `${root}/docs/guide/intro.md`,
    ])
    expect(files[3]).toEqual([`${root}/bin/run`, '#!/bin/sh\n', 0o100755])
    expect(files[1]![2]).toBe(0)
    expect(files[7]![1]).toBe('olé\n')
  })

  it('a folder (path) and exclude_paths: folders only above what is written, as git archive writes them', async () => {
    const res = await download('/repository/archive.zip?sha=develop&path=docs&exclude_paths=docs/guide')
    const prefix = `app-develop-${head}-docs`
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.zip"`)
    expect(zipMembers(res.bytes).map(([name]) => name)).toEqual([
      `${prefix}/`,
      `${prefix}/docs/`,
      `${prefix}/docs/café.md`,
    ])
    // A folder whose every file is excluded is left out, in a tar as in a zip.
    const tar = await download(
      '/repository/archive.tar?sha=develop&exclude_paths[]=docs/guide/intro.md&exclude_paths[]=bin/run',
    )
    const names = [...(await tarGzMembers(gzipSync(tar.bytes))).keys()]
    expect(names).toEqual([
      `app-develop-${head}/`,
      `app-develop-${head}/README.md`,
      `app-develop-${head}/deep/`,
      `app-develop-${head}/${LONG}`,
      `app-develop-${head}/docs/`,
      `app-develop-${head}/docs/café.md`,
    ])
  })

  it('a file (path): the file alone under its folders, as `git archive <sha> -- <file>` writes it', async () => {
    const res = await download('/repository/archive.zip?sha=develop&path=docs/guide/intro.md')
    expect(res.status).toBe(200)
    const prefix = `app-develop-${head}-docs-guide-intro.md`
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.zip"`)
    expect(zipMembers(res.bytes)).toEqual([
      [`${prefix}/`, '', 0],
      [`${prefix}/docs/`, '', 0],
      [`${prefix}/docs/guide/`, '', 0],
      [`${prefix}/docs/guide/intro.md`, 'Intro\n', 0],
    ])
    const top = await download('/repository/archive.tar?sha=develop&path=README.md')
    const names = [...(await tarGzMembers(gzipSync(top.bytes))).keys()]
    expect(names).toEqual([`app-develop-${head}-README.md/`, `app-develop-${head}-README.md/README.md`])
  })

  it('writes a symlink as a symlink and a submodule as an empty folder, as git archive does', async () => {
    // No API writes either: the commit goes into the store as an import would leave it.
    const store = t.server.store
    const blob = gitObject('blob', Buffer.from('README.md'))
    store.gitObjects.put(blob)
    const files = new Map([
      ['link', { mode: '120000', sha: blob.sha }],
      ['vendor/lib', { mode: '160000', sha: head }],
    ])
    const who = signatureAt('Alice', 'alice@example.com', '2026-03-02T00:00:00Z')
    const c = commitObject({
      tree: writeTree(store.gitObjects, files),
      parents: [],
      author: who,
      committer: who,
      message: 'odd',
    })
    store.gitObjects.put(c)
    const project = store.projects.byPath('acme/app')!
    store.repository.addCommit(project.id, c.sha)
    store.repository.setRef(project.id, 'branch', 'odd', c.sha)
    const root = `app-odd-${c.sha}`
    expect(zipMembers((await download('/repository/archive.zip?sha=odd')).bytes)).toEqual([
      [`${root}/`, '', 0],
      [`${root}/link`, 'README.md', 0o120777],
      [`${root}/vendor/`, '', 0],
      [`${root}/vendor/lib/`, '', 0],
    ])
    const tar = spawnSync('tar', ['-tvf', '-'], {
      input: (await download('/repository/archive.tar?sha=odd')).bytes,
    })
    expect(tar.stdout.toString()).toMatch(new RegExp(`^lrwxrwxrwx .* ${root}/link -> README.md$`, 'm'))
    expect(tar.stdout.toString()).toMatch(new RegExp(`^drwxrwxr-x .* ${root}/vendor/lib/$`, 'm'))
  })

  it('refuses as GitLab: an unknown ref or path, an unknown extension, hidden projects', async () => {
    expect((await t.http('GET', `${P}/repository/archive?sha=nope`, { token: RITA })).body).toEqual({
      message: '404 File Not Found',
    })
    expect(
      (await t.http('GET', `${P}/repository/archive?sha=develop&path=nope`, { token: RITA })).status,
    ).toBe(404)
    expect((await t.http('GET', `${P}/repository/archive.rar`, { token: RITA })).body).toEqual({
      error: '404 Not Found',
    })
    expect((await t.http('GET', `${P}/repository/archive.tar.bz2`, { token: RITA })).status).toBe(404)
    expect((await t.http('GET', `${P}/repository/archive`, { token: OTTO })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await t.http('GET', `${P}/repository/archive`, { token: GUS })).status).toBe(403)
  })
})
