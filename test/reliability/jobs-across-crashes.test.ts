import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import tar from 'tar-stream'
import { FormData, request } from 'undici'
import { killed, startServe } from '../support/serve-child.js'
import { rootAndAcme } from '../support/seeds.js'

/*
 * An export or an import interrupted by SIGKILL ends, after a restart, finished
 * or failed with a status a client can act on (`export_status` finished/failed/none, never stuck
 * in `queued`/`started`; `import_status` finished, or failed with an `import_error`), and a new
 * export or import then runs to its end. The kill lands at a random moment after the 2xx, while
 * the job works through a project big enough to take a while (the status read just before the kill
 * must show a running job in at least one cycle, or the test proves nothing).
 * GLA_CRASH_CYCLES sets the kills per kind: CI runs 3; the full run is GLA_CRASH_CYCLES=10.
 */
const CYCLES = Number(process.env.GLA_CRASH_CYCLES ?? 3)
const ROOT = 'glpat-root-token'
const ISSUES = 800
const seed = rootAndAcme(`
projects:
  - path: acme/big
    labels: [ { name: bug, color: "#d9534f" } ]
    issues:
${Array.from({ length: ISSUES }, (_, i) => `      - { title: "Issue ${i} ${'x'.repeat(200)}", labels: [bug], description: "${'d'.repeat(500)}" }`).join('\n')}
`)

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await request(`${url}/api/v4${path}`, {
    method: method as 'GET',
    headers: { 'private-token': ROOT, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

/** Polls until `done` holds for the answer, or fails naming the last answer. */
async function until(
  read: () => Promise<Record<string, unknown>>,
  done: (b: Record<string, unknown>) => boolean,
  ms = 60_000,
) {
  const end = Date.now() + ms
  let last: Record<string, unknown> = {}
  while (Date.now() < end) {
    last = await read()
    if (done(last)) return last
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`still not done: ${JSON.stringify(last).slice(0, 300)}`)
}

/** A minimal GitLab export archive with `issues` issues. */
async function archive(issues: number): Promise<Buffer> {
  const pack = tar.pack()
  const chunks: Buffer[] = []
  pack.on('data', (c: unknown) => {
    chunks.push(c as Buffer)
  })
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()))
  const add = (name: string, text: string) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name }, text, (err) => (err ? reject(err) : resolve())),
    )
  await add('./VERSION', '0.2.4')
  await add('./tree/project.json', JSON.stringify({ description: 'imported' }))
  const line = (i: number) =>
    JSON.stringify({
      iid: i + 1,
      title: `Imported ${i} ${'t'.repeat(100)}`,
      description: 'd'.repeat(400),
      state: 'opened',
    })
  await add('./tree/project/issues.ndjson', Array.from({ length: issues }, (_, i) => `${line(i)}\n`).join(''))
  pack.finalize()
  await ended
  return gzipSync(Buffer.concat(chunks))
}

async function startImport(url: string, path: string, file: Buffer) {
  const form = new FormData()
  form.append('path', path)
  form.append('namespace', 'acme')
  form.append('file', new Blob([file]), 'project.tar.gz')
  const res = await request(`${url}/api/v4/projects/import`, {
    method: 'POST',
    headers: { 'private-token': ROOT },
    body: form,
  })
  const body = (await res.body.json()) as Record<string, unknown>
  return { status: res.statusCode, body }
}

describe('jobs across crashes', () => {
  let dir: string
  let seedFile: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-jobs-crash-'))
    seedFile = join(dir, 'seed.yaml')
    writeFileSync(seedFile, seed)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it(
    `an export killed mid-way ends finished or failed after a restart (${CYCLES} kills)`,
    async () => {
      const data = join(dir, 'export-data')
      const seen = new Set<string>()
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const first = await startServe(data, seedFile)
        const started = await api(first.url, 'POST', '/projects/acme%2Fbig/export')
        expect(started.status).toBe(202)
        await new Promise((r) => setTimeout(r, Math.random() * 30))
        seen.add(String((await api(first.url, 'GET', '/projects/acme%2Fbig/export')).body.export_status))
        await killed(first.child)

        const second = await startServe(data, seedFile)
        try {
          const after = await api(second.url, 'GET', '/projects/acme%2Fbig/export')
          expect(after.status).toBe(200)
          // Whatever it was at the kill, it is not running now and never will be by itself.
          expect(['finished', 'failed', 'none']).toContain(after.body.export_status)
          // A client acts on it: ask again, and this export finishes.
          expect((await api(second.url, 'POST', '/projects/acme%2Fbig/export')).status).toBe(202)
          await until(
            async () => (await api(second.url, 'GET', '/projects/acme%2Fbig/export')).body,
            (b) => b.export_status === 'finished',
          )
        } finally {
          await killed(second.child)
        }
      }
      // The kills must have hit running exports, or the test proves nothing.
      expect(
        [...seen].some((s) => s === 'queued' || s === 'started' || s === 'regeneration_in_progress'),
      ).toBe(true)
    },
    60_000 + CYCLES * 60_000,
  )

  it(
    `an import killed mid-way ends finished, or failed with an import_error, after a restart (${CYCLES} kills)`,
    async () => {
      const data = join(dir, 'import-data')
      const file = await archive(4000)
      const seen = new Set<string>()
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const first = await startServe(data, seedFile)
        const started = await startImport(first.url, `imported-${cycle}`, file)
        expect(started.status).toBe(201)
        await new Promise((r) => setTimeout(r, Math.random() * 30))
        seen.add(
          String(
            (await api(first.url, 'GET', `/projects/acme%2Fimported-${cycle}/import`)).body.import_status,
          ),
        )
        await killed(first.child)

        const second = await startServe(data, seedFile)
        try {
          const after = await api(second.url, 'GET', `/projects/acme%2Fimported-${cycle}/import`)
          expect(after.status).toBe(200)
          const status = after.body.import_status
          expect(['finished', 'failed']).toContain(status)
          if (status === 'failed') expect(String(after.body.import_error ?? '')).not.toBe('')
          // The client's next step works: a new import of the same archive finishes.
          const again = await startImport(second.url, `imported-${cycle}-again`, file)
          expect(again.status).toBe(201)
          await until(
            async () =>
              (await api(second.url, 'GET', `/projects/acme%2Fimported-${cycle}-again/import`)).body,
            (b) => b.import_status === 'finished' || b.import_status === 'failed',
          ).then((b) => expect(b).toMatchObject({ import_status: 'finished' }))
        } finally {
          await killed(second.child)
        }
      }
      expect([...seen].some((s) => s === 'scheduled' || s === 'started')).toBe(true)
    },
    60_000 + CYCLES * 60_000,
  )
})
