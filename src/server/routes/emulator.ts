import { parseSeed } from '../seed/parse.js'
import { forbidden, messageError, unauthorized } from '../gitlab-errors.js'
import type { Seed } from '../../schema/seed.js'
import type { ApiContext } from './context.js'
import type { Actor } from '../services/access.js'

export interface EmulatorControls {
  reset(): void
  seed(more: Seed): void
}

const requireAdmin = (actor: Actor) => {
  if (!actor.user) throw unauthorized()
  if (!actor.admin) throw forbidden()
}

/**
 * Controls GitLab has no equivalent for, administrators only:
 * `POST /-/emulator/reset` back to the start-up seed, `POST /-/emulator/seed` to load more.
 */
export function emulatorRoutes(api: ApiContext, controls: EmulatorControls) {
  const { app } = api
  app.post('/-/emulator/reset', async (req, reply) => {
    requireAdmin(req.actor)
    controls.reset()
    return reply.code(200).send({ message: 'reset' })
  })
  app.post('/-/emulator/seed', async (req, reply) => {
    requireAdmin(req.actor)
    const text = typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? {})
    let seed: Seed
    try {
      seed = parseSeed(text, 'request body')
    } catch (err) {
      throw messageError(400, err instanceof Error ? err.message : String(err))
    }
    controls.seed(seed)
    return reply.code(201).send({ message: 'seeded' })
  })
}
