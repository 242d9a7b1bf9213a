import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectFiles } from '../support/project-files.js'
import { startServer, type TestServer } from '../support/server.js'
import { manualClock } from '../support/pipeline-seed.js'
import { inspectDb } from '../../src/server/store/inspect.js'

/*
 * Removing a project or a group for good takes the bot users of their access tokens with their tokens
 * (`Projects::DestroyService#destroy_project_bots!`, `Groups::DestroyService#destroy_associated_users`),
 * and a group's removal the files of the projects below it, as a project's own removal does.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
groups:
  - { path: acme, name: ACME }
  - { path: acme/team, name: Team }
projects:
  - path: acme/team/api
  - path: acme/site
`
type Json = Record<string, unknown>

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-removal-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const botToken = async (t: TestServer, resource: string): Promise<{ token: string; user_id: number }> => {
  const res = await t.http('POST', `/api/v4/${resource}/access_tokens`, {
    token: ROOT,
    json: { name: 'ci', scopes: ['api'], access_level: 30, expires_at: '2027-01-01' },
  })
  expect(res.status).toBe(201)
  const made = res.body as { token: string; user_id: number }
  expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(200)
  return made
}
const counts = (t: TestServer) =>
  inspectDb(t.server.store)
    .prepare(
      `SELECT (SELECT COUNT(*) FROM bot_users) AS bots,
              (SELECT COUNT(*) FROM users WHERE username LIKE '%_bot_%') AS botUsers,
              (SELECT COUNT(*) FROM personal_access_tokens) AS tokens`,
    )
    .get() as Json

/** Only the one bot kept is left beside what the seed had: its user, its row and its token. */
const expectOneBotMore = (t: TestServer, before: Json) => {
  const after = counts(t)
  for (const key of ['bots', 'botUsers', 'tokens']) expect(after[key]).toBe(Number(before[key]) + 1)
}

it("deleting a project at once removes its access tokens' bot users and their tokens", async () => {
  // A clock of its own: on the wall clock, the tokens' fixed expires_at would pass one day.
  const t = await startServer(seed, {
    gitlabVersion: '17.11.0',
    edition: 'ce',
    clock: manualClock('2026-03-01T10:00:00.000Z'),
  })
  try {
    const before = counts(t)
    const kept = await botToken(t, 'projects/acme%2Fsite')
    const bot = await botToken(t, 'projects/acme%2Fteam%2Fapi')
    expect((await t.http('DELETE', '/api/v4/projects/acme%2Fteam%2Fapi', { token: ROOT })).status).toBe(202)
    expect((await t.http('GET', '/api/v4/user', { token: bot.token })).status).toBe(401)
    expect((await t.http('GET', `/api/v4/users/${bot.user_id}`, { token: ROOT })).status).toBe(404)
    // The other project's bot stays.
    expect((await t.http('GET', '/api/v4/user', { token: kept.token })).status).toBe(200)
    expectOneBotMore(t, before)
  } finally {
    await t.close()
  }
})

it("permanently removing a group removes its and its projects' bots, and its projects' files", async () => {
  const t = await startServer(seed, { data: dir, clock: manualClock('2026-03-01T10:00:00.000Z') })
  try {
    const before = counts(t)
    const groupBot = await botToken(t, 'groups/acme%2Fteam')
    const projectBot = await botToken(t, 'projects/acme%2Fteam%2Fapi')
    const kept = await botToken(t, 'groups/acme')
    const project = '/api/v4/projects/acme%2Fteam%2Fapi'
    const { images, archive } = await projectFiles(t, project, ROOT, dir)
    expect(readdirSync(images)).toHaveLength(1)
    expect(existsSync(archive)).toBe(true)

    // Marking takes nothing away.
    expect((await t.http('DELETE', '/api/v4/groups/acme%2Fteam', { token: ROOT })).status).toBe(202)
    expect((await t.http('GET', '/api/v4/user', { token: groupBot.token })).status).toBe(200)
    expect(existsSync(archive)).toBe(true)
    const marked = inspectDb(t.server.store)
      .prepare("SELECT id, full_path FROM namespaces WHERE path LIKE 'team-%'")
      .get() as {
      id: number
      full_path: string
    }
    const gone = await t.http('DELETE', `/api/v4/groups/${marked.id}`, {
      token: ROOT,
      query: `permanently_remove=true&full_path=${encodeURIComponent(marked.full_path)}`,
    })
    expect(gone.status).toBe(202)
    for (const bot of [groupBot, projectBot]) {
      expect((await t.http('GET', '/api/v4/user', { token: bot.token })).status).toBe(401)
      expect((await t.http('GET', `/api/v4/users/${bot.user_id}`, { token: ROOT })).status).toBe(404)
    }
    expect((await t.http('GET', '/api/v4/user', { token: kept.token })).status).toBe(200)
    expect(readdirSync(images)).toEqual([])
    expect(existsSync(archive)).toBe(false)
    expectOneBotMore(t, before)
  } finally {
    await t.close()
  }
})
