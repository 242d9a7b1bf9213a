/*
 * Runs one HTTP server in its own process so that the load generator does not share its core:
 *   reference <issues> [open] [log-off]  the reference server seeded with <issues> issues (`open`: no
 *                              issue-creation rate limit, for loads that create issues; `log-off`:
 *                              no request log, to measure what the log costs)
 *   seed-data <dir> <issues>   seeds a persistent store in <dir>, closes it and exits (no READY)
 *   baseline <file>            a bare node:http server answering every request with the bytes in <file>
 *   baseline-multi <file>      a bare node:http server answering each request with the first
 *                              recorded answer whose method and path pattern match it
 * Prints `READY <url> <seed-ms>` on stdout once listening. With BENCH_RESET_FIRST the reference
 * server resets once before listening (the undo log's triggers then run on every write).
 */
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { buildServer } from '../../src/server/start/build-server.js'
import { issuesSeed } from './seeds.js'

/** One recorded answer of `baseline-multi`. */
export interface RecordedAnswer {
  method: string
  pattern: string
  status: number
  headers: Record<string, string>
  body: string
}

const [mode, arg, extra] = process.argv.slice(2)
if (mode === 'reference') {
  const flags = process.argv.slice(4)
  const seed = issuesSeed(Number(arg))
  const started = performance.now()
  const server = await buildServer({
    seed,
    ...(flags.includes('open') ? { issuesCreateLimit: 0 } : {}),
    ...(flags.includes('log-off') ? { requestLog: { size: 0 } } : {}),
  })
  const seedMs = performance.now() - started
  // BENCH_RESET_FIRST: reset once, as a suite does, so writes run with the reset's undo log in place.
  if (process.env.BENCH_RESET_FIRST) server.reset()
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
} else if (mode === 'seed-data') {
  const server = await buildServer({ data: arg as string, seed: issuesSeed(Number(extra)) })
  await server.close()
} else if (mode === 'baseline-multi') {
  const answers = (JSON.parse(readFileSync(arg as string, 'utf8')) as RecordedAnswer[]).map((a) => ({
    ...a,
    regex: new RegExp(a.pattern),
    bytes: Buffer.from(a.body, 'base64'),
  }))
  const server = createServer((req, res) => {
    req.resume()
    const a = answers.find((x) => x.method === req.method && x.regex.test(req.url ?? '')) ?? answers[0]
    if (!a) return void res.writeHead(500).end()
    res.writeHead(a.status, { ...a.headers, 'content-length': a.bytes.length })
    res.end(a.bytes)
  })
  server.listen(0, '127.0.0.1', () => {
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    process.stdout.write(`READY http://127.0.0.1:${port} 0\n`)
  })
  process.once('SIGTERM', () => server.close(() => process.exit(0)))
} else {
  process.stderr.write(
    'usage: server-child.ts reference <issues> [open] | seed-data <dir> <issues> | baseline <file> | baseline-multi <file>\n',
  )
  process.exit(2)
}
