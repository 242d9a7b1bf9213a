import { connect } from 'node:net'

/**
 * One HTTP/1.1 request on a connection of its own (`Connection: close`, a `Host` naming the port),
 * `extra` written after its headers (a body, a chunked one's framing), to `address`, read from the socket: the
 * head as sent (status line and headers, in order, latin1) and the bytes after it. For tests where
 * header order and framing count.
 */
export function rawExchange(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  extra = '',
  address = '127.0.0.1',
): Promise<{ head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, address)
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const all = Buffer.concat(chunks)
      const end = all.indexOf('\r\n\r\n')
      resolve({ head: all.subarray(0, end).toString('latin1'), body: all.subarray(end + 4) })
    })
    const lines = Object.entries({ host: `127.0.0.1:${port}`, connection: 'close', ...headers })
    socket.write(
      `${method} ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${extra}`,
    )
  })
}
