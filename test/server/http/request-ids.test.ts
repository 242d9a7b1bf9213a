import { requestIds } from '../../../src/server/http/request-ids.js'

/*
 * X-Request-Id (src/server/http/request-ids.ts): a ULID's form, the time in milliseconds, a random
 * prefix per server, then a counter, so that no two answers of one server share an id.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const base32 = (n: number, length: number) => {
  let out = ''
  for (let i = 0; i < length; i++, n = Math.floor(n / 32)) out = CROCKFORD[n % 32] + out
  return out
}

it('writes the time, the server prefix and the counter in Crockford base 32, also across digits', () => {
  let ms = Date.parse('2026-03-01T10:00:00.000Z')
  const next = requestIds(() => ms)
  const first = next()
  expect(first).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  const prefix = first.slice(10, 16)
  const ids = [first]
  // Past 32 and 1024: the counter's second and third digits change.
  for (let n = 2; n <= 1100; n++) {
    if (n === 700) ms += 1
    ids.push(next())
  }
  ids.forEach((id, i) => {
    const at = i + 1 < 700 ? ms - 1 : ms
    expect(id).toBe(base32(at, 10) + prefix + base32(i + 1, 10))
  })
  expect(new Set(ids).size).toBe(ids.length)
})

it('gives each server a prefix of its own', () => {
  const ids = Array.from({ length: 8 }, () => requestIds(() => 0)().slice(10, 16))
  expect(new Set(ids).size).toBeGreaterThan(1)
})
