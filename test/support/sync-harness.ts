/*
 * The sync under test, end to end: the real reference server (GitLab side, through the typed
 * client) and the fake GitHub, with request counters on both and helpers that read each side's
 * stored state over HTTP. Test support, not product.
 */
import { createClient, type GitLabClient } from '../../src/api/client.js'
import { githubSide } from '../../src/sync/github.js'
import { gitlabSide } from '../../src/sync/gitlab.js'
import type { SyncReport } from '../../src/sync/model.js'
import { syncIssues, type SyncSettings } from '../../src/sync/sync.js'
import { octokitFor, startFakeGitHub, type FakeGitHub } from './fake-github.js'
import { startServer, type TestServer } from './server.js'

export const GL_TOKEN = 'glpat-syncbot-token'
const GH_TOKEN = 'ghp_fake-github-token'

/**
 * acme/widgets' issues as the server stores them, oldest first: by iid, which counts up as they are
 * made. Not `sort=asc`: issues the sync makes back to back tie on `created_at` (one millisecond), and
 * GitLab breaks ties by id descending, so that order flips from run to run.
 */
export async function gitlabIssuesByIid(t: TestServer): Promise<Record<string, unknown>[]> {
  const issues = (
    await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues?per_page=100', { token: GL_TOKEN })
  ).body as Record<string, unknown>[]
  return issues.sort((a, b) => (a.iid as number) - (b.iid as number))
}

/** acme/widgets on both sides; syncbot is the GitLab token's user, alice and bob are people. */
export const syncSeed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: syncbot, token: ${GL_TOKEN} }
  - { username: alice, token: glpat-alice-token }
  - { username: bob }
groups:
  - { path: acme }
projects:
  - path: acme/widgets
    members: { syncbot: maintainer, alice: developer, bob: developer }
`

export interface SyncHarness {
  t: TestServer
  gh: FakeGitHub
  gitlab: GitLabClient
  run(more?: Partial<SyncSettings>): Promise<SyncReport>
  /** The project's issues as the server stores them, oldest first. */
  glIssues(): Promise<Record<string, unknown>[]>
  /** An issue's user notes (system notes left out), oldest first. */
  glNotes(iid: number): Promise<{ id: number; body: string; author: { username: string } }[]>
  /** Writes (non-GET requests) each side received since the last `resetCounts`. */
  writes(): { github: number; gitlab: number }
  resetCounts(): void
  close(): Promise<void>
}

/** Starts both sides; `defaults` are the run settings each `run` starts from. */
export async function startSyncHarness(defaults: Partial<SyncSettings> = {}): Promise<SyncHarness> {
  const t = await startServer(syncSeed)
  const glCounts: Record<string, number> = {}
  t.server.app.server.on('request', (req: { method?: string }) => {
    glCounts[req.method ?? 'GET'] = (glCounts[req.method ?? 'GET'] ?? 0) + 1
  })
  const gh = await startFakeGitHub('acme', 'widgets', 'sync-bot')
  const gitlab = createClient({ baseUrl: t.baseUrl, token: GL_TOKEN, retry: { maxRetries: 0 } })
  const writes = (counts: Record<string, number>) =>
    Object.entries(counts).reduce((n, [m, c]) => n + (m === 'GET' ? 0 : c), 0)
  const project = '/api/v4/projects/acme%2Fwidgets'
  return {
    t,
    gh,
    gitlab,
    run: async (more = {}) =>
      syncIssues(
        githubSide(await octokitFor(gh.url, GH_TOKEN), 'acme/widgets'),
        gitlabSide(gitlab, 'acme/widgets'),
        {
          direction: 'github-to-gitlab',
          comments: true,
          labelMap: {},
          labelPrefix: '',
          userMap: {},
          dryRun: false,
          includeConfidential: false,
          ...defaults,
          ...more,
        },
      ),
    glIssues: () => gitlabIssuesByIid(t),
    glNotes: async (iid) =>
      (
        (await t.http('GET', `${project}/issues/${iid}/notes?sort=asc&per_page=100`, { token: GL_TOKEN }))
          .body as { id: number; body: string; system: boolean; author: { username: string } }[]
      ).filter((n) => !n.system),
    writes: () => ({ github: writes(gh.counts), gitlab: writes(glCounts) }),
    resetCounts: () => {
      for (const k of Object.keys(glCounts)) delete glCounts[k]
      gh.resetCounts()
    },
    close: async () => {
      await gitlab.close()
      await gh.close()
      await t.close()
    },
  }
}
