import { join } from 'node:path'
import { FormData, request } from 'undici'
import { inspectDb } from '../../src/server/store/inspect.js'
import { exportSettled } from './imports.js'
import type { TestServer } from './server.js'

/**
 * Gives a project (`/api/v4/projects/<id>`) of an EE server started with `data: dir` the files it keeps
 * outside the database: an incident with a metric image, and a finished export archive. Answers where
 * they are: the metric images folder and the archive's path.
 */
export async function projectFiles(
  t: TestServer,
  project: string,
  token: string,
  dir: string,
): Promise<{ images: string; archive: string }> {
  const incident = await t.http('POST', `${project}/issues`, {
    token,
    json: { title: 'Down', issue_type: 'incident' },
  })
  expect(incident.status).toBe(201)
  const iid = (incident.body as { iid: number }).iid
  const form = new FormData()
  form.append('file', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')]), 'graph.png')
  const uploaded = await request(`${t.baseUrl}${project}/issues/${iid}/metric_images`, {
    method: 'POST',
    body: form,
    headers: { 'private-token': token },
  })
  expect(uploaded.statusCode).toBe(201)
  await uploaded.body.dump()
  expect((await t.http('POST', `${project}/export`, { token })).status).toBe(202)
  expect((await exportSettled(t, project, token)).export_status).toBe('finished')
  const archive = (
    inspectDb(t.server.store).prepare('SELECT file FROM project_exports').get() as { file: string }
  ).file
  return { images: join(dir, 'uploads', 'metric_images'), archive }
}
