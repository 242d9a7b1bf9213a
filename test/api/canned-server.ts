import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

export interface Canned {
  /** `http://127.0.0.1:PORT` */
  origin: string
  /** Every request the server saw: its URL (path and query) and headers. */
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[]
  close(): Promise<void>
}

/** A tiny node:http server on port 0 that answers with `handler` (canned pages, not GitLab). */
export async function cannedServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<Canned> {
  const seen: Canned['seen'] = []
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handler(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** Sends JSON with GitLab's exact content type. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}
