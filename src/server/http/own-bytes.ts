/**
 * UTF-8 bytes in memory of their own, for bytes kept past the request that made them. A small
 * `Buffer.from` or `Buffer.concat` is a slice of Node's shared pool (64 KiB slabs, where every
 * request's short-lived Buffers are cut too), and a kept slice holds its whole slab.
 */
export function ownBytes(...texts: string[]): Buffer {
  let size = 0
  for (const text of texts) size += Buffer.byteLength(text)
  const bytes = Buffer.allocUnsafeSlow(size)
  let at = 0
  for (const text of texts) at += bytes.write(text, at)
  return bytes
}
