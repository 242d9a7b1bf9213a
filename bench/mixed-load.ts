/*
 * bench/mixed-load: the reference server under a mixed load at 64 keep-alive connections for 30 s
 * (BENCH_MIXED_SECONDS): each connection cycles through filtered lists, single reads, a create, an
 * edit, time tracking (add spent time) and a time-stats read, on random issues of a 10,000-issue
 * project (BENCH_ISSUES). Against a bare node:http server answering each kind of request with the
 * bytes the reference server answered it with, in the same run. Prints throughput, p50/p99 and
 * errors; any error or non-2xx answer makes the row throw (errors must be 0).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { request } from 'undici'
import { startChild } from './support/measure.js'
import type { RecordedAnswer } from './support/server-child.js'

const ISSUES = Number(process.env.BENCH_ISSUES ?? 10_000)
const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 30)
const CONNECTIONS = Number(process.env.BENCH_MIXED_CONNECTIONS ?? 64)
const P = '/api/v4/projects/bench%2Fissues/issues'
const headers = { 'private-token': 'glpat-alice-token', 'content-type': 'application/json' }
const iid = () => 1 + Math.floor(Math.random() * ISSUES)

interface Kind {
  name: string
  method: 'GET' | 'POST' | 'PUT'
  /** Matches the paths of this kind (for the baseline's recorded answers). */
  pattern: string
  path: () => string
  body?: () => string
}

const kinds: Record<string, Kind> = {
  list: {
    name: 'list',
    method: 'GET',
    pattern: '/issues\\?',
    path: () =>
      `${P}?per_page=20&state=opened&labels=${Math.random() < 0.5 ? 'bug' : 'feature'}&page=${1 + Math.floor(Math.random() * 5)}`,
  },
  read: { name: 'read', method: 'GET', pattern: '/issues/\\d+$', path: () => `${P}/${iid()}` },
  create: {
    name: 'create',
    method: 'POST',
    pattern: '/issues$',
    path: () => P,
    body: () => JSON.stringify({ title: `Created under load ${Math.random()}`, labels: 'bug' }),
  },
  edit: {
    name: 'edit',
    method: 'PUT',
    pattern: '/issues/\\d+$',
    path: () => `${P}/${iid()}`,
    body: () => JSON.stringify({ title: `Edited under load ${Math.random()}`, add_labels: 'docs' }),
  },
  spend: {
    name: 'spend',
    method: 'POST',
    pattern: '/add_spent_time$',
    path: () => `${P}/${iid()}/add_spent_time`,
    body: () => JSON.stringify({ duration: '15m', summary: 'bench' }),
  },
  stats: { name: 'stats', method: 'GET', pattern: '/time_stats$', path: () => `${P}/${iid()}/time_stats` },
}

/** One connection's cycle: 3 lists, 3 reads, 1 create, 1 edit, 1 spend, 1 stats. */
const cycle: Kind[] = [
  'list',
  'read',
  'edit',
  'read',
  'list',
  'spend',
  'read',
  'create',
  'list',
  'stats',
].map((k) => kinds[k] as Kind)

interface Mixed {
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  total: number
}

async function mixedLoad(url: string, seconds: number): Promise<Mixed> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: cycle.map((k) => ({
      method: k.method,
      setupRequest: (req: autocannon.Request) => ({
        ...req,
        method: k.method,
        path: k.path(),
        ...(k.body ? { body: k.body() } : {}),
      }),
    })),
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  }
}

/** Each kind's answer from the reference server, for the baseline to replay (most specific first). */
async function record(base: string): Promise<RecordedAnswer[]> {
  const order = ['spend', 'stats', 'list', 'create', 'edit', 'read']
  const out: RecordedAnswer[] = []
  for (const k of order.map((n) => kinds[n] as Kind)) {
    const res = await request(`${base}${k.path()}`, { method: k.method, headers, body: k.body?.() })
    const body = Buffer.from(await res.body.arrayBuffer())
    if (res.statusCode >= 300) throw new Error(`${k.name} answered ${res.statusCode}: ${body.toString()}`)
    const keep = Object.fromEntries(
      Object.entries(res.headers).filter(([h]) => h.startsWith('x-') || h === 'link' || h === 'content-type'),
    ) as Record<string, string>
    out.push({
      method: k.method,
      pattern: k.pattern,
      status: res.statusCode,
      headers: keep,
      body: body.toString('base64'),
    })
  }
  return out
}

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
  const reference = await startChild(['reference', String(ISSUES), 'open'])
  const dir = mkdtempSync(join(tmpdir(), 'gla-mixed-'))
  try {
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(await record(reference.url)))
    const baseline = await startChild(['baseline-multi', join(dir, 'answers.json')])
    try {
      await mixedLoad(reference.url, 2) // warm-up
      const ours = await mixedLoad(reference.url, SECONDS)
      const bare = await mixedLoad(baseline.url, SECONDS)
      const bad = ours.errors + ours.non2xx
      if (bad > 0 || bare.errors + bare.non2xx > 0)
        throw new Error(
          `mixed-load: ${ours.errors} errors and ${ours.non2xx} non-2xx answers of ${ours.total} requests ` +
            `(baseline: ${bare.errors + bare.non2xx}); errors must be 0`,
        )
      return {
        name: `mixed-load: reference / bare node:http, ${CONNECTIONS} connections (errors must be 0)`,
        ratio: ours.rps / bare.rps,
        detail:
          `reference ${ours.rps.toFixed(0)} req/s (p50 ${ours.p50} ms, p99 ${ours.p99} ms, ${ours.total} requests, errors 0); ` +
          `bare node:http ${bare.rps.toFixed(0)} req/s (p50 ${bare.p50} ms, p99 ${bare.p99} ms); ` +
          `${SECONDS} s each; mix per 10: 3 lists, 3 reads, create, edit, add_spent_time, time_stats; ${ISSUES} issues`,
      }
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
