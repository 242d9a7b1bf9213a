import { randomBytes } from 'node:crypto'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** `n` (below 2^50) as `length` Crockford base-32 digits. */
function base32(n: number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out = CROCKFORD[n % 32] + out
    n = Math.floor(n / 32)
  }
  return out
}

/**
 * Fastify's `genReqId`: GitLab's `X-Request-Id` is the correlation id Workhorse makes for each
 * request, a ULID (labkit's `correlation.RandomID`: 26 Crockford base-32 characters, the time in
 * milliseconds then randomness). Ours keeps the form; its last 16 characters are a random prefix
 * per server and a counter, so that no two answers of one server share an id.
 */
export function requestIds(now: () => number = Date.now): () => string {
  const prefix = base32(randomBytes(4).readUInt32BE() % 32 ** 6, 6)
  let counter = 0
  let lastMs = -1
  let start = ''
  // The counter's first nine digits change once in 32 ids: written then only (one id per request).
  let lastHigh = -1
  let high = ''
  return () => {
    const ms = now()
    if (ms !== lastMs) {
      lastMs = ms
      start = base32(ms, 10) + prefix
    }
    counter = (counter + 1) % 32 ** 10
    const upper = Math.floor(counter / 32)
    if (upper !== lastHigh) {
      lastHigh = upper
      high = base32(upper, 9)
    }
    return start + high + CROCKFORD[counter % 32]
  }
}
