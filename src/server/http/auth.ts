import type { FastifyRequest } from 'fastify'
import type { Store } from '../store/index.js'
import { Actor } from '../services/access.js'
import { unauthorized } from '../grape/gitlab-errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor
  }
  interface FastifyInstance {
    /** Set by the pipeline routes: CI/CD job tokens, on the routes that accept them. */
    jobTokenAuth?: JobTokenAuth
  }
}

/**
 * CI/CD job tokens (`JOB-TOKEN` header or `job_token` parameter) count only on routes GitLab
 * declares `job_token_allowed` (`lib/api/api_guard.rb`); elsewhere they are ignored, as GitLab ignores them.
 */
export interface JobTokenAuth {
  allows(req: FastifyRequest): boolean
  /** Whether the route `method url` (as registered) accepts job tokens: for the OpenAPI document. */
  accepts(method: string, url: string): boolean
  /** The job's user with the job's token scope; throws 401 unless the job is running. */
  resolve(token: string): Actor
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

/**
 * Resolves the caller; a token that matches no active user is a 401, even on public routes.
 * `now` is read only for a token that has an expiry time.
 */
export function authenticate(store: Store, req: FastifyRequest, now: () => string): Actor {
  const token = requestToken(req)
  if (token === undefined) {
    const job = first(req.headers['job-token']) ?? first((req.query as Record<string, unknown>)?.job_token)
    const jobs = req.server.jobTokenAuth
    if (typeof job === 'string' && job && jobs?.allows(req)) return jobs.resolve(job)
    return new Actor(null)
  }
  const owner = store.users.tokenOwner(token)
  if (!owner || (owner.expiresAt !== null && owner.expiresAt <= now()) || owner.user.state !== 'active')
    throw unauthorized()
  return new Actor(owner.user)
}
