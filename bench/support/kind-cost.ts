/*
 * Instructions per request of ONE kind of bench/wrk/mixed.lua's requests, counted by callgrind on
 * the server's main thread (the machine is shared: wall time says little, instructions do).
 *   node --import tsx bench/support/kind-cost.ts [<build dir>] [<requests>] [<kinds,...>]
 * starts `<build dir>/build/server/start/build-server.js` (default: this worktree's build) with the
 * bench's seed (bench/support/seeds.ts, 10,000 issues, no creation limit) under
 * `valgrind --tool=callgrind --separate-threads=yes`, then for each kind in turn sends the kind's
 * warm-up requests, zeroes the counters (`callgrind_control -z`), sends <requests> (default 600)
 * over one keep-alive connection (KIND_COST_CONNECTIONS), dumps (`callgrind_control -d`) and prints the main thread's
 * instructions per request, with and without V8's collections. The iids come from a fixed pseudo-random sequence, so two builds get the
 * same requests. Kinds: create, edit, spend, stats, read, list-hit (the 10 list URLs, all cached),
 * create+list (a create, then a list of `bug` the create made stale: the list's miss is this pair
 * less a create), mix (bench/wrk/mixed.lua's cycle of 10 requests, counted per cycle: not run unless
 * named). With `serve` as first argument it is the server's side (run by valgrind).
 */
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Pool } from 'undici'
import { issuesSeed } from './seeds.js'

const ISSUES = 10_000
const P = '/api/v4/projects/bench%2Fissues/issues'
/** One at a time: how many requests a turn of the server batches would depend on timing. */
const CONNECTIONS = Number(process.env.KIND_COST_CONNECTIONS ?? 1)
const headers = { 'private-token': 'glpat-alice-token', 'content-type': 'application/json' }

if (process.argv[2] === 'serve') {
  const dir = resolve(process.argv[3] as string)
  const { buildServer } = (await import(join(dir, 'build/server/start/build-server.js'))) as {
    buildServer: (o: object) => Promise<{ listen(o: object): Promise<string> }>
  }
  const server = await buildServer({ seed: issuesSeed(ISSUES), issuesCreateLimit: 0 })
  process.stdout.write(`READY ${await server.listen({ host: '127.0.0.1', port: 0 })}\n`)
} else {
  const dir = resolve(process.argv[2] ?? '.')
  const count = Number(process.argv[3] ?? 600)
  const only = process.argv[4]?.split(',')
  // A fixed sequence (mulberry32), so that every build gets the same requests.
  let seed = 44
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const iid = () => 1 + Math.floor(random() * ISSUES)
  type Req = { method: 'GET' | 'POST' | 'PUT'; path: string; body?: string }
  const listUrl = (label: string) =>
    `${P}?per_page=20&state=opened&labels=${label}&page=${1 + Math.floor(random() * 5)}`
  const kinds: Record<string, () => Req[]> = {
    create: () => [
      { method: 'POST', path: P, body: JSON.stringify({ title: `Created ${random()}`, labels: 'bug' }) },
    ],
    edit: () => [
      {
        method: 'PUT',
        path: `${P}/${iid()}`,
        body: JSON.stringify({ title: `Edited ${random()}`, add_labels: 'docs' }),
      },
    ],
    spend: () => [
      { method: 'POST', path: `${P}/${iid()}/add_spent_time`, body: '{"duration":"15m","summary":"bench"}' },
    ],
    stats: () => [{ method: 'GET', path: `${P}/${iid()}/time_stats` }],
    read: () => [{ method: 'GET', path: `${P}/${iid()}` }],
    'list-hit': () => [{ method: 'GET', path: listUrl(random() < 0.5 ? 'bug' : 'feature') }],
    'create+list': () => [...(kinds.create as () => Req[])(), { method: 'GET', path: listUrl('bug') }],
    // bench/wrk/mixed.lua's cycle of 10 in its order: with KIND_COST_CONNECTIONS above 1, the writes of
    // some connections make the lists of others miss, as under wrk.
    mix: () =>
      [
        'list-hit',
        'read',
        'edit',
        'read',
        'list-hit',
        'spend',
        'read',
        'create',
        'list-hit',
        'stats',
      ].flatMap((k) => (kinds[k] as () => Req[])()),
  }
  const out = mkdtempSync(join(tmpdir(), 'kind-cost-'))
  const server = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      // Uninstrumented (several times faster) until the server listens: the seed is not measured.
      '--instr-atstart=no',
      `--callgrind-out-file=${out}/cg`,
      process.execPath,
      '--import',
      'tsx',
      new URL(import.meta.url).pathname,
      'serve',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const url = await new Promise<string>((ok, fail) => {
    let text = ''
    server.stdout.on('data', (d: Buffer) => {
      text += d.toString()
      const line = text.split('\n').find((l) => l.startsWith('READY '))
      if (line) ok(line.slice(6))
    })
    server.once('exit', (code) => fail(new Error(`server exited ${code}`)))
  })
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 })
  /** Sends `n` of a kind, CONNECTIONS at a time (a kind of several requests sends them in order). */
  const send = async (kind: string, n: number) => {
    let left = n
    const worker = async () => {
      while (left-- > 0)
        for (const r of (kinds[kind] as () => Req[])()) {
          const res = await pool.request({ ...r, headers })
          await res.body.dump()
          if (res.statusCode >= 300)
            throw new Error(`${kind}: ${r.method} ${r.path} answered ${res.statusCode}`)
        }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, worker))
  }
  const control = (...flags: string[]) =>
    execFileSync('callgrind_control', [...flags, String(server.pid)], { stdio: 'ignore' })
  /**
   * The main thread's instructions in the newest dump (its part files end in `-01`), and those of
   * them spent in V8's collections (`Heap::CollectGarbage`, inclusive): when a scavenge or a
   * mark-compact lands in the window is the counts' main noise.
   */
  const mainThread = (): { all: number; gc: number } => {
    const parts = readdirSync(out)
      .filter((f) => /\.\d+-01$/.test(f))
      .sort((a, b) => Number(/\.(\d+)-01$/.exec(b)?.[1]) - Number(/\.(\d+)-01$/.exec(a)?.[1]))
    const file = join(out, parts[0] as string)
    const all = Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1])
    const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    })
    const gc = annotated
      .split('\n')
      .filter((l) => l.includes('v8::internal::Heap::CollectGarbage('))
      .map((l) => Number(/^\s*([\d,]+)/.exec(l)?.[1]?.replace(/,/g, '') ?? 0))
    return { all, gc: Math.max(0, ...gc) }
  }
  try {
    control('-i', 'on')
    for (const kind of only ?? Object.keys(kinds).filter((k) => k !== 'mix')) {
      await send(kind, Math.max(200, count / 2)) // warm-up: the JIT's tiers and the caches
      control('-z')
      await send(kind, count)
      control('-d')
      const { all, gc } = mainThread()
      console.log(`${kind}\t${Math.round(all / count)}\t${Math.round((all - gc) / count)} without GC`)
    }
  } finally {
    await pool.close()
    server.kill('SIGTERM')
    if (server.exitCode === null) await new Promise((ok) => server.once('exit', ok))
    // KIND_COST_KEEP: keep the dumps (callgrind_annotate them: the SQL's part, node's own functions).
    if (process.env.KIND_COST_KEEP) console.log(`dumps in ${out}`)
    else rmSync(out, { recursive: true, force: true })
  }
}
