import { execFileSync } from 'node:child_process'
import { openAsBlob, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { FormData, request } from 'undici'
import type { TestServer } from './server.js'

type Json = Record<string, unknown>
/**
 * Where to send: a TestServer, or `{ baseUrl }` of a `serve` child (test/support/serve-child.ts).
 */
type Target = Pick<TestServer, 'baseUrl'>

/** `tar -czf <into>/<name> -C dir .`, as GitLab builds its archives; returns the archive's path. */
export function tgz(dir: string, into: string, name = 'x.tar.gz'): string {
  const out = join(into, name)
  execFileSync('tar', ['-czf', out, '-C', dir, '.'])
  return out
}

/** `POST /projects/import` with `file` as the multipart upload. */
export async function importFile(
  t: Target,
  file: string,
  fields: Record<string, string>,
  token: string,
  filename = 'x.tar.gz',
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('file', await openAsBlob(file), filename)
  const res = await request(`${t.baseUrl}/api/v4/projects/import`, {
    method: 'POST',
    headers: token ? { 'private-token': token } : {},
    body: form,
  })
  const text = await res.body.text()
  const requestId = res.headers['x-request-id'] as string | undefined
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Json) : undefined, requestId }
}

/**
 * How long to wait (`timeoutMs`, 30 s) and how often to ask (`everyMs`, 5 ms). The suites that
 * measure a `serve` child under load ask less often (50 ms), not to add to it.
 */
export interface Poll {
  timeoutMs?: number
  everyMs?: number
}

/**
 * Polls `GET path` until `done` holds for its answer; returns that answer. Bounded by time, not by
 * a count of polls: on a busy machine 1,000 quick polls ended before a 24 MB import did.
 */
async function pollUntil(
  t: Target,
  path: string,
  token: string,
  done: (body: Json) => boolean,
  { timeoutMs = 30_000, everyMs = 5 }: Poll,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await request(`${t.baseUrl}${path}`, { headers: token ? { 'private-token': token } : {} })
    const text = await res.body.text()
    const body = (text ? JSON.parse(text) : {}) as Json
    if (done(body)) return body
    if (Date.now() > deadline)
      throw new Error(`GET ${path} did not settle in ${timeoutMs} ms: ${text.slice(0, 300)}`)
    await setTimeout(everyMs)
  }
}

/** Polls `GET /projects/:id/import` until the import is finished or failed; returns that record. */
export const settled = (t: Target, id: unknown, token: string, poll: Poll = {}): Promise<Json> =>
  pollUntil(
    t,
    `/api/v4/projects/${String(id)}/import`,
    token,
    (b) => b.import_status === 'finished' || b.import_status === 'failed',
    poll,
  )

/** importFile, which must answer 201, then the settled import record (see settled). */
export async function imported(
  t: Target,
  file: string,
  fields: Record<string, string>,
  token: string,
  poll: Poll = {},
): Promise<Json> {
  const res = await importFile(t, file, fields, token)
  expect(res.status).toBe(201)
  return settled(t, res.body!.id, token, poll)
}

const EXPORT_RUNNING = new Set(['queued', 'started', 'regeneration_in_progress'])

/**
 * Polls `GET <project>/export` (`project`: the API path, `/api/v4/projects/...`) until the caller's
 * export job is no longer queued or running; returns that status record.
 */
export const exportSettled = (t: Target, project: string, token: string, poll: Poll = {}): Promise<Json> =>
  pollUntil(t, `${project}/export`, token, (b) => !EXPORT_RUNNING.has(b.export_status as string), poll)

/**
 * What is left in `<data>/transfers` once it empties or after 5 s: a settled import's work files
 * go just after its status is written, so allow a moment.
 */
export async function transfersLeft(data: string): Promise<string[]> {
  const transfers = join(data, 'transfers')
  for (let i = 0; i < 250 && readdirSync(transfers).length > 0; i++) await setTimeout(20)
  return readdirSync(transfers)
}
