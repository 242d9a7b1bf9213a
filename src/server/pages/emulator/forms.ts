import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { FaultRuleError } from '../../domain/fault-rules.js'
import type { Instruments } from '../../domain/instruments.js'
import { forbidden, messageError } from '../../grape/gitlab-errors.js'
import { pathInteger } from '../../grape/params.js'
import type { Instance } from '../../present/context.js'
import type { Services } from '../../services/index.js'
import { pageContext, sendPage, sessionCookie } from '../respond.js'
import { emulatorPage } from './page.js'

/** A form's own fields, not a rule's. */
const FORM_FIELDS = new Set(['authenticity_token'])

const formOf = (req: FastifyRequest): Record<string, unknown> =>
  typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {}

/**
 * The forms of the emulator page's request log and faults sections (request-log.ts, faults.ts):
 * same-origin posts that carry the session's CSRF token, refused as the reset form is
 * (routes/emulator.ts: 422 without the token, a post from another site knows none and the
 * browser guard refuses it first; 403 for a session that is not an administrator's). Each does
 * what its JSON route does (`DELETE /-/emulator/requests`, `POST`/`DELETE /-/emulator/faults`,
 * `DELETE /-/emulator/faults/:id`), then 303 back to its section:
 * - `POST /-/emulator/requests/clear`
 * - `POST /-/emulator/faults/add`: the add form's fields, empty ones dropped, checked as the JSON
 *   route checks a rule (`FaultRules.add`); a bad rule is the page again, 400, with its error and
 *   the values posted, nothing added.
 * - `POST /-/emulator/faults/:fault_id/remove`, `POST /-/emulator/faults/clear`
 */
export function emulatorFormRoutes(
  app: FastifyInstance,
  instance: Instance,
  services: Services,
  instruments: Instruments,
) {
  const sessions = services.pageSessions
  /** Runs `act` for an administrator's form with its CSRF token, then sends the visitor back to `to`. */
  const form =
    (act: (req: FastifyRequest, reply: FastifyReply) => string | FastifyReply) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const cookie = sessionCookie(req)
      if (!sessions.csrfMatches(cookie, formOf(req).authenticity_token))
        throw messageError(422, '422 Unprocessable Entity')
      if (!sessions.visitor(cookie).actor.admin) throw forbidden()
      const to = act(req, reply)
      return typeof to === 'string' ? reply.code(303).header('location', to).send() : to
    }

  app.post(
    '/-/emulator/requests/clear',
    form(() => {
      instruments.requests.clear()
      return '/-/emulator?requests=cleared#requests'
    }),
  )
  app.post(
    '/-/emulator/faults/add',
    form((req, reply) => {
      const values = formOf(req)
      const rule = Object.fromEntries(
        Object.entries(values).filter(([key, value]) => !FORM_FIELDS.has(key) && value !== ''),
      )
      try {
        instruments.faults.add([rule])
      } catch (err) {
        if (!(err instanceof FaultRuleError)) throw err
        const ctx = pageContext(req, instance, sessions)
        const refused = { section: 'faults', values, error: err.message }
        return sendPage(reply, 400, emulatorPage({ ctx, services, instruments, query: {}, refused }))
      }
      return '/-/emulator?faults=added#faults'
    }),
  )
  app.post(
    '/-/emulator/faults/clear',
    form(() => {
      instruments.faults.clear()
      return '/-/emulator?faults=cleared#faults'
    }),
  )
  app.post(
    '/-/emulator/faults/:fault_id/remove',
    form((req) => {
      // Gone already (a second click, another tab): the list shows it is.
      instruments.faults.remove(pathInteger((req.params as { fault_id: string }).fault_id, 'fault_id'))
      return '/-/emulator?faults=removed#faults'
    }),
  )
}
