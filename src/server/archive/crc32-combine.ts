/*
 * CRC-32 of two byte runs joined, from the CRC of each and the length of the second: zlib's
 * `crc32_combine`, which Node does not expose. The gzip writer needs it because a tar entry's
 * header (which holds the entry's size) is only known after its content has been checksummed.
 * Arithmetic on polynomials over GF(2) modulo the CRC-32 polynomial, reflected, as in zlib.
 */

const POLY = 0xedb88320

/** a(x) * b(x) modulo p(x); `a` and `b` are reflected 32-bit polynomials. */
function multiplyModP(a: number, b: number): number {
  let product = 0
  for (let m = 0x80000000; m !== 0; m >>>= 1) {
    if (a & m) {
      product ^= b
      if ((a & (m - 1)) === 0) break
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return product >>> 0
}

/** x^(2^k) modulo p(x), for k in 0..31. */
const X2N: number[] = []
for (let k = 0, p = 0x40000000; k < 32; k++) {
  X2N.push(p)
  p = multiplyModP(p, p)
}

/** x^(8 * bytes) modulo p(x): what appending `bytes` zero bytes multiplies a CRC by. */
function shiftFor(bytes: number): number {
  let p = 0x80000000 // x^0
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++)
    if (n % 2 === 1) p = multiplyModP(X2N[k % 32] as number, p)
  return p
}

/** `crc32(a ++ b)` from `crc32(a)`, `crc32(b)` and `b.length` (any length below 2^53). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(shiftFor(lengthB), crcA) ^ crcB) >>> 0
}
