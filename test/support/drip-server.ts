import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A third-party file host that is alive but nearly stalled: HEAD answers at once as a 1,000-byte
 * gzip archive; any other request gets its answer headers at once, then one body byte every
 * `everyMs` (2 s: the whole file would take over half an hour). `requests` counts what reached it.
 */
export async function dripServer(everyMs = 2000) {
  const timers = new Set<NodeJS.Timeout>()
  let requests = 0
  const server: Server = createServer((req, res) => {
    const headers = { 'content-type': 'application/gzip', 'content-length': '1000' }
    if (req.method === 'HEAD') return res.writeHead(200, headers).end()
    requests++
    req.resume() // an upload's body is taken in, at whatever pace it comes
    res.writeHead(200, headers)
    let sent = 0
    const timer = setInterval(() => {
      res.write(Buffer.from([0x1f]))
      if (++sent === 1000) res.end()
    }, everyMs)
    timers.add(timer)
    res.on('close', () => {
      clearInterval(timer)
      timers.delete(timer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
