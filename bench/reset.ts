/*
 * bench/reset: `reset()` (what a test suite calls before every test), in the same run as its baselines.
 * An in-memory server (the default) resets by rolling back the transaction it holds from its
 * snapshot; one with a data directory by its undo log (src/server/store/snapshot.ts).
 * - examples/seed.yaml: reset after one write to every issue, against building a fresh in-memory
 *   server with the same seed. Target: under 20 ms.
 * - The 1,000-issue seed (bench/support/seeds.ts), after 100 and after 10,000 writes through the
 *   API (issue creations, edits and notes in turn, issue-creation rate limit off): the reset against
 *   the full copy-back of every table (the log bound set to 0), alternating; in memory, and after
 *   100 writes with a data directory too. Targets: under 1 ms after 100 writes, under 20 ms after 10,000.
 * - A world built through the API on a seed of one administrator (100 projects, 10 issues each, a
 *   member and an access token per project): the reset against the full copy-back, alternating.
 *   Target: under 20 ms.
 * - Each reset's CPU time is printed beside its wall time: on a machine shared with other work the
 *   wall time of a 1 ms call also holds the time it waited for a core.
 * - Writes after the first reset (in memory inside the held transaction; with a data directory
 *   with the undo log's triggers) against the same writes before it: what resets cost a write.
 * - With BENCH_BEFORE_DIR (bench/support/measure.ts): the data directory's reset after 100 writes
 *   of this build against that build's, both servers in this process (the other one loaded from
 *   its checkout's sources through tsx), alternating round by round.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import { buildServer, type GitLabServer } from '../src/server/start/build-server.js'
import { loadSeedFile, parseSeed } from '../src/server/seed/parse.js'
import { inspectDb } from '../src/server/store/inspect.js'
import { UNDO_LOG_BOUND } from '../src/server/store/snapshot.js'
import { issuesSeed } from './support/seeds.js'
import { beforeBuild, type OtherBuild } from './support/measure.js'

const seedFile = fileURLToPath(new URL('../examples/seed.yaml', import.meta.url))
const ROUNDS = 50

type Row = { name: string; ratio: number; detail: string }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

async function timed(fn: () => unknown): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

/**
 * The process's CPU time in ms (user and system) taken by a synchronous `fn`: on a machine shared
 * with other work, the wall time of a 1 ms call also holds the time it waited for a core.
 */
function cpuTimed(fn: () => unknown): number {
  const started = process.cpuUsage()
  fn()
  const { user, system } = process.cpuUsage(started)
  return (user + system) / 1000
}

async function examplesRow(): Promise<Row> {
  const seed = await loadSeedFile(seedFile)
  const fresh: number[] = []
  for (let i = 0; i < ROUNDS; i++) fresh.push(await timed(async () => (await buildServer({ seed })).close()))
  const server = await buildServer({ seed })
  try {
    const first = await timed(() => server.reset())
    const change = inspectDb(server.store).prepare("UPDATE issues SET title = 'changed by a test'")
    const resets: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      change.run()
      resets.push(await timed(() => server.reset()))
    }
    return {
      name: 'reset: reset() of examples/seed.yaml / a fresh in-memory server with it (target < 20 ms)',
      ratio: median(resets) / median(fresh),
      detail: `reset ${median(resets).toFixed(3)} ms, first reset (seeds, takes the snapshot) ${first.toFixed(1)} ms, fresh server ${median(fresh).toFixed(1)} ms (medians of ${ROUNDS})`,
    }
  } finally {
    await server.close()
  }
}

const P = '/api/v4/projects/bench%2Fissues/issues'
const headers = { 'private-token': 'glpat-alice-token', 'content-type': 'application/json' }

/** `count` writes through the API: a creation, an edit and a note in turn, on issues of the seed. */
async function write(server: GitLabServer, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const iid = 1 + ((i * 7919) % 1000)
    const [method, url, body] =
      i % 3 === 0
        ? (['POST', P, { title: `Written ${i}`, labels: 'bug' }] as const)
        : i % 3 === 1
          ? (['PUT', `${P}/${iid}`, { title: `Edited ${i}`, add_labels: 'docs' }] as const)
          : (['POST', `${P}/${iid}/notes`, { body: `Note ${i}` }] as const)
    const res = await server.app.inject({ method, url, headers, payload: JSON.stringify(body) })
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  }
}

/** How a server's reset goes: the held transaction rolled back in memory, the undo log with a data directory. */
const how = (server: GitLabServer) =>
  server.store.snapshot.rollsBack ? 'rollback of the held transaction' : 'undo log'

/** Resets after `writes` writes, the server's way and the full copy-back's in turn. */
async function afterWrites(server: GitLabServer, writes: number, rounds: number, where = ''): Promise<Row> {
  const undo: number[] = []
  const full: number[] = []
  const cpu = { undo: [] as number[], full: [] as number[] }
  for (let i = 0; i < rounds; i++) {
    for (const [bound, times, cpuTimes] of [
      [UNDO_LOG_BOUND, undo, cpu.undo],
      [0, full, cpu.full],
    ] as const) {
      server.store.snapshot.setLogBound(bound)
      await write(server, writes)
      times.push(await timed(() => server.reset()))
      await write(server, writes)
      cpuTimes.push(cpuTimed(() => server.reset()))
    }
  }
  server.store.snapshot.setLogBound(UNDO_LOG_BOUND)
  const target = writes <= 100 ? 1 : 20
  const way = how(server)
  return {
    name: `reset: after ${writes.toLocaleString('en')} API writes on the 1,000-issue seed${where}, ${way} / full copy-back (target < ${target} ms)`,
    ratio: median(undo) / median(full),
    detail: `${way} ${median(undo).toFixed(2)} ms (${Math.min(...undo).toFixed(2)}-${Math.max(...undo).toFixed(2)}; CPU ${median(cpu.undo).toFixed(2)} ms), full copy-back ${median(full).toFixed(2)} ms (CPU ${median(cpu.full).toFixed(2)} ms) (medians of ${rounds}, alternating)`,
  }
}

const ROOT = { 'private-token': 'glpat-root-token', 'content-type': 'application/json' }

/** 100 projects, each with 10 issues, a member and an access token, through the API as root. */
async function buildWorld(server: GitLabServer): Promise<void> {
  const post = async (url: string, body: unknown) => {
    const res = await server.app.inject({ method: 'POST', url, headers: ROOT, payload: JSON.stringify(body) })
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body) as { id: number }
  }
  for (let p = 0; p < 100; p++) {
    const { id } = await post('/api/v4/projects', { name: `world-${p}` })
    await post(`/api/v4/projects/${id}/members`, { user_id: 2, access_level: 30 })
    await post(`/api/v4/projects/${id}/access_tokens`, { name: 'bot', scopes: ['api'], access_level: 30 })
    for (let i = 0; i < 10; i++) await post(`/api/v4/projects/${id}/issues`, { title: `Issue ${i}` })
  }
}

/** The reset after an API-built world, the server's way and the full copy-back's in turn. */
async function apiWorldRow(rounds: number): Promise<Row> {
  const seed = {
    users: [
      { username: 'root', admin: true, token: 'glpat-root-token' },
      { username: 'member', token: 'glpat-member-token' },
    ],
  }
  const server = await buildServer({
    seed: parseSeed(JSON.stringify(seed), 'world.json'),
    issuesCreateLimit: 0,
  })
  const sides = {
    undo: [] as number[],
    full: [] as number[],
    undoCpu: [] as number[],
    fullCpu: [] as number[],
  }
  let way = ''
  try {
    server.reset()
    way = how(server)
    for (let i = 0; i < rounds; i++) {
      for (const side of ['undo', 'full'] as const) {
        server.store.snapshot.setLogBound(side === 'undo' ? UNDO_LOG_BOUND : 0)
        await buildWorld(server)
        sides[side].push(await timed(() => server.reset()))
        await buildWorld(server)
        sides[`${side}Cpu`].push(cpuTimed(() => server.reset()))
      }
    }
  } finally {
    await server.close()
  }
  return {
    name: `reset: after an API-built world (100 projects x 10 issues, members, tokens), ${way} / full copy-back (target < 20 ms)`,
    ratio: median(sides.undo) / median(sides.full),
    detail: `${way} ${median(sides.undo).toFixed(2)} ms (CPU ${median(sides.undoCpu).toFixed(2)} ms), full copy-back ${median(sides.full).toFixed(2)} ms (CPU ${median(sides.fullCpu).toFixed(2)} ms) (medians of ${rounds}, alternating)`,
  }
}

/**
 * Writes per second before the first reset and after it: in memory inside the held transaction,
 * with a data directory (`data`, a fresh one per server) with the undo log's triggers.
 */
async function writeCost(withData: boolean): Promise<Row> {
  const rates = { before: [] as number[], after: [] as number[] }
  let way = ''
  for (let round = 0; round < 3; round++) {
    const data = withData ? mkdtempSync(join(tmpdir(), 'bench-reset-')) : undefined
    const server = await buildServer({ seed: issuesSeed(1000), issuesCreateLimit: 0, data })
    try {
      await write(server, 300) // warm-up: statements prepared, JIT settled
      rates.before.push(3000 / ((await timed(() => write(server, 3000))) / 1000))
      server.reset()
      way = how(server)
      await write(server, 300)
      rates.after.push(3000 / ((await timed(() => write(server, 3000))) / 1000))
    } finally {
      await server.close()
      if (data) rmSync(data, { recursive: true, force: true })
    }
  }
  return {
    name: `reset: API writes per second after the first reset (${withData ? 'a data directory, its undo log' : 'in memory, the held transaction'}) / before it`,
    ratio: median(rates.after) / median(rates.before),
    detail: `${median(rates.after).toFixed(0)} / ${median(rates.before).toFixed(0)} writes/s, ${way} after (creations, edits, notes in turn through app.inject; medians of 3 servers)`,
  }
}

/** The 100-write row with a data directory: its undo log against the full copy-back. */
async function withDataRow(): Promise<Row> {
  const data = mkdtempSync(join(tmpdir(), 'bench-reset-'))
  const server = await buildServer({ seed: issuesSeed(1000), issuesCreateLimit: 0, data })
  try {
    server.reset()
    return await afterWrites(server, 100, 30, ' with a data directory')
  } finally {
    await server.close()
    rmSync(data, { recursive: true, force: true })
  }
}

/**
 * The 100-write reset with a data directory, this build's against `other`'s: a server of each on
 * the 1,000-issue seed in this process, reset after the same writes, in turn (first side
 * swapped each round): wall and CPU time per reset.
 */
async function withDataBeforeRow(other: OtherBuild, rounds: number): Promise<Row> {
  const load = async (dir: string | undefined) => {
    const from = (path: string) => import(pathToFileURL(join(dir!, path)).href)
    const build = dir
      ? ((await from('src/server/start/build-server.ts')) as { buildServer: typeof buildServer }).buildServer
      : buildServer
    const seed = dir
      ? ((await from('bench/support/seeds.ts')) as { issuesSeed: typeof issuesSeed }).issuesSeed
      : issuesSeed
    const data = mkdtempSync(join(tmpdir(), 'bench-reset-'))
    const server = await build({ seed: seed(1000), issuesCreateLimit: 0, data })
    server.reset()
    return { server, data, wall: [] as number[], cpu: [] as number[] }
  }
  const sides = [await load(undefined), await load(other.dir)]
  try {
    for (let i = 0; i < rounds; i++)
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
        await write(side.server, 100)
        const started = performance.now()
        side.cpu.push(cpuTimed(() => side.server.reset()))
        side.wall.push(performance.now() - started)
      }
  } finally {
    for (const { server, data } of sides) {
      await server.close()
      rmSync(data, { recursive: true, force: true })
    }
  }
  const [ours, before] = sides as [(typeof sides)[0], (typeof sides)[0]]
  const figures = (side: typeof ours) =>
    `${median(side.wall).toFixed(2)} ms (${Math.min(...side.wall).toFixed(2)}-${Math.max(...side.wall).toFixed(2)}; CPU ${median(side.cpu).toFixed(2)} ms)`
  return {
    name: 'reset: after 100 API writes on the 1,000-issue seed with a data directory, this build / BENCH_BEFORE_DIR, CPU',
    ratio: median(ours.cpu) / median(before.cpu),
    detail: `this build ${figures(ours)}, before (${other.label}) ${figures(before)} (medians of ${rounds}, alternating in one process)`,
  }
}

export async function run(): Promise<Row[]> {
  const rows = [await examplesRow()]
  const server = await buildServer({ seed: issuesSeed(1000), issuesCreateLimit: 0 })
  try {
    server.reset()
    rows.push(await afterWrites(server, 100, 30))
    rows.push(await afterWrites(server, 10_000, 3))
  } finally {
    await server.close()
  }
  rows.push(await withDataRow())
  const other = beforeBuild()
  if (other) rows.push(await withDataBeforeRow(other, 60))
  rows.push(await apiWorldRow(3))
  rows.push(await writeCost(false))
  rows.push(await writeCost(true))
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
