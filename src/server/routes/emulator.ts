import type { FastifyInstance, FastifyRequest } from 'fastify'
import { parseSeed, SeedError } from '../seed/parse.js'
import { forbidden, messageError, unauthorized } from '../grape/gitlab-errors.js'
import type { Seed } from '../../schema/seed.js'
import type { EmulatorService } from '../services/emulator.js'
import type { ApiContext } from './context.js'
import type { Actor } from '../services/access.js'
import { readCookie } from '../http/cookies.js'
import { SESSION_COOKIE } from '../services/page-sessions.js'

/** The emulator's controls are for administrators: 401 without a token, 403 for others. */
export const requireAdmin = (actor: Actor) => {
  if (!actor.user) throw unauthorized()
  if (!actor.admin) throw forbidden()
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i
/** `name=value` pairs joined by `&`, no spaces or line breaks: a form, not a YAML document. */
const FORM_BODY = /^[\w.%+\-[\]]+=[^&\s]*(&[\w.%+\-[\]]+=[^&\s]*)*$/

/**
 * The CSRF token of a form post from the emulator page (an `authenticity_token` field, as Rails
 * names it); undefined for any other request, which authenticates with a token as before.
 */
function pageForm(req: FastifyRequest): unknown {
  if (!FORM_TYPE.test(req.headers['content-type'] ?? '') || typeof req.body !== 'object' || req.body === null)
    return undefined
  return (req.body as Record<string, unknown>).authenticity_token
}

/**
 * The seed body's text. `application/json`, `application/yaml`, `application/x-yaml`, `text/yaml`
 * and `text/plain` bodies are the seed itself (YAML 1.2 reads JSON too); so is a form-encoded one
 * that is not a form (`curl --data-binary @seed.yaml` sends YAML as
 * `application/x-www-form-urlencoded`). A real form has no seed in it: 400.
 */
function seedText(req: FastifyRequest): string {
  if (typeof req.body !== 'string') return JSON.stringify(req.body ?? {})
  if (FORM_TYPE.test(req.headers['content-type'] ?? '') && FORM_BODY.test(req.body.trim()))
    throw messageError(
      400,
      'request body: a form is no seed; send YAML or JSON (Content-Type: application/yaml)',
    )
  return req.body
}

const FLATTENED_HINT =
  'the body has no line breaks: send the file as it is (curl --data-binary @seed.yaml), not with curl -d, which drops them'

/**
 * A YAML body of one line that does not parse, or that is all comment, was most likely a file sent
 * with `curl -d @seed.yaml`, which drops the line breaks YAML needs: the error says how to send it.
 */
function flattened(req: FastifyRequest): boolean {
  return typeof req.body === 'string' && !req.body.includes('\n')
}

/**
 * Controls GitLab has no equivalent for, administrators only: `POST /-/emulator/reset` back to
 * the start-up seed, `POST /-/emulator/seed` to add more to what exists (src/server/seed/rules.ts
 * `ExistingRecords`: users, groups and projects that exist count as listed).
 */
export function emulatorRoutes(api: ApiContext, controls: EmulatorService) {
  api.app.post('/-/emulator/reset', async (req, reply) => {
    const page = pageForm(req)
    if (page !== undefined) {
      // The emulator page's form (src/server/pages/emulator/reset.ts): its session, with the CSRF token.
      const cookie = readCookie(req.headers.cookie, SESSION_COOKIE)
      if (!api.services.pageSessions.csrfMatches(cookie, page))
        throw messageError(422, '422 Unprocessable Entity')
      requireAdmin(api.services.pageSessions.visitor(cookie).actor)
      controls.reset()
      return reply.code(303).header('location', '/-/emulator?reset=done').send()
    }
    requireAdmin(req.actor)
    controls.reset()
    return reply.code(200).send({ message: 'reset' })
  })
}

/**
 * `POST /-/emulator/seed`, on a scope whose form-encoded bodies reach the route as text (the API
 * parses forms; http/body-parsers.ts `scopedBodyParsers`).
 */
export function emulatorSeedRoutes(scope: FastifyInstance, controls: EmulatorService) {
  scope.post('/-/emulator/seed', async (req, reply) => {
    requireAdmin(req.actor)
    const text = seedText(req)
    if (flattened(req) && /^\s*#/.test(text))
      throw messageError(400, `request body: one comment line, no seed (${FLATTENED_HINT})`)
    let seed: Seed
    try {
      seed = parseSeed(text, 'request body', controls.existing())
    } catch (err) {
      if (!(err instanceof SeedError)) throw messageError(400, String(err))
      // A syntax error names a line and column; a body that is no mapping at all names no key.
      const syntax = err.where === '' || err.where.startsWith('line ')
      const hint = flattened(req) && syntax ? ` (${FLATTENED_HINT})` : ''
      throw messageError(err.conflict ? 409 : 400, err.message + hint)
    }
    controls.seed(seed)
    return reply.code(201).send({ message: 'seeded' })
  })
}
