/*
 * Runs one HTTP server in its own process so that the load generator does not share its core:
 *   reference <issues>   the reference server seeded with <issues> issues
 *   baseline <file>      a bare node:http server answering every request with the bytes in <file>
 * Prints `READY <url> <seed-ms>` on stdout once listening.
 */
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { buildServer } from '../../src/server/app.js'
import { issuesSeed } from './seeds.js'

const [mode, arg] = process.argv.slice(2)
if (mode === 'reference') {
  const seed = issuesSeed(Number(arg))
  const started = performance.now()
  const server = await buildServer({ seed })
  const seedMs = performance.now() - started
  const url = await server.listen({ host: '127.0.0.1', port: 0 })
  process.stdout.write(`READY ${url} ${seedMs.toFixed(0)}\n`)
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)))
} else if (mode === 'baseline') {
  const recorded = JSON.parse(readFileSync(arg as string, 'utf8')) as {
    headers: Record<string, string>
    body: string
  }
  const body = Buffer.from(recorded.body, 'base64')
  const server = createServer((_req, res) => {
    res.writeHead(200, { ...recorded.headers, 'content-length': body.length })
    res.end(body)
  })
  server.listen(0, '127.0.0.1', () => {
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    process.stdout.write(`READY http://127.0.0.1:${port} 0\n`)
  })
  process.once('SIGTERM', () => server.close(() => process.exit(0)))
} else {
  process.stderr.write('usage: server-child.ts reference <issues> | baseline <file>\n')
  process.exit(2)
}
