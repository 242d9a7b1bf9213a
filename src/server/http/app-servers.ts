import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'

/**
 * The servers Fastify's `listen` added for a name's further addresses (`localhost`: 127.0.0.1 and
 * ::1, Fastify's `multipleBindings`). Fastify makes them with its request handler alone: none of
 * `app.server`'s listeners (its `clientError` handler, the early hits), and names them nowhere
 * public, so they are read from its own record of them (`Symbol(fastify.serverBindings)`); none
 * when a Fastify without that record is used.
 */
export function otherBindings(app: FastifyInstance): Server[] {
  const key = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.serverBindings')
  const bound = key ? (app as unknown as Record<symbol, unknown>)[key] : undefined
  return Array.isArray(bound) ? bound.filter((server): server is Server => server !== app.server) : []
}
