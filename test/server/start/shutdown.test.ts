/*
 * Closing the server while a streamed answer is still being written on a keep-alive connection:
 * close waits for that answer, then the connection goes. Node's idle sweep, which Fastify runs once
 * as close begins, skips a connection whose answer has not ended; without another sweep the
 * connection stayed until Node's header timeout check (60-90 s), and `serve` took that long to stop.
 */
import { connect } from 'node:net'
import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { buildServer } from '../../../src/server/start/build-server.js'
import { startServer } from '../../../src/server/start/start-server.js'

it('close waits for a streamed answer in flight, then closes its keep-alive connection', async () => {
  const server = await buildServer({})
  const body = new PassThrough()
  server.app.get('/-/test/streamed', (_req, reply) => reply.type('text/plain').send(body))
  const url = new URL(await server.listen({ host: '127.0.0.1', port: 0 }))
  const socket = connect(Number(url.port), url.hostname)
  await once(socket, 'connect')
  let received = ''
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
  socket.write('GET /-/test/streamed HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
  body.write('first part ')
  while (!received.includes('first part')) await once(socket, 'data')

  const closed = server.close()
  body.end('last part')
  const [ended] = await Promise.all([once(socket, 'close').then(() => true), closed])
  expect(ended).toBe(true)
  expect(received).toMatch(/^HTTP\/1\.1 200 /)
  expect(received).toContain('last part')
}, 10_000)

it('close cuts an answer still being sent once its grace is over (a client that stopped reading)', async () => {
  const server = await buildServer({ closeGraceMs: 300 })
  const body = new PassThrough()
  server.app.get('/-/test/streamed', (_req, reply) => reply.type('text/plain').send(body))
  const url = new URL(await server.listen({ host: '127.0.0.1', port: 0 }))
  const socket = connect(Number(url.port), url.hostname)
  await once(socket, 'connect')
  let received = ''
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
  socket.write('GET /-/test/streamed HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
  body.write('first part ')
  while (!received.includes('first part')) await once(socket, 'data')

  // The answer never ends: without the grace, close waited for it for ever.
  const began = Date.now()
  const [ended] = await Promise.all([once(socket, 'close').then(() => true), server.close()])
  expect(ended).toBe(true)
  expect(Date.now() - began).toBeGreaterThanOrEqual(250)
  expect(received).toMatch(/^HTTP\/1\.1 200 /)
  expect(received).not.toContain('last part')
}, 10_000)

it('startServer takes closeGraceMs: close() cuts a streamed download whose client stopped reading', async () => {
  // An uncompressed archive larger than the loopback's socket buffers: it cannot end unread.
  const gitlab = await startServer({
    seed: {
      users: [{ username: 'root', admin: true, token: 'glpat-root-token' }],
      groups: [{ path: 'acme', visibility: 'public' }],
      projects: [{ path: 'acme/widgets', visibility: 'public', files: { 'big.txt': 'x'.repeat(24 << 20) } }],
    },
    closeGraceMs: 300,
  })
  const url = new URL(gitlab.url)
  const socket = connect(Number(url.port), url.hostname)
  await once(socket, 'connect')
  const answered = once(socket, 'data')
  socket.write(
    'GET /api/v4/projects/acme%2Fwidgets/repository/archive.tar?sha=main HTTP/1.1\r\n' +
      'Host: localhost\r\nConnection: keep-alive\r\n\r\n',
  )
  const [head] = (await answered) as [Buffer]
  socket.pause()
  expect(head.toString()).toMatch(/^HTTP\/1\.1 200 /)

  // Without the option close() waits the default 5 s for the answer.
  const began = Date.now()
  await gitlab.close()
  const took = Date.now() - began
  socket.destroy()
  expect(took).toBeGreaterThanOrEqual(250)
  expect(took).toBeLessThan(3_000)
}, 30_000)
