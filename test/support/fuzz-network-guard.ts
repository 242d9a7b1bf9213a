import dns, { type LookupAddress } from 'node:dns'
import net from 'node:net'

/**
 * Keeps an in-process server (and the test) on loopback: this machine may only talk to itself.
 * While installed, every `net.Socket#connect` (plain, TLS, undici) to a host that is not a
 * loopback literal or `localhost` is refused before any packet leaves (ECONNREFUSED on the
 * socket), and `dns.lookup` answers from `hosts` (a fake resolver: name -> addresses) or
 * ENOTFOUND, so no DNS query is ever sent. Every attempt is recorded in `attempts`.
 * `reroute` lets a test stand a loopback listener in for a public address: a connection to a
 * key (an IP literal) goes to 127.0.0.1 on the same port, so nothing leaves the machine.
 */
export interface NetworkGuard {
  /** `connect host:port` and `lookup name` entries, refused or not, in order. */
  attempts: string[]
  /** Names the fake resolver knows, e.g. `{ 'intranet.test': ['10.0.0.7'] }`. */
  hosts: Record<string, string[]>
  /** Public IP literals answered by a loopback listener on the same port. */
  reroute: Set<string>
  uninstall(): void
}

const isLoopback = (host: string) =>
  host === 'localhost' ||
  /^127\.\d+\.\d+\.\d+$/.test(host) ||
  host === '::1' ||
  host === '[::1]' ||
  /^::ffff:127\./i.test(host)

type ConnectArgs = unknown[]
function targetOf(args: ConnectArgs): { host?: string; port?: unknown; path?: string } {
  // net.connect passes its normalised [options, callback] array; Socket#connect(options | port, host?).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0]
  if (first && typeof first === 'object') return first as { host?: string; port?: unknown; path?: string }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first }
  return { port: first, host: typeof args[1] === 'string' ? args[1] : 'localhost' }
}

export function installNetworkGuard(
  hosts: Record<string, string[]> = {},
  reroute: Iterable<string> = [],
): NetworkGuard {
  const attempts: string[] = []
  const originalConnect = net.Socket.prototype.connect
  const originalLookup = dns.lookup
  const originalPromiseLookup = dns.promises.lookup

  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: ConnectArgs) {
    const target = targetOf(args)
    if (target.path === undefined) {
      const host = target.host ?? 'localhost'
      attempts.push(`connect ${host}:${String(target.port)}`)
      if (guard.reroute.has(host)) {
        // Rewritten in place: net.connect's normalised array carries a marker Socket#connect reads.
        if (Array.isArray(args[0])) args[0][0] = { ...target, host: '127.0.0.1' }
        else if (typeof args[0] === 'object') args[0] = { ...target, host: '127.0.0.1' }
        else args[1] = '127.0.0.1'
        return (originalConnect as (...a: ConnectArgs) => net.Socket).apply(this, args)
      }
      if (!isLoopback(host)) {
        const err = Object.assign(new Error(`network guard: refused to connect to ${host}`), {
          code: 'ECONNREFUSED',
        })
        process.nextTick(() => this.destroy(err))
        return this
      }
    }
    return (originalConnect as (...a: ConnectArgs) => net.Socket).apply(this, args)
  } as typeof net.Socket.prototype.connect

  const answer = (hostname: string): LookupAddress[] | undefined => {
    attempts.push(`lookup ${hostname}`)
    if (net.isIP(hostname)) return [{ address: hostname, family: net.isIP(hostname) }]
    if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }]
    return guard.hosts[hostname]?.map((address) => ({ address, family: net.isIP(address) || 4 }))
  }
  const fakeLookup = (hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (
      err: NodeJS.ErrnoException | null,
      address?: string | LookupAddress[],
      family?: number,
    ) => void
    const opts = (typeof options === 'object' && options) || {}
    const all = (opts as { all?: boolean }).all === true
    const found = answer(hostname)
    process.nextTick(() => {
      if (!found || found.length === 0) {
        const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
          hostname,
        })
        return cb(err)
      }
      if (all) return cb(null, found)
      const first = found[0] as LookupAddress
      return cb(null, first.address, first.family)
    })
  }
  const fakePromiseLookup = (hostname: string, options?: { all?: boolean }) =>
    new Promise((resolve, reject) =>
      fakeLookup(hostname, options ?? {}, (err: Error | null, address?: unknown, family?: number) =>
        err ? reject(err) : resolve(options?.all ? address : { address, family }),
      ),
    )
  ;(dns as { lookup: unknown }).lookup = fakeLookup
  ;(dns.promises as { lookup: unknown }).lookup = fakePromiseLookup

  const guard: NetworkGuard = {
    attempts,
    hosts,
    reroute: new Set(reroute),
    uninstall() {
      net.Socket.prototype.connect = originalConnect
      ;(dns as { lookup: unknown }).lookup = originalLookup
      ;(dns.promises as { lookup: unknown }).lookup = originalPromiseLookup
    },
  }
  return guard
}
