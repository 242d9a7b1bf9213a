/*
 * bench/peer: the reference server against its closest peer, vercel-labs/emulate (a stateful GitHub
 * emulator, bench/support/emulate.ts), on issue 44's rows, each side through its own bin with its
 * normal defaults, measured alternately in the same run. Every ratio is how far ours is ahead
 * (> 1: ahead): req/s ours / emulate's, times and memory emulate's / ours.
 * - Load (wrk, 64 connections, BENCH_ROUNDS alternating runs of BENCH_SECONDS, medians): a list of
 *   20 open issues of 1,000, one issue, and issue creation (with p99). The generator check runs a
 *   bare node:http server answering our list's bytes at 64 and 128 connections in the same rounds;
 *   before the list's rounds, one run of each side at 64 (ours, emulate, bare) warms it up, not counted.
 * - Starts (5 alternating, medians): process start to 1,000 issues answered, and to the first answer
 *   with an empty seed. The RSS of the same starts (5 rounds, medians, memoryRows) at the same two
 *   moments on both sides: half a second after the first answer, and 20 s after it (settled).
 * - Reset (in this process, 30 alternating rounds, medians): `reset()` after the same 100 writes
 *   (creations, edits, comments in turn), ours to the 1,000-issue seed and to a seed without issues.
 * What is not equal, and which way it leans:
 * - emulate cannot seed issues: its 1,000 are made through its API, and its cold start includes that.
 * - emulate accepts any token (and none); ours checks the token and the caller's access on each request.
 * - emulate allows 5,000 requests an hour per token and cannot be told otherwise: its load rows rotate
 *   through 256 tokens of alice's (bench/wrk/tokens.lua), which costs wrk a Lua call per request.
 * - emulate sends fewer page headers (`link` only; ours adds x-total, x-total-pages, x-page,
 *   x-per-page, x-next-page, x-prev-page), and its bodies are larger (the row prints both sizes).
 * - Ours runs without GitLab's issue-creation rate limit (`--issues-create-limit 0`; the default, 300
 *   a minute per user and project, would answer 429 within a second of the creation row); emulate
 *   has none. Each side's creations stay in its store for the rows after, and ours, faster, grows more.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { request } from 'undici'
import { stringify } from 'yaml'
import { buildServer } from '../src/server/start/build-server.js'
import { rssMb, SETTLE_MS } from './support/first-answer.js'
import { alternate, figures, generatorCheck, median, ROUNDS, startChild, timed } from './support/measure.js'
import {
  createIssues,
  EMULATE_VERSION,
  emulateSeed,
  ensureEmulate,
  PEER_ISSUES,
  peerHeaders,
  ROTATED_TOKENS,
  writeEmulateSeed,
} from './support/emulate.js'
import { issuesSeed } from './support/seeds.js'
import { THREADS, wrk, wrkScript, type Load } from './support/wrk.js'

const bin = fileURLToPath(new URL('../bin/gitlab-actions.js', import.meta.url))
const ISSUES = 1000
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = 64
const STARTS = 5
const RESET_ROUNDS = 30
const WRITES = 100
const OURS = '/api/v4/projects/bench%2Fissues/issues'
const oursHeaders = { 'private-token': 'glpat-alice-token', 'content-type': 'application/json' }
const ROOT = { 'private-token': 'glpat-emulator-root-token' }

type Row = { name: string; ratio: number; detail: string }

/** A server process of either side, listening. */
interface Proc {
  url: string
  proc: ChildProcess
  /** Milliseconds from spawn to its ready line. */
  readyMs: number
  stop(): Promise<void>
}

/** A port free now, for emulate's CLI, which refuses `--port 0`. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

/** Spawns `node args` and waits for `ready` on its stdout; `url` from the match, or given. */
async function spawnServer(args: string[], ready: RegExp, url?: string): Promise<Proc> {
  const started = performance.now()
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  const found = await new Promise<string>((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const m = ready.exec(out)
      if (m) resolve(url ?? (m[1] as string))
    })
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)))
  })
  return {
    url: found,
    proc,
    readyMs: performance.now() - started,
    async stop() {
      const exited = proc.exitCode === null ? once(proc, 'exit') : undefined
      proc.kill('SIGTERM')
      await exited
    },
  }
}

/** Ours through its bin: `serve --port 0` with `seed` (a file or `none`) and `extra` flags. */
const serveOurs = (seed: string, extra: string[] = []) =>
  spawnServer([bin, 'serve', '--port', '0', '--seed', seed, ...extra], /listening on (http:\/\/[\d.]+:\d+)/)

/** emulate's GitHub through its bin, with `seed` (a file) or its built-in one. */
async function serveEmulate(pkg: string, seed?: string): Promise<Proc> {
  const port = await freePort()
  return spawnServer(
    [
      join(pkg, 'dist/index.js'),
      '--service',
      'github',
      '--port',
      String(port),
      ...(seed ? ['--seed', seed] : []),
    ],
    /Ready\./,
    `http://127.0.0.1:${port}`,
  )
}

/** GET `url`, failing unless 200; the body and headers. */
async function get(url: string, headers: Record<string, string>) {
  const res = await request(url, { headers })
  const body = Buffer.from(await res.body.arrayBuffer())
  if (res.statusCode !== 200)
    throw new Error(`GET ${url}: ${res.statusCode} ${body.toString().slice(0, 200)}`)
  return { headers: res.headers as Record<string, string>, body }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const ahead = (x: number) => `${x.toFixed(2)}x ${x >= 1 ? 'ahead' : 'behind'}`

/** Where the runs' files are: our seed of 1,000 issues and emulate's seed, both written by `run`. */
interface Files {
  dir: string
  seedFile: string
  peerSeed: string
}

async function loadRows(pkg: string, { dir, seedFile, peerSeed }: Files): Promise<Row[]> {
  const ours = await serveOurs(seedFile, ['--issues-create-limit', '0'])
  const peer = await serveEmulate(pkg, peerSeed)
  try {
    await createIssues(peer.url, ISSUES)
    const listOurs = `${ours.url}${OURS}?per_page=20&state=opened`
    const listPeer = `${peer.url}${PEER_ISSUES}?per_page=20`
    const [a, b] = [await get(listOurs, oursHeaders), await get(listPeer, peerHeaders)]
    const pageHeaders = (h: Record<string, string>) =>
      ['link', 'x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page'].filter(
        (k) => k in h,
      )
    const oneOurs = await get(`${ours.url}${OURS}/500`, oursHeaders)
    const onePeer = await get(`${peer.url}${PEER_ISSUES}/500`, peerHeaders)
    const baselineFile = join(dir, 'response.json')
    const keep = Object.entries(a.headers).filter(
      ([k]) => k.startsWith('x-') || k === 'link' || k === 'content-type',
    )
    writeFileSync(
      baselineFile,
      JSON.stringify({ headers: Object.fromEntries(keep), body: a.body.toString('base64') }),
    )
    const bare = await startChild(['baseline', baselineFile])
    const listBare = `${bare.url}${OURS}?per_page=20&state=opened`
    try {
      const at =
        (
          p: { url: string; proc: ChildProcess },
          url: string,
          headers: Record<string, string>,
          connections = CONNECTIONS,
        ) =>
        () =>
          wrk(url, { connections, seconds: SECONDS, headers, serverPid: p.proc.pid as number })
      const post = (p: Proc, url: string, headers: Record<string, string>, body: string) => () =>
        wrk(url, {
          connections: CONNECTIONS,
          seconds: SECONDS,
          headers,
          script: wrkScript('post.lua'),
          scriptArgs: [body],
          serverPid: p.proc.pid as number,
        })
      /** emulate's side: the same request with alice's tokens in turn (bench/wrk/tokens.lua). */
      const rotated =
        (url: string, method = 'GET', body?: string) =>
        () =>
          wrk(url, {
            connections: CONNECTIONS,
            seconds: SECONDS,
            headers: { 'content-type': 'application/json' },
            script: wrkScript('tokens.lua'),
            scriptArgs: [
              method,
              ROTATED_TOKENS.prefix,
              String(ROTATED_TOKENS.count),
              ...(body ? [body] : []),
            ],
            serverPid: peer.proc.pid as number,
          })
      // One warm-up round, not counted, of every side the list measures: both JITs, the caches each
      // side keeps, and the bare server's own first round, which read 28,415 req/s against
      // 38,846-44,244 in the rounds after it and could fail the generator check by chance.
      const sides = {
        ours: at(ours, listOurs, oursHeaders),
        emulate: rotated(listPeer),
        bare: at(bare, listBare, oursHeaders),
      }
      for (const [side, measure] of Object.entries(sides))
        console.error(`peer list warm-up (not counted), ${side}: ${figures(await measure())}`)
      const list = await alternate('peer list', {
        ...sides,
        bare2N: at(bare, listBare, oursHeaders, 2 * CONNECTIONS),
      })
      const check = generatorCheck(
        CONNECTIONS,
        list.bare,
        list.bare2N,
        `ours ${figures(list.ours)}; emulate ${figures(list.emulate)}`,
      )
      const one = await alternate('peer one issue', {
        ours: at(ours, `${ours.url}${OURS}/500`, oursHeaders),
        emulate: rotated(`${peer.url}${PEER_ISSUES}/500`),
      })
      const create = await alternate('peer create', {
        ours: post(ours, `${ours.url}${OURS}`, oursHeaders, '{"title":"Created by wrk","labels":"bug"}'),
        emulate: rotated(`${peer.url}${PEER_ISSUES}`, 'POST', '{"title":"Created by wrk","labels":["bug"]}'),
      })
      for (const [row, m] of [
        ['list', list],
        ['one issue', one],
        ['create', create],
      ] as const)
        for (const [side, l] of Object.entries(m) as [string, Load][])
          if (l.errors + l.non2xx > 0)
            throw new Error(
              `${row}, ${side}: ${l.errors} errors and ${l.non2xx} non-2xx answers of ${l.total}`,
            )
      const how = `wrk, ${CONNECTIONS} connections, medians of ${ROUNDS} alternating runs of ${SECONDS} s`
      const warmed = `after a warm-up run of ${SECONDS} s of each side (ours, emulate, bare), not counted`
      // The rows without a bare server of their own: wrk's CPU beside each side's (the list's check
      // covers the generator at its fastest; these answer fewer requests a second, or smaller ones).
      const cpu = (m: Record<'ours' | 'emulate', Load>) =>
        `wrk used ${m.ours.wrkCpu.toFixed(2)} / ${m.emulate.wrkCpu.toFixed(2)} cores of its ${THREADS}, ` +
        `the servers ${m.ours.serverCpu.toFixed(2)} / ${m.emulate.serverCpu.toFixed(2)}`
      return [
        {
          name: 'peer: list 20 of 1,000 open issues, ours / emulate req/s',
          ratio: list.ours.rps / list.emulate.rps,
          detail:
            `ours ${figures(list.ours)}, emulate ${figures(list.emulate)}; ${how}, ${warmed}; bodies ${a.body.length} / ${b.body.length} bytes, ` +
            `page headers ${pageHeaders(a.headers).join(' ')} / ${pageHeaders(b.headers).join(' ') || 'none'}; ${check}`,
        },
        {
          name: 'peer: one issue, ours / emulate req/s',
          ratio: one.ours.rps / one.emulate.rps,
          detail: `ours ${figures(one.ours)}, emulate ${figures(one.emulate)}; ${how}; bodies ${oneOurs.body.length} / ${onePeer.body.length} bytes; ${cpu(one)}`,
        },
        {
          name: 'peer: create issues, ours / emulate req/s (ours without the issue-creation rate limit)',
          ratio: create.ours.rps / create.emulate.rps,
          detail:
            `ours ${figures(create.ours)}, emulate ${figures(create.emulate)}; p99 ${create.ours.p99.toFixed(1)} / ${create.emulate.p99.toFixed(1)} ms; ` +
            `${how}; ${cpu(create)}; ours with --issues-create-limit 0 (GitLab's default, 300 a minute, would refuse nearly all)`,
        },
      ]
    } finally {
      await bare.stop()
    }
  } finally {
    await ours.stop()
    await peer.stop()
  }
}

async function startRows(pkg: string, { seedFile, peerSeed }: Files): Promise<Row[]> {
  const t = {
    ours: [] as number[],
    peer: [] as number[],
    oursEmpty: [] as number[],
    peerEmpty: [] as number[],
  }
  const until = async (start: () => Promise<Proc>, then: (p: Proc) => Promise<unknown>, times: number[]) => {
    const started = performance.now()
    const p = await start()
    try {
      await then(p)
      times.push(performance.now() - started)
    } finally {
      await p.stop()
    }
  }
  const sides = starts(pkg, { seedFile, peerSeed })
  for (let i = 0; i < STARTS; i++) {
    await until(sides.ours1000.start, sides.ours1000.first, t.ours)
    await until(sides.peer1000.start, sides.peer1000.first, t.peer)
    await until(sides.ours.start, sides.ours.first, t.oursEmpty)
    await until(sides.peer.start, sides.peer.first, t.peerEmpty)
  }
  const ms = (xs: number[]) =>
    `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`
  const how = `medians of ${STARTS} alternating starts through each bin`
  return [
    {
      name: 'peer: cold start to 1,000 issues answered, emulate time / ours',
      ratio: median(t.peer) / median(t.ours),
      detail: `ours ${ms(t.ours)} (serve --seed with 1,000 issues), emulate ${ms(t.peer)} (start, then 1,000 creations through its API, 8 at a time: it cannot seed issues); ${how}`,
    },
    {
      name: 'peer: start with an empty seed to the first answer, emulate time / ours',
      ratio: median(t.peerEmpty) / median(t.oursEmpty),
      detail: `ours ${ms(t.oursEmpty)} (serve --seed none, GET /api/v4/user), emulate ${ms(t.peerEmpty)} (its built-in seed, GET /user); ${how}`,
    },
  ]
}

/** The four starts of the start rows: how each side starts, and its first answer (after 1,000 creations for emulate's). */
function starts(pkg: string, { seedFile, peerSeed }: Pick<Files, 'seedFile' | 'peerSeed'>) {
  const side = (start: () => Promise<Proc>, first: (p: Proc) => Promise<unknown>) => ({ start, first })
  return {
    ours1000: side(
      () => serveOurs(seedFile),
      (p) => get(`${p.url}${OURS}?per_page=20&state=opened`, oursHeaders),
    ),
    peer1000: side(
      () => serveEmulate(pkg, peerSeed),
      async (p) => {
        await createIssues(p.url, ISSUES)
        await get(`${p.url}${PEER_ISSUES}?per_page=20`, peerHeaders)
      },
    ),
    ours: side(
      () => serveOurs('none'),
      (p) => get(`${p.url}/api/v4/user`, ROOT),
    ),
    peer: side(
      () => serveEmulate(pkg),
      (p) => get(`${p.url}/user`, peerHeaders),
    ),
  }
}

/**
 * Resident memory (VmRSS of the server's process: our bin's only one; emulate's CLI, which serves
 * in its own process without --watch) of the same four starts, each read at the same two moments
 * after its first answer: 0.5 s, and SETTLE_MS (bench/support/first-answer.ts). V8's memory reducer
 * (full collections that also give back the young generation a start grew) runs in ours 8-17 s
 * after the process starts, and never in emulate's in these runs (it keeps finding emulate
 * allocating and waits again), so the first reading is before either side's, the second after
 * ours: both are printed. The four of a round start together and then sit idle, so the wait is
 * spent once a round.
 */
async function memoryRows(pkg: string, files: Files): Promise<Row[]> {
  const sides = starts(pkg, files)
  const names = ['ours1000', 'peer1000', 'ours', 'peer'] as const
  const at = Object.fromEntries(names.map((n) => [n, { first: [] as number[], settled: [] as number[] }]))
  for (let i = 0; i < STARTS; i++)
    await Promise.all(
      names.map(async (name) => {
        const p = await sides[name].start()
        try {
          await sides[name].first(p)
          await sleep(500)
          at[name]!.first.push(rssMb(p.proc.pid as number))
          await sleep(SETTLE_MS - 500)
          at[name]!.settled.push(rssMb(p.proc.pid as number))
        } finally {
          await p.stop()
        }
      }),
    )
  const mb = (xs: number[]) =>
    `${median(xs).toFixed(0)} MB (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`
  const how = `medians of ${STARTS} starts through each bin, the four of a round side by side`
  const row = (label: string, ours: number[], peer: number[], when: string): Row => ({
    name: `peer: ${label}, emulate / ours`,
    ratio: median(peer) / median(ours),
    detail: `ours ${mb(ours)}, emulate ${mb(peer)}; VmRSS ${when}; ${how}`,
  })
  const { ours1000, peer1000, ours, peer } = at as Record<
    (typeof names)[number],
    { first: number[]; settled: number[] }
  >
  const before = "0.5 s after the first answer, before either side's memory reducer ran"
  const after = `${SETTLE_MS / 1000} s after the first answer, after ours ran (emulate's never did)`
  return [
    row('RSS after the start with 1,000 issues', ours1000.first, peer1000.first, before),
    row('RSS after an empty start', ours.first, peer.first, before),
    row('settled RSS after the start with 1,000 issues', ours1000.settled, peer1000.settled, after),
    row('settled RSS after an empty start', ours.settled, peer.settled, after),
  ]
}

/** `WRITES` writes, a creation, an edit and a comment in turn on the issue just created. */
async function writeOurs(url: string): Promise<void> {
  let iid = 0
  for (let i = 0; i < WRITES; i++) {
    const [method, path, body] =
      i % 3 === 0
        ? (['POST', OURS, { title: `Written ${i}`, labels: 'bug' }] as const)
        : i % 3 === 1
          ? (['PUT', `${OURS}/${iid}`, { title: `Edited ${i}`, add_labels: 'docs' }] as const)
          : (['POST', `${OURS}/${iid}/notes`, { body: `Note ${i}` }] as const)
    const res = await request(`${url}${path}`, { method, headers: oursHeaders, body: JSON.stringify(body) })
    const json = (await res.body.json()) as { iid?: number }
    if (res.statusCode >= 300) throw new Error(`ours: ${method} ${path}: ${res.statusCode}`)
    if (i % 3 === 0) iid = json.iid as number
  }
}

/** The same writes to emulate: creation, edit (labels replaced, as GitHub has no add_labels), comment. */
async function writePeer(url: string): Promise<void> {
  let number = 0
  for (let i = 0; i < WRITES; i++) {
    const [method, path, body] =
      i % 3 === 0
        ? (['POST', PEER_ISSUES, { title: `Written ${i}`, labels: ['bug'] }] as const)
        : i % 3 === 1
          ? ([
              'PATCH',
              `${PEER_ISSUES}/${number}`,
              { title: `Edited ${i}`, labels: ['bug', 'docs'] },
            ] as const)
          : (['POST', `${PEER_ISSUES}/${number}/comments`, { body: `Note ${i}` }] as const)
    const res = await request(`${url}${path}`, { method, headers: peerHeaders, body: JSON.stringify(body) })
    const json = (await res.body.json()) as { number?: number }
    if (res.statusCode >= 300) throw new Error(`emulate: ${method} ${path}: ${res.statusCode}`)
    if (i % 3 === 0) number = json.number as number
  }
}

async function resetRows(pkg: string): Promise<Row[]> {
  type Emulator = { url: string; reset(): void | Promise<void>; close(): Promise<void> }
  const { createEmulator } = (await import(pathToFileURL(join(pkg, 'dist/api.js')).href)) as {
    createEmulator(o: Record<string, unknown>): Promise<Emulator>
  }
  const full = await buildServer({ seed: issuesSeed(ISSUES), issuesCreateLimit: 0 })
  const empty = await buildServer({ seed: issuesSeed(0), issuesCreateLimit: 0 })
  const peer = await createEmulator({ service: 'github', port: 0, seed: emulateSeed() })
  try {
    const fullUrl = await full.listen({ host: '127.0.0.1', port: 0 })
    const emptyUrl = await empty.listen({ host: '127.0.0.1', port: 0 })
    const peerUrl = peer.url.replace('localhost', '127.0.0.1')
    // The first reset seeds and takes the snapshot, as a suite's first does; emulate's is taken at start.
    full.reset()
    empty.reset()
    const t = { full: [] as number[], empty: [] as number[], peer: [] as number[] }
    for (let i = 0; i < RESET_ROUNDS; i++) {
      await writeOurs(fullUrl)
      t.full.push(await timed(() => full.reset()))
      await writeOurs(emptyUrl)
      t.empty.push(await timed(() => empty.reset()))
      await writePeer(peerUrl)
      t.peer.push(await timed(() => peer.reset()))
    }
    const ms = (xs: number[]) =>
      `${median(xs).toFixed(2)} ms (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`
    const how = `medians of ${RESET_ROUNDS} alternating rounds, in this process; writes over HTTP, not timed`
    return [
      {
        name: `peer: reset after ${WRITES} writes, emulate time / ours (ours to the 1,000-issue seed)`,
        ratio: median(t.peer) / median(t.full),
        detail: `ours ${ms(t.full)}, emulate ${ms(t.peer)} (to its seed without issues); creations, edits and comments in turn; ${how}`,
      },
      {
        name: `peer: reset after ${WRITES} writes, same work, emulate time / ours (ours from a seed without issues)`,
        ratio: median(t.peer) / median(t.empty),
        detail: `ours ${ms(t.empty)}, emulate ${ms(t.peer)}; ${how}`,
      },
    ]
  } finally {
    await full.close()
    await empty.close()
    await peer.close()
  }
}

export async function run(): Promise<Row[]> {
  const pkg = ensureEmulate()
  const dir = mkdtempSync(join(tmpdir(), 'gla-peer-'))
  try {
    const files = { dir, seedFile: join(dir, 'seed.yaml'), peerSeed: join(dir, 'emulate.yaml') }
    writeFileSync(files.seedFile, stringify(issuesSeed(ISSUES)))
    writeEmulateSeed(files.peerSeed)
    const label = (rows: Row[]) => {
      for (const r of rows) r.detail += `; ${ahead(r.ratio)}; emulate ${EMULATE_VERSION}`
      return rows
    }
    // The load rows last: a failed generator check throws, and the rows measured before it are
    // printed on stderr rather than lost with the row set.
    const rows = label([
      ...(await startRows(pkg, files)),
      ...(await memoryRows(pkg, files)),
      ...(await resetRows(pkg)),
    ])
    try {
      return [...label(await loadRows(pkg, files)), ...rows]
    } catch (err) {
      for (const r of rows) console.error(`${r.name}: ${r.ratio.toFixed(2)}; ${r.detail}`)
      throw err
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
