/*
 * Run by test/server/routes/cached-answers-memory.test.ts in its own process (arrayBuffersKiBOf,
 * with --expose-gc; its heap untouched by Jest): the reference server answers COUNT different list
 * URLs (each answer kept in the response cache) while request-sized Buffers are made between them,
 * as other requests make them; then all garbage is collected and the memory ArrayBuffers still
 * hold is printed, in KiB.
 */
import { getGlobalDispatcher, request } from 'undici'
import { buildServer } from '../../src/server/start/build-server.js'
import type { Seed } from '../../src/schema/seed.js'

const count = Number(process.argv[2])
const seed = {
  users: [{ username: 'root', token: 'glpat-root-token', admin: true }],
  projects: [
    {
      path: 'root/app',
      issues: Array.from({ length: count }, (_, n) => ({ title: `Issue ${n + 1}`, author: 'root' })),
    },
  ],
} as Seed
const server = await buildServer({ seed })
const url = await server.listen({ host: '127.0.0.1', port: 0 })
let garbage = 0
for (let page = 1; page <= count; page++) {
  const res = await request(`${url}/api/v4/projects/root%2Fapp/issues?per_page=1&page=${page}`, {
    headers: { 'private-token': 'glpat-root-token' },
  })
  if (res.statusCode !== 200) throw new Error(`page ${page}: ${res.statusCode}`)
  await res.body.arrayBuffer()
  for (let i = 0; i < 8; i++) garbage += Buffer.from('x'.repeat(1024 + page)).length
}
// The client's own connections and what they buffer are not the cache: closed first. Two
// collections a turn apart, so that what the first one's callbacks release is counted as freed.
await getGlobalDispatcher().close()
const gc = (globalThis as { gc?: () => void }).gc
gc?.()
await new Promise((done) => setImmediate(done))
gc?.()
process.stdout.write(`${process.memoryUsage().arrayBuffers >> 10} ${garbage}\n`)
await server.close()
