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
 * Polls `GET /projects/:id/import` until the import is finished or failed; returns that record.
 * Bounded by time, not by a count of polls: on a busy machine 1,000 quick polls ended before a
 * 24 MB import did.
 */
export async function settled(t: TestServer, id: unknown, token: string, timeoutMs = 30_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await t.http('GET', `/api/v4/projects/${String(id)}/import`, { token })
    const status = (res.body as Json).import_status
    if (status === 'finished' || status === 'failed') return res.body as Json
    if (Date.now() > deadline) throw new Error(`import did not settle in ${timeoutMs} ms`)
    await setTimeout(5)
  }
}
