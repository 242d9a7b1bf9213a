/*
 * bench/issues-list: GET /projects/:id/issues?per_page=20&labels=bug&state=opened on a 10,000-issue
 * project at 32 keep-alive connections, against a bare node:http server answering the very same
 * bytes, side by side in one run. Prints requests per second, p50/p99 latency and the ratio
 * (target: at least 0.5), and how long the 10,000-issue seed took to load (target: under 2 s).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { load, startChild } from './support/measure.js'

const ISSUES = Number(process.env.BENCH_ISSUES ?? 10_000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 32
const PATH = '/api/v4/projects/bench%2Fissues/issues?per_page=20&labels=bug&state=opened'
const headers = { 'private-token': 'glpat-root-token' }

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
  const reference = await startChild(['reference', String(ISSUES)])
  const dir = mkdtempSync(join(tmpdir(), 'gla-bench-'))
  try {
    const sample = await request(`${reference.url}${PATH}`, { headers })
    const body = Buffer.from(await sample.body.arrayBuffer())
    if (sample.statusCode !== 200)
      throw new Error(`reference answered ${sample.statusCode}: ${body.toString()}`)
    const keep = Object.fromEntries(
      Object.entries(sample.headers).filter(
        ([k]) => k.startsWith('x-') || k === 'link' || k === 'content-type',
      ),
    )
    writeFileSync(
      join(dir, 'response.json'),
      JSON.stringify({ headers: keep, body: body.toString('base64') }),
    )
    const baseline = await startChild(['baseline', join(dir, 'response.json')])
    try {
      await load(`${reference.url}${PATH}`, { connections: CONNECTIONS, seconds: 2, headers }) // warm-up
      const ours = await load(`${reference.url}${PATH}`, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        headers,
      })
      const bare = await load(`${baseline.url}${PATH}`, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        headers,
      })
      const ratio = ours.rps / bare.rps
      const detail =
        `reference ${ours.rps.toFixed(0)} req/s (p50 ${ours.p50} ms, p99 ${ours.p99} ms, errors ${ours.errors + ours.non2xx}); ` +
        `bare node:http ${bare.rps.toFixed(0)} req/s (p50 ${bare.p50} ms, p99 ${bare.p99} ms); ` +
        `${ISSUES} issues seeded in ${reference.seedMs} ms; response ${body.length} bytes`
      return { name: 'issues-list: reference / bare node:http (target >= 0.5)', ratio, detail }
    } finally {
      await baseline.stop()
    }
  } finally {
    await reference.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run()
  console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
