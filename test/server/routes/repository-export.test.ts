import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { tarGzMembers } from '../../support/archive-members.js'
import { exportSettled, importFile, settled } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
const CI = 'build:\n  script:\n    - echo hello\n'
type Json = Record<string, unknown>

const seed = `
users:
  - { username: root, name: Administrator, email: root@example.com, admin: true, token: ${ROOT} }
groups:
  - { path: acme, visibility: private }
projects:
  - { path: acme/app, branches: [develop] }
`

let t: TestServer
let tmp: string
beforeAll(async () => {
  t = await startServer(seed)
  tmp = mkdtempSync(join(tmpdir(), 'repository-export-'))
})
afterAll(async () => {
  await t.close()
  rmSync(tmp, { recursive: true, force: true })
})

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
const ok = async (method: string, path: string, json?: unknown) => {
  const res = await t.http(method, path, { token: ROOT, json })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body as Json
}

describe('export and import of committed files', () => {
  it('carries files committed through the API in project.bundle (git clones them), and an import keeps them', async () => {
    await ok('POST', `${APP}/repository/commits`, {
      branch: 'main',
      commit_message: 'Add CI',
      actions: [
        { action: 'create', file_path: '.gitlab-ci.yml', content: CI },
        { action: 'create', file_path: 'scripts/run.sh', content: '#!/bin/sh\n', execute_filemode: true },
      ],
    })
    const second = await ok('POST', `${APP}/repository/commits`, {
      branch: 'main',
      commit_message: 'Docs',
      actions: [{ action: 'create', file_path: 'docs/a.md', content: 'a\n' }],
    })
    await ok('POST', `${APP}/repository/tags`, { tag_name: 'v1.0', ref: 'main', message: 'Release 1.0' })
    await ok('POST', `${APP}/protected_tags`, { name: 'v*', create_access_level: 30 })

    await ok('POST', `${APP}/export`)
    await exportSettled(t, APP, ROOT)
    const dl = await request(`${t.baseUrl}${APP}/export/download`, { headers: { 'private-token': ROOT } })
    const archive = Buffer.from(await dl.body.arrayBuffer())
    const members = await tarGzMembers(archive)
    const bundle = join(tmp, 'project.bundle')
    writeFileSync(bundle, members.get('./project.bundle')!.bytes)
    // GitLab's `protected_tags` relation, its create levels nested (import_export.yml).
    expect(JSON.parse(members.get('./tree/project/protected_tags.ndjson')!.body)).toMatchObject({
      name: 'v*',
      create_access_levels: [{ access_level: 30, user_id: null, group_id: null, deploy_key_id: null }],
    })
    git(tmp, 'clone', '-q', bundle, 'clone')
    const clone = join(tmp, 'clone')
    git(clone, 'fsck', '--strict', '--no-dangling')
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(second.id)
    expect(readFileSync(join(clone, '.gitlab-ci.yml'), 'utf8')).toBe(CI)
    expect(statSync(join(clone, 'scripts/run.sh')).mode & 0o111).not.toBe(0)
    expect(git(clone, 'cat-file', '-t', 'v1.0')).toBe('tag')
    expect(git(clone, 'log', '--format=%s', 'v1.0')).toBe('Docs\nAdd CI\nmain')

    const file = join(tmp, 'export.tar.gz')
    writeFileSync(file, archive)
    const res = await importFile(t, file, { path: 'app-copy', namespace: 'acme' }, ROOT, 'export.tar.gz')
    expect(await settled(t, res.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
    const COPY = '/api/v4/projects/acme%2Fapp-copy'
    const raw = await t.http('GET', `${COPY}/repository/files/.gitlab-ci.yml/raw?ref=main`, { token: ROOT })
    expect([raw.status, raw.text]).toEqual([200, CI])
    expect(((await ok('GET', `${COPY}/repository/commits/main`)) as Json).id).toBe(second.id)
    const tag = await ok('GET', `${COPY}/repository/tags/v1.0`)
    expect(tag).toMatchObject({ message: 'Release 1.0', commit: { id: second.id }, protected: true })
    expect(await t.http('GET', `${COPY}/protected_tags`, { token: ROOT })).toMatchObject({
      body: [{ name: 'v*', create_access_levels: [{ access_level: 30 }] }],
    })
  })
})
