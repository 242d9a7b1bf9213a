import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'

/*
 * GitLab answers HEAD on every GET route (Grape adds a HEAD route for each GET unless an API calls
 * `do_not_route_head!`, which GitLab's `lib/api/api.rb` does not). Fastify's `exposeHeadRoutes`
 * does so with a second route per GET route, each with its own context and find-my-way nodes:
 * about 7 ms of serve's start-up (routes and `listen`). Instead a HEAD request is routed as its GET.
 * The answer is the one Fastify's HEAD routes gave (test/server/head-requests.test.ts): Node sends
 * no body for a HEAD request, as it decided when the request arrived, and Fastify's length of the
 * body it would have sent stays.
 */

const headRequests = new WeakSet<IncomingMessage>()

/** Fastify's `rewriteUrl`, its one hook before routing: a HEAD request goes on as GET. */
export function routeHeadAsGet(req: IncomingMessage): string {
  if (req.method === 'HEAD') {
    req.method = 'GET'
    headRequests.add(req)
  }
  return req.url as string
}

/** The method the client sent: HEAD for a HEAD request routed as GET. */
export const requestMethod = (req: FastifyRequest): string =>
  headRequests.has(req.raw) ? 'HEAD' : req.method

/**
 * The body of a streamed answer (a file): `body` for GET. For HEAD, Node sends no body and would drop
 * every byte read, so `body` is closed unread and an empty stream answers in its place; the headers
 * set before (the file's length among them) stay.
 */
export function streamedBody(req: FastifyRequest, body: Readable): Readable {
  if (!headRequests.has(req.raw)) return body
  body.destroy()
  return Readable.from([])
}
