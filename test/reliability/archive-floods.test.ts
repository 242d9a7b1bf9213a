import { rmSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { whileWatchingHealth } from '../support/health-watch.js'
import { archive, repeated, small } from '../support/hostile-archive.js'
import { imported, transfersLeft } from '../support/imports.js'
import { killed, peakRss, serveFolder, startServe } from '../support/serve-child.js'
import { rootAndAcme } from '../support/seeds.js'

/*
 * The review's archives that still took `serve` above 200 MB: 100,000 tiny entries (350-370 MB,
 * `/-/health` stalled 4 s) and a 500 MB `VERSION` (read whole: 1.14 GB). Each is imported into a
 * child process whose peak resident memory (VmHWM) is read from /proc afterwards, while a client
 * polls `/-/health` (the issue asks for 1 s; the bound here is HEALTH_MS, for a loaded machine).
 * The import fails as GitLab's would, and nothing is left in DATA/transfers.
 *
 * Scale with GLA_FLOOD_ENTRIES (100,000) and GLA_VERSION_MB (500).
 */
const ENTRIES = Number(process.env.GLA_FLOOD_ENTRIES ?? 100_000)
const VERSION_MB = Number(process.env.GLA_VERSION_MB ?? 500)
const MB = 1024 * 1024
const PEAK_LIMIT = 200 * MB
const HEALTH_MS = 3_000
const ROOT = 'glpat-root-token'
type Json = Record<string, unknown>

let work: string
let data: string
let child: ChildProcess | undefined
let url: string

beforeAll(async () => {
  const folder = serveFolder('archive-floods-', rootAndAcme())
  ;({ work, data } = folder)
  ;({ child, url } = await startServe(data, folder.seedFile))
})
afterAll(async () => {
  if (child) await killed(child)
  rmSync(work, { recursive: true, force: true })
})

/** Imports `file` as `path` while polling `/-/health`; the settled import and the longest wait. */
async function importWatched(file: string, path: string): Promise<{ done: Json; longestMs: number }> {
  const { result: done, longestMs } = await whileWatchingHealth(url, () =>
    imported({ baseUrl: url }, file, { path }, ROOT, { timeoutMs: 120_000, everyMs: 50 }),
  )
  return { done, longestMs }
}

describe('serve under archives of many entries or a huge VERSION', () => {
  jest.setTimeout(180_000)

  it(`${ENTRIES} tiny entries: refused at the entry limit, peak under 200 MB, /-/health within ${HEALTH_MS} ms`, async () => {
    const file = await archive(work, async (pack) => {
      await small(pack, './VERSION', '0.2.4')
      for (let i = 0; i < ENTRIES; i++) await small(pack, `./junk/${i}`, 'x')
      await small(pack, './tree/project.json', '{}')
    })
    const { done, longestMs } = await importWatched(file, 'flood')
    const peak = peakRss(child!)
    process.stdout.write(
      `flood (${ENTRIES}): peak ${Math.round(peak / MB)} MB, longest /-/health wait ${longestMs} ms\n`,
    )
    expect(done).toMatchObject({ import_status: 'failed', import_error: 'Too many files in the archive' })
    expect(await transfersLeft(data)).toEqual([])
    expect(peak).toBeLessThan(PEAK_LIMIT)
    expect(longestMs).toBeLessThan(HEALTH_MS)
  })

  it(`a ${VERSION_MB} MB VERSION: failed as GitLab fails it, never read whole`, async () => {
    const file = await archive(
      work,
      async (pack) => {
        await repeated(pack, './VERSION', VERSION_MB * MB, '0', '0.2.4')
        await small(pack, './tree/project.json', '{}')
      },
      9,
    )
    const { done, longestMs } = await importWatched(file, 'huge-version')
    const peak = peakRss(child!)
    process.stdout.write(
      `VERSION (${VERSION_MB} MB): peak ${Math.round(peak / MB)} MB, longest /-/health wait ${longestMs} ms\n`,
    )
    expect(done).toMatchObject({ import_status: 'failed', import_error: 'Incorrect VERSION format' })
    expect(await transfersLeft(data)).toEqual([])
    expect(peak).toBeLessThan(PEAK_LIMIT)
    expect(longestMs).toBeLessThan(HEALTH_MS)
  })
})
