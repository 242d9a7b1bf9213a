/*
 * A body read whole, collected as bytes and decoded in parts: a large JSON array (a list page) is
 * cut between its elements into parts that each parse as a string below V8's large-object size.
 * `JSON.parse` needs one flat string; a 100-issue page is about 168 KB, and a string above 128 KB is
 * allocated in a fresh mapping of its own whose pages the kernel faults in one by one (2.3 µs each
 * on our benchmark host). In parts, a 10,000-issue list makes 4,000 fewer page faults and its main
 * thread takes 5% less CPU. The bytes go into buffers kept for the next body, so they too land in
 * memory already mapped.
 */

/** Cut a part once it holds this many bytes... */
const CUT_AFTER = 60_000
/** ...at the last element boundary before this many (with its brackets, under 128 KB as text). */
const PART_MAX = 120_000
/** How far after `},{"a":` the second key must begin. */
const VALUE_MAX = 80
/** The least size of a new buffer; buffers up to KEEP_MAX go back to the pool, at most POOL_MAX of them. */
const BUFFER_SIZE = 64 * 1024
const KEEP_MAX = 1024 * 1024
const POOL_MAX = 8
const pool: Buffer[] = []

const COMMA = 0x2c
const OPEN = 0x5b // [
const CLOSE = 0x5d // ]
/** An array opening `[{"a":<scalar>,"b":`: its first element's first two keys. */
const OPENING = /^\[\{"([^"\\]{1,64})":(?:-?\d[\d.eE+-]*|"[^"\\]{0,64}"|null|true|false),"([^"\\]{1,64})":/

/**
 * Collects a body (`add`, then `end`), then gives it back as text (`text`) or parsed (`parse`).
 *
 * Only a JSON body (`json`) that opens as an array of objects, `[{"a":<scalar>,"b":`, is cut, and
 * only where the bytes read `},{"a":<value>,"b":` (GitLab's list entities all open with `id` and a
 * second fixed key), so nested objects of another shape are passed over. Each cut replaces that
 * `,` with `]` ending one part and `[` opening the next. If every part parses, the text is those
 * parts' elements joined by commas in one array, and parses to them (a JSON value means the same
 * wherever it stands); if one does not (a cut fell inside a nested array or a string of a body
 * that is not what it seemed), the whole text is parsed as one. So the result, and any error, are
 * `JSON.parse`'s of the text.
 * Decoding is TextDecoder's (UTF-8, a byte-order mark dropped, bad bytes replaced): cuts fall on
 * ASCII bytes, never inside a character. Memory: the text, as a caller of `text()` holds anyway,
 * plus one buffer while bytes arrive (returned to a pool of at most 8 of up to 1 MB).
 */
export class BodyParts {
  private buf: Buffer | undefined
  private length = 0
  /** Where the part being collected begins (its first byte is `[` once a cut was made). */
  private start = 0
  private readonly parts: string[] = []
  /** `},{"a":` and `,"b":` once the opening was read; null when the body is not cut. */
  private head: Buffer | null | undefined
  private second: Buffer | undefined

  constructor(json: boolean) {
    if (!json) this.head = null
  }

  /** Appends the next bytes. */
  add(chunk: Uint8Array): void {
    const need = this.length + chunk.length
    let buf = this.buf ?? pool.pop() ?? Buffer.allocUnsafeSlow(Math.max(BUFFER_SIZE, need))
    if (buf.length < need) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, need))
      buf.copy(bigger, 0, 0, this.length)
      keep(buf)
      buf = bigger
    }
    this.buf = buf
    buf.set(chunk, this.length)
    this.length = need
    if (this.head === undefined && need >= 512) this.learn(buf)
    if (this.head && need - this.start >= CUT_AFTER) this.cut(buf)
  }

  /** The body is complete: decodes what is left and gives the buffer back. */
  end(): void {
    const { buf } = this
    if (buf) this.parts.push(decode(buf, this.start, this.length))
    else this.parts.push('')
    this.release()
  }

  /** Gives the buffer back (after `end`, or when the body will not complete). */
  release(): void {
    if (this.buf) keep(this.buf)
    this.buf = undefined
  }

  /** How many parts the body was cut into (1 when it was not cut), after `end`. */
  get partCount(): number {
    return this.parts.length
  }

  /** The text as it came (after `end`). */
  text(): string {
    const { parts } = this
    if (parts.length === 1) return parts[0] as string
    // Each cut replaced a `,` with a `]` ending one part and a `[` opening the next.
    return parts.map((p, i) => p.slice(i === 0 ? 0 : 1, i === parts.length - 1 ? p.length : -1)).join(',')
  }

  /** `JSON.parse` of the text (after `end`), in parts where it was cut; throws SyntaxError as it does. */
  parse(): unknown {
    const { parts } = this
    if (parts.length === 1) return JSON.parse(parts[0] as string)
    try {
      const items = JSON.parse(parts[0] as string) as unknown[]
      for (let i = 1; i < parts.length; i++)
        for (const item of JSON.parse(parts[i] as string)) items.push(item)
      return items
    } catch {
      return JSON.parse(this.text())
    }
  }

  /** Reads the cut signature from the body's opening, or decides not to cut. */
  private learn(buf: Buffer): void {
    const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
    const m = OPENING.exec(buf.toString('latin1', bom, Math.min(this.length, bom + 512)))
    this.head = m ? Buffer.from(`},{"${m[1]}":`, 'latin1') : null
    this.second = m ? Buffer.from(`,"${m[2]}":`, 'latin1') : undefined
  }

  /**
   * Cuts the part at its last signature that keeps it under PART_MAX; a part that reaches
   * PART_MAX with none stops the cutting (the rest is parsed as one part).
   */
  private cut(buf: Buffer): void {
    const head = this.head as Buffer
    const second = this.second as Buffer
    const { start, length } = this
    const limit = Math.min(length, start + PART_MAX) - head.length
    for (let at = buf.lastIndexOf(head, limit); at > start; at = buf.lastIndexOf(head, at - 1)) {
      const comma = buf.indexOf(COMMA, at + head.length)
      if (comma < 0 || comma - at > VALUE_MAX || comma + second.length > length) continue
      if (buf.compare(second, 0, second.length, comma, comma + second.length) !== 0) continue
      buf[at + 1] = CLOSE
      this.parts.push(decode(buf, start, at + 2))
      buf[at + 1] = OPEN
      this.start = at + 1
      return
    }
    if (length - start >= PART_MAX) this.head = null
  }
}

/** Puts a buffer no longer used back in the pool, if it is not too big and the pool not full. */
function keep(buf: Buffer): void {
  if (buf.length <= KEEP_MAX && pool.length < POOL_MAX) pool.push(buf)
}

/** The bytes `from` to `to` as text, as a TextDecoder (UTF-8, BOM dropped, bad bytes replaced) reads them. */
const decode = (buf: Buffer, from: number, to: number) => new TextDecoder().decode(buf.subarray(from, to))
