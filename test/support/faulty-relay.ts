import { connect, createServer, type AddressInfo, type Socket } from 'node:net'

/** What the relay does with one request: pass it on, reset the connection, or answer as a dead upstream would. */
export type Fault = 'forward' | 'reset' | 'bad-gateway'

const BAD_GATEWAY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
const BAD_GATEWAY =
  'HTTP/1.1 502 Bad Gateway\r\nServer: nginx\r\nContent-Type: text/html\r\n' +
  `Content-Length: ${Buffer.byteLength(BAD_GATEWAY_PAGE)}\r\nConnection: close\r\n\r\n${BAD_GATEWAY_PAGE}`

const REQUEST_LINE = /^([A-Z]+ \S+) HTTP\/1\.1\r\n/

/**
 * A TCP relay to the real server at `target`, as a load balancer in front of GitLab: each request
 * (`GET /api/v4/...`, told by its request line at the start of a chunk) is shown to `plan`, which
 * forwards it byte for byte or breaks it: `reset` cuts the connection (the client sees a reset),
 * `bad-gateway` answers nginx's 502 page and closes. Nothing else is interpreted.
 */
export async function faultyRelay(target: string, plan: (request: string) => Fault) {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Socket>()
  const track = (s: Socket) => {
    sockets.add(s)
    s.on('error', () => s.destroy())
    s.on('close', () => sockets.delete(s))
    return s
  }
  const relay = createServer((client) => {
    track(client)
    let upstream: Socket | undefined
    client.on('data', (chunk: Buffer) => {
      const line = REQUEST_LINE.exec(chunk.toString('latin1'))
      const fault = line ? plan(line[1] as string) : 'forward'
      if (fault === 'forward') {
        if (!upstream) {
          upstream = track(connect(Number(port), hostname))
          upstream.pipe(client)
          upstream.on('close', () => client.destroy())
        }
        upstream.write(chunk)
        return
      }
      upstream?.destroy()
      if (fault === 'reset') client.resetAndDestroy()
      else client.end(BAD_GATEWAY)
    })
  })
  await new Promise<void>((done) => relay.listen(0, '127.0.0.1', done))
  const { port: relayPort } = relay.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${relayPort}`,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((done) => relay.close(() => done()))
    },
  }
}

/** A plan that breaks the requests matching `target` with `faults`, in turn, then forwards everything. */
export function breakFirst(target: RegExp, faults: Fault[]) {
  const left = [...faults]
  const seen: string[] = []
  return {
    seen,
    plan: (request: string): Fault => {
      const fault = target.test(request) ? (left.shift() ?? 'forward') : 'forward'
      seen.push(`${request} ${fault}`)
      return fault
    },
  }
}
