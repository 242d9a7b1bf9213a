/*
 * bench/reset: `reset()` of a server seeded with examples/seed.yaml (what a test suite calls before
 * every test), against building a fresh in-memory server with the same seed, in the same run. The
 * detail also gives the first reset, which seeds again and takes the snapshot later resets copy back.
 * Target: a reset under 20 ms.
 */
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { buildServer } from '../src/server/app.js'
import { loadSeedFile } from '../src/server/seed/parse.js'
import { inspectDb } from '../src/server/store/inspect.js'

const seedFile = fileURLToPath(new URL('../examples/seed.yaml', import.meta.url))
const ROUNDS = 50

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

async function timed(fn: () => unknown): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
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
      detail: `reset ${median(resets).toFixed(1)} ms, first reset (seeds, takes the snapshot) ${first.toFixed(1)} ms, fresh server ${median(fresh).toFixed(1)} ms (medians of ${ROUNDS})`,
    }
  } finally {
    await server.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run()
  console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
