import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import { Agent, buildConnector, interceptors, type Dispatcher } from 'undici'
import { checkAddress } from './outbound-url.js'

// The dispatcher that applies src/server/services/outbound-url.ts's rules when connecting. Only the
// jobs use it, and they load on first use: the server starts without undici.

/** A `lookup` for sockets that refuses every resolved address UrlBlocker would refuse. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0)
    try {
      for (const a of addresses) checkAddress(a.address)
    } catch (blocked) {
      return callback(blocked as Error, '', 0)
    }
    if ((options as { all?: boolean }).all)
      return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses)
    const first = addresses[0]!
    callback(null, first.address, first.family)
  })
}

/**
 * An undici dispatcher for user-given URLs: every connection's addresses are checked as they
 * are resolved, and an IP-literal host is checked before connecting. With `allowLocal`, plain.
 * It follows no redirect by itself (see `followingRedirects`). Close it after use.
 */
export function outboundAgent(allowLocal: boolean, connectTimeoutMs = 10_000): Agent {
  if (allowLocal) return new Agent({ connect: { timeout: connectTimeoutMs } })
  const connector = buildConnector({ lookup: guardedLookup, timeout: connectTimeoutMs })
  return new Agent({
    connect: (opts, callback) => {
      try {
        if (isIP(opts.hostname.replace(/^\[|\]$/g, ''))) checkAddress(opts.hostname)
      } catch (err) {
        callback(err as Error, null)
        return
      }
      connector(opts, callback)
    },
  })
}

/** `Gitlab::HTTP` (HTTParty) follows at most this many redirects. */
export const REDIRECT_LIMIT = 5

/**
 * `agent` following redirects as `Gitlab::HTTP` does: each hop is a new request through `agent`,
 * so its address is checked again when connecting (undici refuses a Location that is not http(s)).
 */
export const followingRedirects = (agent: Agent): Dispatcher =>
  agent.compose(
    interceptors.redirect({ maxRedirections: REDIRECT_LIMIT }),
    // Past the limit, an error (HTTParty's RedirectionTooDeep) rather than the last 3xx.
    (dispatch) => (opts, handler) => dispatch({ ...opts, throwOnMaxRedirect: true } as typeof opts, handler),
  )
