import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a receiver got. */
export interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
  /** The body as it came, for a third party's own parser. */
  raw: string
}

/**
 * A webhook receiver on port 0 (a third party the tests run): it keeps what it gets and answers
 * `status` (changeable) with a short body, or keeps the request unanswered while `state.hold`
 * (until `release()`). `next(n)` resolves once it has `n` requests.
 */
export async function hookReceiver(status = 200) {
  const got: Received[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  const state = { status, hold: false }
  const held: (() => void)[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      got.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(text || '{}'),
        raw: text,
      })
      const answer = () => {
        res.writeHead(state.status, { 'content-type': 'text/plain', 'x-receiver': 'yes' })
        res.end(state.status < 300 ? 'ok' : 'nope')
      }
      if (state.hold) held.push(answer)
      else answer()
      for (const w of waiters.filter((w) => got.length >= w.n)) w.resolve()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    state,
    /** Resolves once `n` requests have come (fails the test after 5 s). */
    next(n: number): Promise<void> {
      if (got.length >= n) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${got.length} of ${n} requests`)), 5000)
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) })
      })
    },
    /** Answers the requests kept while `state.hold` was set. */
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Polls `read` until `check` holds (fails after 5 s): for what a server writes after answering. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() > deadline) throw new Error(`never held: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
