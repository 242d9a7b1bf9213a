/** Room kept for encoding (64 KiB to start, grown up to `MAX_SCRATCH` as answers need it). */
let scratch = Buffer.allocUnsafeSlow(64 * 1024)
/** The most a text is encoded through `scratch`: 3 bytes per UTF-16 unit at most, of 1 MiB. */
const MAX_SCRATCH = 1024 * 1024

/**
 * UTF-8 bytes in memory of their own, for bytes kept past the request that made them. A small
 * `Buffer.from` or `Buffer.concat` is a slice of Node's shared pool (64 KiB slabs, where every
 * request's short-lived Buffers are cut too), and a kept slice holds its whole slab.
 * The texts are encoded once, into room kept for it, and copied out at their size: measuring them
 * first (`Buffer.byteLength`, a walk over every character) cost as much as encoding them, a
 * twentieth of an issue list's cache miss.
 */
export function ownBytes(...texts: string[]): Buffer {
  return ownJoined(texts, '', '', '')
}

/**
 * `ownBytes` of a JSON array of these JSON texts (`[a,b]`), written piece by piece: no array of the
 * texts and their commas to pass (an issue list's cache miss makes one of 20 records).
 */
export function ownJsonArray(items: readonly string[]): Buffer {
  return ownJoined(items, '[', ',', ']')
}

/** The bytes of `open`, the texts with `separator` between them, and `close`. */
function ownJoined(texts: readonly string[], open: string, separator: string, close: string): Buffer {
  let units = open.length + close.length + separator.length * Math.max(0, texts.length - 1)
  for (const text of texts) units += text.length
  // No UTF-16 unit takes more than 3 bytes (a surrogate pair, two units, takes 4).
  const room = units * 3
  if (room > MAX_SCRATCH)
    return measured([open, ...texts.flatMap((t, i) => (i === 0 ? [t] : [separator, t])), close])
  if (scratch.length < room) scratch = Buffer.allocUnsafeSlow(Math.min(MAX_SCRATCH, 2 * room))
  let size = open ? scratch.write(open) : 0
  for (let i = 0; i < texts.length; i++) {
    if (i > 0 && separator) size += scratch.write(separator, size)
    size += scratch.write(texts[i] as string, size)
  }
  if (close) size += scratch.write(close, size)
  const bytes = Buffer.allocUnsafeSlow(size)
  scratch.copy(bytes, 0, 0, size)
  return bytes
}

/** `ownBytes` of texts too long for the room kept: measured, then encoded into their bytes. */
function measured(texts: string[]): Buffer {
  let size = 0
  for (const text of texts) size += Buffer.byteLength(text)
  const bytes = Buffer.allocUnsafeSlow(size)
  let at = 0
  for (const text of texts) at += bytes.write(text, at)
  return bytes
}
