import type { FastifyRequest } from 'fastify'
import { FaultRuleError } from '../domain/fault-rules.js'
import type { Instruments } from '../domain/instruments.js'
import { requestFilter } from '../domain/request-filter.js'
import { messageError } from '../grape/gitlab-errors.js'
import { pathInteger } from '../grape/params.js'
import { presentRequest } from '../present/emulator-requests.js'
import type { ApiContext } from './context.js'
import { requireAdmin } from './emulator.js'

/**
 * The request log and the faults, administrators only (ours; GitLab has none; the contract is
 * docs/server.md's "Request log" and "Faults"):
 * - `GET /-/emulator/requests`: the requests kept, oldest first, filtered, at most `limit`; when
 *   more match, `X-Next-Since-Id` and a `Link` `rel="next"` name the next page. `DELETE` empties it.
 * - `POST /-/emulator/faults` (one rule or a list, all or none: 201 with what was added), `GET`
 *   (the rules with their counts), `DELETE` (all), `DELETE /-/emulator/faults/:id` (one; 404).
 */
export function emulatorInstrumentRoutes(api: ApiContext, { requests, faults }: Instruments) {
  const { app, instance } = api
  app.get('/-/emulator/requests', async (req, reply) => {
    requireAdmin(req.actor)
    const filter = requestFilter(req.query)
    const { entries, more } = requests.find(filter)
    const last = entries.at(-1)
    if (more && last) {
      const next = new URLSearchParams(req.url.split('?')[1] ?? '')
      next.set('since_id', String(last.id))
      reply.header('x-next-since-id', String(last.id))
      reply.header('link', `<${instance.baseUrl}/-/emulator/requests?${next}>; rel="next"`)
    }
    return entries.map(presentRequest)
  })
  app.delete('/-/emulator/requests', async (req, reply) => {
    requireAdmin(req.actor)
    requests.clear()
    return reply.code(204).send()
  })

  app.post('/-/emulator/faults', async (req, reply) => {
    requireAdmin(req.actor)
    const body = req.body
    const added = kept(() => faults.add(Array.isArray(body) ? body : [body]))
    return reply.code(201).send(Array.isArray(body) ? added : added[0])
  })
  app.get('/-/emulator/faults', async (req) => {
    requireAdmin(req.actor)
    return faults.list()
  })
  app.delete('/-/emulator/faults', async (req, reply) => {
    requireAdmin(req.actor)
    faults.clear()
    return reply.code(204).send()
  })
  app.delete('/-/emulator/faults/:fault_id', async (req: FastifyRequest, reply) => {
    requireAdmin(req.actor)
    const id = pathInteger((req.params as Record<string, string>).fault_id, 'fault_id')
    if (!faults.remove(id)) throw messageError(404, '404 Fault Not Found')
    return reply.code(204).send()
  })
}

/** A rule that cannot be kept is the caller's mistake: 400 with what is wrong, nothing added. */
function kept<T>(add: () => T): T {
  try {
    return add()
  } catch (err) {
    if (err instanceof FaultRuleError) throw messageError(400, err.message)
    throw err
  }
}
