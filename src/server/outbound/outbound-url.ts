import { BlockList, isIP } from 'node:net'
import { embeddedIpv4, isLocalNat64 } from './embedded-ipv4.js'

/**
 * Outbound requests to URLs users give us (export uploads, remote imports): GitLab's
 * `Gitlab::UrlBlocker` rules. Only the allowed schemes; no loopback, private, link-local,
 * shared, multicast or cloud-metadata addresses unless local requests are allowed. The address
 * check runs on the addresses a host resolves to **when connecting** (a custom `lookup` on the
 * dispatcher, src/server/services/outbound-agent.ts), so a name that re-resolves to a private
 * address after validation is still refused.
 */

/** Why a URL may not be fetched; `message` is UrlBlocker's sentence (`Requests to localhost are not allowed`). */
export class BlockedUrlError extends Error {}

/** The refused ranges, made on the first check (start-up time: a BlockList loads two of Node's modules). */
let ranges: { loopback: BlockList; linkLocal: BlockList; local: BlockList } | undefined
function refusedRanges() {
  if (ranges) return ranges
  const loopback = new BlockList()
  loopback.addSubnet('127.0.0.0', 8, 'ipv4')
  loopback.addAddress('::1', 'ipv6')
  loopback.addSubnet('0.0.0.0', 8, 'ipv4')
  loopback.addAddress('::', 'ipv6')
  const linkLocal = new BlockList()
  linkLocal.addSubnet('169.254.0.0', 16, 'ipv4')
  linkLocal.addSubnet('fe80::', 10, 'ipv6')
  const local = new BlockList()
  for (const [net, bits] of [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    local.addSubnet(net, bits, 'ipv4')
  local.addSubnet('fc00::', 7, 'ipv6')
  local.addSubnet('ff00::', 8, 'ipv6')
  return (ranges = { loopback, linkLocal, local })
}

/** Throws BlockedUrlError when `address` (an IP literal) is one GitLab refuses without allow-local. */
export function checkAddress(address: string): void {
  const ip = address.replace(/^\[|\]$/g, '')
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4'
  // An IPv6 form that carries an IPv4 address (mapped, NAT64, 6to4...) is that address too.
  for (const ipv4 of embeddedIpv4(ip)) checkOne(ipv4, 'ipv4')
  if (isLocalNat64(ip)) throw new BlockedUrlError('Requests to the local network are not allowed')
  checkOne(ip, family)
}

function checkOne(ip: string, family: 'ipv4' | 'ipv6'): void {
  const { loopback, linkLocal, local } = refusedRanges()
  if (loopback.check(ip, family)) throw new BlockedUrlError('Requests to localhost are not allowed')
  if (linkLocal.check(ip, family))
    throw new BlockedUrlError('Requests to the link local network are not allowed')
  if (local.check(ip, family)) throw new BlockedUrlError('Requests to the local network are not allowed')
}

/**
 * Parses and checks a URL before anything is fetched: scheme in `schemes`, a host, and, unless
 * `allowLocal`, not `localhost` nor a refused IP literal (names are checked again at connect time).
 * Returns the URL; throws BlockedUrlError with UrlBlocker's sentence.
 */
export function checkUrl(raw: string, schemes: string[], allowLocal: boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new BlockedUrlError('URI is invalid')
  }
  if (!schemes.includes(url.protocol.slice(0, -1)))
    throw new BlockedUrlError(`Only allowed schemes are ${schemes.join(', ')}`)
  if (!url.hostname) throw new BlockedUrlError('URI is invalid')
  if (url.username || url.password) throw new BlockedUrlError('URI is invalid')
  if (allowLocal) return url
  // `localhost.` (a fully qualified name) is `localhost`.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw new BlockedUrlError('Requests to localhost are not allowed')
  if (host === 'metadata.google.internal')
    throw new BlockedUrlError('Requests to the local network are not allowed')
  if (isIP(host)) checkAddress(host)
  return url
}
