import { randomBytes } from 'node:crypto'
import { sessionSeal } from '../../../src/server/store/session-seal.js'

describe('sessionSeal', () => {
  const seal = sessionSeal(randomBytes(32))

  it('opens what it signed, whatever characters the value and its MAC hold', () => {
    // Base64url values and MACs hold `-` and `_`: a MAC that begins with `-` once split wrongly.
    for (let i = 0; i < 2000; i++) {
      const value = `${i}.${1_800_000_000 + i}.${randomBytes(12).toString('base64url')}`
      expect(seal.open(seal.sign(value))).toBe(value)
    }
  })

  it('opens nothing signed with another key, edited, or unsigned', () => {
    const signed = seal.sign('2.1800000000.abc')
    expect(sessionSeal(randomBytes(32)).open(signed)).toBeNull()
    expect(seal.open(signed.replace('2.', '3.'))).toBeNull()
    expect(seal.open(`${signed}x`)).toBeNull()
    expect(seal.open('2.1800000000.abc')).toBeNull()
    expect(seal.open('')).toBeNull()
  })
})
