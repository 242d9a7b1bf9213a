/*
 * bench/mixed-load: the reference server under a mixed load at 64 keep-alive connections
 * (BENCH_MIXED_CONNECTIONS), driven by wrk with bench/wrk/mixed.lua: each wrk thread cycles through
 * 3 filtered lists, 3 single reads, a create, an edit, time tracking (add spent time) and a
 * time-stats read per 10 requests, on random issues of a 10,000-issue project (BENCH_ISSUES).
 * Against a bare node:http server answering each kind of request with the bytes the reference server
 * answered it with, measured alternately (BENCH_ROUNDS runs of BENCH_MIXED_SECONDS each, medians),
 * with the generator check (the bare server at 128 connections too). Prints throughput, p50/p99 and
 * errors; any error or non-2xx answer on any side makes the row throw (errors must be 0).
 * With BENCH_BEFORE_DIR, the reference server of that build joins the rounds, and a second row gives
 * this build's rate over that one's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import {
  alternate,
  beforeBuild,
  COMPARE_LOG,
  figures,
  generatorCheck,
  ROUNDS,
  startChild,
  type Started,
} from './support/measure.js'
import { wrk, wrkScript, type Load } from './support/wrk.js'
import type { RecordedAnswer } from './support/server-child.js'

const ISSUES = Number(process.env.BENCH_ISSUES ?? 10_000)
const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_MIXED_CONNECTIONS ?? 64)
const P = '/api/v4/projects/bench%2Fissues/issues'
const headers = { 'private-token': 'glpat-alice-token', 'content-type': 'application/json' }
const iid = () => 1 + Math.floor(Math.random() * ISSUES)

/** The kinds of request of bench/wrk/mixed.lua, to record the answers the baseline replays. */
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

type Row = { name: string; ratio: number; detail: string }

/** wrk running bench/wrk/mixed.lua (the same mix as `cycle`) against `server`. */
const mixed =
  (server: Started, connections = CONNECTIONS, seconds = SECONDS) =>
  (): Promise<Load> =>
    wrk(server.url, {
      connections,
      seconds,
      headers,
      script: wrkScript('mixed.lua'),
      scriptArgs: [String(ISSUES)],
      serverPid: server.proc.pid as number,
    })

export async function run(): Promise<Row[]> {
  const other = beforeBuild()
  const reference = await startChild(['reference', String(ISSUES), 'open'])
  const before = other ? await startChild(['reference', String(ISSUES), 'open'], other) : undefined
  const logOff = COMPARE_LOG ? await startChild(['reference', String(ISSUES), 'open', 'log-off']) : undefined
  const dir = mkdtempSync(join(tmpdir(), 'gla-mixed-'))
  try {
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(await record(reference.url)))
    if (before) await record(before.url)
    const baseline = await startChild(['baseline-multi', join(dir, 'answers.json')])
    try {
      await mixed(reference, CONNECTIONS, 2)() // warm-up
      if (before) await mixed(before, CONNECTIONS, 2)()
      if (logOff) await mixed(logOff, CONNECTIONS, 2)()
      const m = await alternate('mixed-load', {
        ...(before ? { before: mixed(before) } : {}),
        ...(logOff ? { logOff: mixed(logOff) } : {}),
        ours: mixed(reference),
        bare: mixed(baseline),
        bare2N: mixed(baseline, 2 * CONNECTIONS),
      } as Record<'before' | 'logOff' | 'ours' | 'bare' | 'bare2N', () => Promise<Load>>)
      const bad = (Object.entries(m) as [string, Load][]).filter(([, l]) => l.errors + l.non2xx > 0)
      if (bad.length > 0)
        throw new Error(
          bad
            .map(
              ([side, l]) =>
                `${side}: ${l.errors} errors and ${l.non2xx} non-2xx answers of ${l.total} requests`,
            )
            .join('; ') + '; errors must be 0',
        )
      const detail =
        `reference ${figures(m.ours)}, ${m.ours.total} requests; bare node:http ${figures(m.bare)}; ` +
        `wrk, medians of ${ROUNDS} alternating runs of ${SECONDS} s; mix per 10: 3 lists, 3 reads, create, edit, add_spent_time, time_stats; ${ISSUES} issues`
      const check = generatorCheck(CONNECTIONS, m.bare, m.bare2N, detail)
      const ratio = m.ours.rps / m.bare.rps
      // Issue 44's targets, judged on the unrounded figures (0.247 prints as 0.25).
      const misses = [
        ratio < 0.25 ? `MISSES the 0.25 target (${ratio.toFixed(3)})` : '',
        m.ours.p99 >= 15 ? 'MISSES the 15 ms p99 target' : '',
      ].filter(Boolean)
      const rows: Row[] = [
        {
          name: `mixed-load: reference / bare node:http, ${CONNECTIONS} connections (target >= 0.25, p99 < 15 ms, errors 0)`,
          ratio,
          detail: [detail, check, ...misses].join('; '),
        },
      ]
      if (before && other)
        rows.push({
          name: 'mixed-load: this build / the build in BENCH_BEFORE_DIR, req/s',
          ratio: m.ours.rps / m.before.rps,
          detail: `this build ${figures(m.ours)}; before (${other.label}) ${figures(m.before)}; the same rounds as the row above`,
        })
      if (logOff)
        rows.push({
          name: 'mixed-load: request log on (1000) / off, req/s (target >= 0.9)',
          ratio: m.ours.rps / m.logOff.rps,
          detail: `log on ${figures(m.ours)}; log off ${figures(m.logOff)}; the same rounds as the row above`,
        })
      return rows
    } finally {
      await baseline.stop()
    }
  } finally {
    await before?.stop()
    await logOff?.stop()
    await reference.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
