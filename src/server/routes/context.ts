import type { FastifyInstance } from 'fastify'
import type { Instance } from '../present/context.js'
import type { Access } from '../services/access.js'
import type { Services } from '../services/index.js'
import type { RouteTable } from './define.js'

/**
 * What route modules get: `route(spec, handler)` to declare their routes with, the app for routes
 * served by hand, the access rules and the services (built in start/open-state.ts). No store: routes reach
 * data only through the services.
 */
export interface ApiContext {
  app: FastifyInstance
  route: RouteTable
  instance: Instance
  access: Access
  services: Services
}
