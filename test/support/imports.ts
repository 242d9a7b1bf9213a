import { execFileSync } from 'node:child_process'
import { openAsBlob } from 'node:fs'
import { join } from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { FormData, request } from 'undici'
import type { TestServer } from './server.js'

type Json = Record<string, unknown>

/** `tar -czf <into>/<name> -C dir .`, as GitLab builds its archives; returns the archive's path. */
export function tgz(dir: string, into: string, name = 'x.tar.gz'): string {
  const out = join(into, name)
  execFileSync('tar', ['-czf', out, '-C', dir, '.'])
  return out
}

/** `POST /projects/import` with `file` as the multipart upload. */
export async function importFile(
  t: TestServer,
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
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Json) : undefined }
}

/**
 * Polls `GET path` until `done` holds for its answer; returns that answer. Bounded by time, not by
 * a count of polls: on a busy machine 1,000 quick polls ended before a 24 MB import did.
 */
async function pollUntil(
  t: TestServer,
  path: string,
  token: string,
  done: (body: Json) => boolean,
  timeoutMs: number,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const body = (await t.http('GET', path, { token })).body as Json
    if (done(body)) return body
    if (Date.now() > deadline) throw new Error(`GET ${path} did not settle in ${timeoutMs} ms`)
    await setTimeout(5)
  }
}

/** Polls `GET /projects/:id/import` until the import is finished or failed; returns that record. */
export const settled = (t: TestServer, id: unknown, token: string, timeoutMs = 30_000): Promise<Json> =>
  pollUntil(
    t,
    `/api/v4/projects/${String(id)}/import`,
    token,
    (b) => b.import_status === 'finished' || b.import_status === 'failed',
    timeoutMs,
  )

const EXPORT_RUNNING = new Set(['queued', 'started', 'regeneration_in_progress'])

/**
 * Polls `GET <project>/export` (`project`: the API path, `/api/v4/projects/...`) until the caller's
 * export job is no longer queued or running; returns that status record.
 */
export const exportSettled = (
  t: TestServer,
  project: string,
  token: string,
  timeoutMs = 30_000,
): Promise<Json> =>
  pollUntil(t, `${project}/export`, token, (b) => !EXPORT_RUNNING.has(b.export_status as string), timeoutMs)
