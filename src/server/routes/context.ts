import type { FastifyInstance } from 'fastify'
import type { Instance } from '../present/context.js'
import type { Access } from '../services/access.js'
import type { ServiceContext } from '../services/context.js'
import type { Services } from '../compose.js'
import type { RouteTable } from './define.js'

/**
 * What route modules get: `route(spec, handler)` to declare their routes with, the app for hooks and
 * routes served by hand, and the services.
 */
export interface ApiContext {
  app: FastifyInstance
  route: RouteTable
  instance: Instance
  access: Access
  ctx: ServiceContext
  services: Services
  /** Start-up settings that routes need: where files live, whether local URLs may be reached. */
  settings: { data: string; allowLocalRequests: boolean }
  /** Registers work to finish when the server closes (timers, jobs); runs before the store closes. */
  onClose(fn: () => Promise<void> | void): void
  /**
   * Registers what an emulator reset must also undo outside the store (files). `fn` runs inside the
   * reset's transaction, before the store empties, so it can still read the rows; what it returns
   * runs only once that transaction has committed, so a failed reset removes no file.
   */
  onReset(fn: () => (() => void) | void): void
}
