import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../domain/clock.js'
import type { Store } from '../store/index.js'
import { Actor } from './access.js'
import type { Authentication } from './authentication.js'

/** The pages' session cookie, named as GitLab names its own. */
export const SESSION_COOKIE = '_gitlab_session'
/** A week, GitLab's default `session_expire_delay` (10080 minutes). */
export const SESSION_SECONDS = 7 * 24 * 60 * 60

/** Who a page's visitor is, and the token their forms must carry (null when signed out). */
export interface PageVisitor {
  actor: Actor
  csrf: string | null
}

/**
 * Sessions of the HTML pages (src/server/pages/), which browsers reach without `PRIVATE-TOKEN`:
 * a personal access token signs a person in once, the session is a signed cookie naming the user
 * and its expiry. The API never reads it (http/auth.ts reads tokens only). Chosen: a session ends
 * at its expiry or when its user stops being active, not when the token it began with is revoked
 * (as a GitLab web session outlives the tokens of its user).
 */
export interface PageSessions {
  /**
   * The cookie value of a new session for the owner of `token`, who must be an active user with a
   * token that may read the API (`read_api` or `api`); null otherwise.
   */
  signIn(token: string): string | null
  /** The visitor a cookie value names: anonymous when it is missing, forged or expired. */
  visitor(cookie: string | undefined): PageVisitor
  /** Whether `token` is the CSRF token of the signed-in session `cookie`. */
  csrfMatches(cookie: string | undefined, token: unknown): boolean
}

export function pageSessions(store: Store, clock: Clock, auth: Authentication): PageSessions {
  const { sessions } = store
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000)
  const csrfOf = (value: string) => sessions.mac(`csrf ${value}`)
  /** The session's value when the cookie is genuine, unexpired and names an active user. */
  const open = (cookie: string | undefined) => {
    const value = cookie ? sessions.open(cookie) : null
    const [id, expires] = value?.split('.') ?? []
    if (!value || Number(expires) <= nowSeconds()) return null
    const user = store.users.get(Number(id))
    return user && user.state === 'active' ? { value, user } : null
  }
  return {
    signIn(token) {
      let actor: Actor
      try {
        actor = auth.token(token, 'GET', '/api/v4/projects')
      } catch {
        return null
      }
      if (!actor.user) return null
      const nonce = randomBytes(12).toString('base64url')
      return sessions.sign(`${actor.user.id}.${nowSeconds() + SESSION_SECONDS}.${nonce}`)
    },
    visitor(cookie) {
      const session = open(cookie)
      return session
        ? { actor: new Actor(session.user), csrf: csrfOf(session.value) }
        : { actor: new Actor(null), csrf: null }
    },
    csrfMatches(cookie, token) {
      const session = open(cookie)
      if (session === null || typeof token !== 'string') return false
      const given = Buffer.from(token)
      const expected = Buffer.from(csrfOf(session.value))
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}
