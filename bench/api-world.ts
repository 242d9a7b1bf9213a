/*
 * bench/api-world: a world built through the API, as a test suite's fixtures build it: 100 projects
 * with 10 issues each, made with the typed client against a server started with `seed: 'none'`,
 * against the same world given as a seed (`server.seed()`, the fast path), in the same run. The detail
 * also gives the reset after it, which returns to the empty instance (target < 20 ms).
 */
import { createClient } from '../src/api/index.js'
import { startServer } from '../src/server/start/start-server.js'
import { median, timed } from './support/measure.js'

const PROJECTS = 100
const ISSUES = 10
const ROUNDS = 3

/** The same world as a seed: root's projects, each with its issues. */
const seedWorld = () => ({
  projects: Array.from({ length: PROJECTS }, (_, p) => ({
    path: `root/p${p}`,
    issues: Array.from({ length: ISSUES }, (_, i) => ({ title: `Issue ${i}`, author: 'root' })),
  })),
})

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
  const server = await startServer({ seed: 'none', issuesCreateLimit: 0 })
  const client = createClient({ baseUrl: server.url, token: server.token })
  try {
    const api: number[] = []
    const seeded: number[] = []
    const resets: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      api.push(
        await timed(async () => {
          for (let p = 0; p < PROJECTS; p++) {
            const project = await client.projects.create({ name: `p${p}` })
            for (let i = 0; i < ISSUES; i++) await client.issues.create(project.id, { title: `Issue ${i}` })
          }
        }),
      )
      resets.push(await timed(() => server.reset()))
      seeded.push(await timed(() => server.seed(seedWorld())))
      await server.reset()
    }
    return {
      name: `api-world: ${PROJECTS} projects x ${ISSUES} issues through the client / the same world as a seed`,
      ratio: median(api) / median(seeded),
      detail: `through the API ${median(api).toFixed(0)} ms (${((PROJECTS * (ISSUES + 1)) / (median(api) / 1000)).toFixed(0)} requests/s), as a seed ${median(seeded).toFixed(0)} ms, reset after it ${median(resets).toFixed(1)} ms (target < 20 ms; medians of ${ROUNDS})${median(resets) >= 20 ? '; MISSES the 20 ms reset target' : ''}`,
    }
  } finally {
    await client.close()
    await server.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run()
  console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
