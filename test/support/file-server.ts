import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A third party's web server on port 0: `files` by path, anything else 404; each answer `delayMs` late. */
export async function fileServer(files: Record<string, string>, delayMs = 0) {
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '')
    const text = files[req.url ?? '']
    setTimeout(() => {
      res.writeHead(text === undefined ? 404 : 200, { 'content-type': 'text/plain' })
      res.end(text ?? 'not found')
    }, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
