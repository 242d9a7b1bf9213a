import { crc32 } from 'node:zlib'
import fc from 'fast-check'
import { crc32Combine } from '../../../src/server/archive/crc32-combine.js'

describe('crc32Combine', () => {
  it('gives the CRC-32 of two byte runs joined, from their CRCs and the second length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])))
      }),
    )
  })

  it('holds for runs of several mebibytes and for empty ones', () => {
    const a = Buffer.from('tar header '.repeat(50))
    const b = Buffer.alloc(5 * 1024 * 1024 + 17, 'issue line\n')
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])))
    expect(crc32Combine(crc32(a), 0, 0)).toBe(crc32(a))
    expect(crc32Combine(0, crc32(b), b.length)).toBe(crc32(b))
  })
})
