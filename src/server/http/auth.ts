import type { IncomingHttpHeaders } from 'node:http'
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

/** What authentication reads of a request: Fastify's (`credentialsOf`) or an early hit's (http/early-hits.ts). */
export interface Credentials {
  headers: IncomingHttpHeaders
  /** The parsed query and body, where a token or `sudo` may be given as a parameter. */
  query: unknown
  body: unknown
  /** The method the client sent: HEAD for a HEAD routed as its GET. */
  method: string
  /** The route's pattern (`/api/v4/projects/:id/issues`), or the URL where no route serves it. */
  route: string
  /** The route takes CI/CD job tokens for this method. */
  jobToken: boolean
}

/** A Fastify request's credentials, once it is routed. */
export function credentialsOf(req: FastifyRequest): Credentials {
  const method = requestMethod(req)
  // Read once: Fastify makes a new object of a dozen fields on every read of `routeOptions`.
  const route = req.routeOptions
  return {
    headers: req.headers,
    query: req.query,
    body: req.body,
    method,
    route: route.url ?? req.url,
    jobToken: route.config?.jobToken === true && method === req.method,
  }
}

/**
 * Whether a raw URL's query may give a parameter authentication reads (`private_token`,
 * `access_token`, `job_token`, `sudo`), also percent-encoded. When it cannot, authentication reads
 * only the headers and needs no parsed query. The router may begin a query at `;` or `#` too.
 */
export function urlMayAuthenticate(url: string): boolean {
  const q = url.indexOf('?')
  return /[;#]|token|sudo/i.test(url) || (q >= 0 && url.includes('%', q))
}

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v)
const param = (from: unknown, key: string) =>
  from && typeof from === 'object' ? first((from as Record<string, unknown>)[key]) : undefined

/** The token a request carries, in GitLab's order of precedence (`lib/gitlab/auth/auth_finders.rb`). */
export function requestToken(req: Credentials): string | undefined {
  const header = first(req.headers['private-token'])
  if (typeof header === 'string' && header) return header
  const auth = req.headers.authorization
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '')
  for (const key of ['private_token', 'access_token']) {
    const value = param(req.query, key) ?? param(req.body, key)
    if (typeof value === 'string' && value) return value
  }
  return undefined
}

/** The user a request asks to run as: the `sudo` parameter, else the `Sudo` header (`lib/api/helpers.rb`). */
function sudoIdentifier(req: Credentials): string | undefined {
  const value = param(req.query, 'sudo') ?? param(req.body, 'sudo') ?? first(req.headers.sudo)
  return typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : undefined
}

/**
 * Resolves the caller, and the user a `sudo` names for an administrator. CI/CD job tokens (`JOB-TOKEN` header or `job_token` parameter) count only
 * on routes GitLab declares `job_token_allowed` (`lib/api/api_guard.rb`), for the method declared
 * (a HEAD routed as its GET is not), and are ignored elsewhere, as GitLab ignores them.
 */
export function authenticate(auth: Authentication, req: Credentials): Actor {
  const token = requestToken(req)
  const sudo = sudoIdentifier(req)
  if (token !== undefined) return auth.token(token, req.method, req.route, sudo)
  const job = first(req.headers['job-token']) ?? param(req.query, 'job_token')
  if (typeof job === 'string' && job && req.jobToken) return auth.jobToken(job, sudo)
  return auth.anonymous(sudo)
}
