import type { Socket } from 'node:net'

const BAD_REQUEST =
  'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nConnection: close\r\n\r\nBad Request'

/**
 * A request Node's HTTP parser refuses before any route sees it: a NUL or other forbidden byte in a
 * header (the credentials among them), a broken request line. GitLab refuses bad bytes in the
 * credentials with `400`, `text/plain`, `Bad Request` (lib/gitlab/middleware/handle_malformed_strings.rb),
 * so the parser's refusals get those very bytes rather than Fastify's JSON body. A timeout stays 408
 * and an oversized head 431, as Node words them.
 */
export function clientErrors(error: Error & { code?: string }, socket: Socket): void {
  // Once an answer has begun on this socket, nothing more can be said on it.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (!socket.writable || inFlight?.headersSent) return void socket.destroy()
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'HPE_HEADER_OVERFLOW') {
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '408 Request Timeout'
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    return
  }
  socket.end(BAD_REQUEST)
}
