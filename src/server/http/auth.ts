import type { FastifyRequest } from 'fastify'
import type { Actor } from '../services/access.js'
import type { Authentication } from '../services/authentication.js'
import { requestMethod } from './head-requests.js'

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor
  }
  interface FastifyContextConfig {
    /** The route's spec says `jobToken: true` (routes/define.ts). */
    jobToken?: boolean
  }
}

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v)

/** The token a request carries, in GitLab's order of precedence (`lib/gitlab/auth/auth_finders.rb`). */
export function requestToken(req: FastifyRequest): string | undefined {
  const header = first(req.headers['private-token'])
  if (typeof header === 'string' && header) return header
  const auth = req.headers.authorization
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '')
  const query = req.query as Record<string, unknown> | undefined
  const body = req.body as Record<string, unknown> | undefined
  for (const key of ['private_token', 'access_token']) {
    const value = first(query?.[key]) ?? (body && typeof body === 'object' ? first(body[key]) : undefined)
    if (typeof value === 'string' && value) return value
  }
  return undefined
}

/** The user a request asks to run as: the `sudo` parameter, else the `Sudo` header (`lib/api/helpers.rb`). */
function sudoIdentifier(req: FastifyRequest): string | undefined {
  const query = req.query as Record<string, unknown> | undefined
  const body = req.body as Record<string, unknown> | undefined
  const param = first(query?.sudo) ?? (body && typeof body === 'object' ? first(body.sudo) : undefined)
  const value = param ?? first(req.headers.sudo)
  return typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : undefined
}

/**
 * Resolves the caller, and the user a `sudo` names for an administrator. CI/CD job tokens (`JOB-TOKEN` header or `job_token` parameter) count only
 * on routes GitLab declares `job_token_allowed` (`lib/api/api_guard.rb`), for the method declared
 * (a HEAD routed as its GET is not), and are ignored elsewhere, as GitLab ignores them.
 */
export function authenticate(auth: Authentication, req: FastifyRequest): Actor {
  const token = requestToken(req)
  const sudo = sudoIdentifier(req)
  if (token !== undefined) return auth.token(token, requestMethod(req), req.routeOptions.url ?? req.url, sudo)
  const job = first(req.headers['job-token']) ?? first((req.query as Record<string, unknown>)?.job_token)
  const allowed = req.routeOptions.config?.jobToken === true && requestMethod(req) === req.method
  if (typeof job === 'string' && job && allowed) return auth.jobToken(job, sudo)
  return auth.anonymous(sudo)
}
