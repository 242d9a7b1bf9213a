import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { forbidden } from '../grape/gitlab-errors.js'

/*
 * Protections of a local server against the browser of the developer who runs it:
 * - DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 reaches the server
 *   with `Host: evil.example`, and may read what it answers. Only the server's own names pass.
 * - Cross-site requests: a form or a `text/plain` fetch needs no CORS preflight, and a token in the
 *   query (`private_token`) or a cookie-less form still acts. Browsers mark such requests with
 *   `Origin` (or `Sec-Fetch-Site`); state-changing ones from another origin are refused.
 * Non-browser clients send neither header and are unaffected (`private_token` in the query works,
 * as on GitLab).
 *
 * A wrong Host answers 403, not 421 Misdirected Request: 421 tells a client to retry on another
 * connection (browsers do so on their own), which cannot help here, while 403 with GitLab's error
 * body is what every GitLab client already understands as a refusal.
 */

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1']

/** The serialised origin (`http://host:port`, default port dropped); null for `null` or garbage. */
function originOf(text: string): string | null {
  try {
    const origin = new URL(text).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

/** A hostname as compared here: lower case, no IPv6 brackets, no trailing dot; null if unparsable. */
function hostnameOf(authority: string): string | null {
  try {
    return new URL(`http://${authority}`).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
  } catch {
    return null
  }
}

/** Host headers seen, parsed once: a client sends the same one on every request. */
const hostnames = new Map<string, string | null>()
const MAX_HOSTNAMES = 100

/** `hostnameOf`, remembered (a URL parse per request was 3% of a cached list's time). */
function cachedHostnameOf(authority: string): string | null {
  let name = hostnames.get(authority)
  if (name === undefined) {
    name = hostnameOf(authority)
    if (hostnames.size >= MAX_HOSTNAMES) hostnames.clear()
    hostnames.set(authority, name)
  }
  return name
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === ''

/** What the guard reads of a request: Node's, as Fastify's `onRequest` hook and the early hits see it. */
export type GuardedRequest = Pick<IncomingMessage, 'method' | 'headers' | 'socket'>

export interface BrowserGuard {
  /** Called once the server listens: its address joins the allowed names and origins. */
  listening(host: string, url: string): void
  /** Throws 403 for a foreign Host, then for a cross-site state-changing request (an `onRequest` hook). */
  check(req: GuardedRequest): void
}

/**
 * `baseUrl()`: the external URL (read on each request: it is set at listen when not configured).
 * `allowedHosts`: more names for the Host header (`--allowed-host`).
 */
export function browserGuard(baseUrl: () => string, allowedHosts: string[] = []): BrowserGuard {
  const extra = allowedHosts.map((h) => hostnameOf(h)).filter((h): h is string => h !== null)
  let listen: { host: string; origin: string } | undefined
  let base = { url: '', hostname: null as string | null }
  const baseHostname = () => {
    const url = baseUrl()
    if (url !== base.url) base = { url, hostname: hostnameOf(new URL(url).host) }
    return base.hostname
  }

  const hostAllowed = (name: string): boolean => {
    if (!listen) return true // not reachable over the network yet
    if (name === baseHostname() || extra.includes(name)) return true
    if (name === listen.host) return true
    if ((isLoopback(listen.host) || isWildcard(listen.host)) && LOOPBACK_NAMES.includes(name)) return true
    // Listening on every interface, the server is reached by addresses it cannot all know (a port
    // Docker maps, a NAT): any IP address passes, since a page loaded from an address is on the
    // server's own origin, not a rebound one. Names, such as a container's service name, must be listed.
    return isWildcard(listen.host) && isIP(name) !== 0
  }

  const ownOrigins = (req: GuardedRequest) => {
    const origins = [new URL(baseUrl()).origin]
    if (listen) origins.push(listen.origin)
    // Same origin as the request itself (the Host passed the check above): e.g. a port mapping.
    // Its scheme as Fastify's `request.protocol` reads it (no proxy is trusted).
    const protocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http'
    const own = req.headers.host ? originOf(`${protocol}://${req.headers.host}`) : null
    if (own) origins.push(own)
    return origins
  }

  return {
    listening(host, url) {
      listen = {
        host: hostnameOf(host.includes(':') ? `[${host}]` : host) ?? host,
        origin: new URL(url).origin,
      }
    },
    check(req) {
      const host = req.headers.host
      if (host !== undefined) {
        const name = cachedHostnameOf(host)
        if (name === null || !hostAllowed(name))
          throw forbidden(
            `Host '${host}' is not allowed (DNS rebinding protection); start the server with --allowed-host to allow it`,
          )
      }
      if (!UNSAFE_METHODS.has(req.method ?? '')) return
      const origin = req.headers.origin
      if (origin !== undefined) {
        const from = originOf(origin)
        if (from === null || !ownOrigins(req).includes(from))
          throw forbidden(
            `cross-origin ${req.method} from '${origin}' refused (CSRF protection): the emulator accepts changes only from its own origin or from non-browser clients`,
          )
        return
      }
      if (req.headers['sec-fetch-site'] === 'cross-site')
        throw forbidden(
          `cross-site ${req.method} refused (CSRF protection): the emulator accepts changes only from its own origin or from non-browser clients`,
        )
    },
  }
}
