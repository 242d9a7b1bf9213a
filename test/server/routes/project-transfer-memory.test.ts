import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getHeapSpaceStatistics } from 'node:v8'
import { archive, base, repeated } from '../../support/hostile-archive.js'
import { exportSettled, importFile, settled } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

/*
 * A big export or import is followed (100 ms after its final status) by a memory-reducing
 * collection: the young generation the job grew shrinks back, and the Buffers it left in the old
 * generation are freed, before the next job (the row transfer: an import after an export of
 * 100,000 issues peaked 40-60 MB higher without it). The server runs in this process: the young
 * generation is grown here first, as a job would.
 */
const ROOT = 'glpat-root-token'
const MB = 1024 * 1024

const youngGeneration = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size
function growYoungGeneration() {
  let survivors: unknown[] = []
  for (let i = 0; i < 3_000_000; i++) {
    survivors.push({ i, text: `row ${i}` })
    if (survivors.length > 100_000) survivors = []
  }
  expect(youngGeneration()).toBeGreaterThanOrEqual(16 * MB)
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** The young generation's size once it is 8 MB or less, or after 2 s. */
async function youngGenerationSettled(): Promise<number> {
  for (let i = 0; i < 40 && youngGeneration() > 8 * MB; i++) await sleep(50)
  return youngGeneration()
}

let t: TestServer
let work: string
beforeEach(async () => {
  work = mkdtempSync(join(tmpdir(), 'transfer-memory-'))
  t = await startServer(widgetsSeed)
})
afterEach(async () => {
  await t.close()
  rmSync(work, { recursive: true, force: true })
})

it('an import of 24 MB of archive content leaves the young generation shrunk', async () => {
  // A relation file the importer does not restore: extracted, then left alone.
  const file = await archive(work, async (pack) => {
    await base(pack)
    await repeated(pack, './tree/project/ci_pipelines.ndjson', 24 * MB, 'a')
  })
  growYoungGeneration()
  const res = await importFile(t, file, { path: 'big', namespace: 'acme' }, ROOT)
  expect(res.status).toBe(201)
  expect(await settled(t, res.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
  expect(await youngGenerationSettled()).toBeLessThanOrEqual(8 * MB)
}, 60_000)

it('a small import skips the collection (a full one costs some 60 ms)', async () => {
  const file = await archive(work, base)
  growYoungGeneration()
  const res = await importFile(t, file, { path: 'small', namespace: 'acme' }, ROOT)
  expect(res.status).toBe(201)
  expect(await settled(t, res.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
  await sleep(500)
  expect(youngGeneration()).toBeGreaterThanOrEqual(16 * MB)
})

it('an export of 24 MB of issues leaves the young generation shrunk', async () => {
  const P = '/api/v4/projects/acme%2Fwidgets'
  const description = 'd'.repeat(MB)
  for (let i = 0; i < 24; i++)
    expect(
      (await t.http('POST', `${P}/issues`, { token: ROOT, json: { title: `big ${i}`, description } })).status,
    ).toBe(201)
  growYoungGeneration()
  expect((await t.http('POST', `${P}/export`, { token: ROOT })).status).toBe(202)
  expect((await exportSettled(t, P, ROOT)).export_status).toBe('finished')
  expect(await youngGenerationSettled()).toBeLessThanOrEqual(8 * MB)
}, 60_000)
