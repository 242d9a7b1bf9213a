import { isIP } from 'node:net'

/*
 * IPv6 addresses that carry an IPv4 one, and reach it: a refused IPv4 address is refused in these
 * forms too. `::ffff:a.b.c.d` (IPv4-mapped) and `::a.b.c.d` (IPv4-compatible, deprecated but still
 * routed to the IPv4 address by some stacks) as Ruby's `Addrinfo#ipv6_to_ipv4` reads them;
 * `::ffff:0:a.b.c.d` (IPv4-translated, RFC 6145) and `64:ff9b::a.b.c.d` (NAT64, RFC 6052), which a
 * translator turns into the IPv4 address; `2002:AABB:CCDD::` (6to4, RFC 3056); and Teredo
 * (`2001:0::/32`, RFC 4380), whose server address and (inverted) client address both name IPv4 hosts. `64:ff9b:1::/48` (RFC 8215) is for local
 * NAT64 and is refused as a whole (isLocalNat64), wherever its operator put the IPv4 bits.
 */

/** The eight 16-bit groups of an IPv6 literal (no brackets, no zone); undefined if it is not one. */
function groupsOf(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined
  let text = ip.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const front = part(head)
  const back = part(tail)
  return tail === undefined
    ? front
    : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
}

const ipv4Of = (high: number, low: number) => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`

/** The IPv4 addresses an IPv6 literal carries and reaches (none for other addresses). */
export function embeddedIpv4(ip: string): string[] {
  const g = groupsOf(ip)
  if (!g) return []
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  // ::ffff:0:0/96 mapped, ::/96 compatible (but not :: and ::1, which are IPv6's own), 64:ff9b::/96.
  if (zeros(0, 5) && g[5] === 0xffff) return [ipv4Of(g[6]!, g[7]!)]
  // ::ffff:0:0:0/96, IPv4-translated (SIIT, RFC 6145).
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)]
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return [ipv4Of(g[6]!, g[7]!)]
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(g[6]!, g[7]!)]
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)]
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)]
  return []
}

/** `64:ff9b:1::/48`, the prefix RFC 8215 sets aside for NAT64 inside one network. */
export function isLocalNat64(ip: string): boolean {
  const g = groupsOf(ip)
  return g !== undefined && g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1
}
