/**
 * Shape limits checked before `JSON.parse`, which has none: 40 million `[` make V8 build 2.8 GB
 * of nested arrays before it finds the document unclosed, and 49 MB of `{},` build 16 million
 * objects (1.9 GB). The limits bound what a parse can build by the document's size.
 *
 * - Request bodies: GitLab's `Gitlab::Middleware::JsonValidation` (lib/gitlab/middleware/json_validation.rb)
 *   refuses a JSON body nested deeper than 32, with an array or a hash of more than 50,000 entries,
 *   or with 100,000 elements in all, before Grape parses it or anyone authenticates
 *   (`Gitlab::Json::StreamValidator`, lib/gitlab/json/stream_validator.rb).
 * - Archive documents: Ruby JSON's `max_nesting` of 100, which `NdjsonReader` reports as
 *   `Incorrect JSON format` (lib/gitlab/import_export/json/ndjson_reader.rb). GitLab counts no
 *   elements there; we refuse a document reaching MAX_DOCUMENT_ELEMENTS the same way (a limit
 *   breaks at its count, as GitLab's do), so that a line under the 50 MB cap cannot build more than
 *   about 20 MB of objects.
 */
export const MAX_BODY_DEPTH = 32
export const MAX_DOCUMENT_DEPTH = 100
/** The elements (array entries, hash keys and hash entries, as GitLab counts them) that break an archive document. */
export const MAX_DOCUMENT_ELEMENTS = 250_000

/** Limits on one JSON document; 0 is none, except for the depth, which always applies. */
export interface JsonLimits {
  maxDepth: number
  maxArraySize: number
  maxHashSize: number
  maxTotalElements: number
}

/** `JsonValidation::DEFAULT_LIMITS`. */
export const BODY_LIMITS: JsonLimits = {
  maxDepth: MAX_BODY_DEPTH,
  maxArraySize: 50_000,
  maxHashSize: 50_000,
  maxTotalElements: 100_000,
}
export const DOCUMENT_LIMITS: JsonLimits = {
  maxDepth: MAX_DOCUMENT_DEPTH,
  maxArraySize: 0,
  maxHashSize: 0,
  maxTotalElements: MAX_DOCUMENT_ELEMENTS,
}

/** The limit a document broke, in GitLab's words (`StreamValidator.user_facing_error_message`). */
export type JsonLimitExceeded =
  | 'Parameters nested too deeply'
  | 'Array parameter too large'
  | 'Hash parameter too large'
  | 'Too many total parameters'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const SPACE = 0x20
const TAB = 0x09
const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

/**
 * Checks one JSON document against JsonLimits as its UTF-8 bytes arrive, in pieces cut anywhere
 * (every character it looks at is ASCII, which no byte of a multi-byte sequence is).
 * One linear pass, no allocation past a counter per level, stopping at the first limit broken, as
 * GitLab's streaming validator does: an array entry or a hash entry counts once complete, a hash
 * key at its colon; brackets inside strings (escapes included) do not count. Says nothing about
 * whether the text is valid JSON: the parser decides that.
 */
export class JsonShape {
  private depth = 0
  private inString = false
  private escaped = false
  private total = 0
  private broken: JsonLimitExceeded | undefined
  /** Per level: whether it is an object, its completed entries, whether an entry is under way. */
  private readonly isObject: Uint8Array
  private readonly entries: Float64Array
  private readonly pending: Uint8Array

  constructor(private readonly limits: JsonLimits) {
    const levels = limits.maxDepth + 1
    this.isObject = new Uint8Array(levels)
    this.entries = new Float64Array(levels)
    this.pending = new Uint8Array(levels)
  }

  /** Starts over for the next document (a new JsonShape's typed arrays cost 10 µs: a line each adds up). */
  reset(): void {
    this.depth = 0
    this.inString = false
    this.escaped = false
    this.total = 0
    this.broken = undefined
  }

  /** Elements counted so far. */
  get elements(): number {
    return this.total
  }

  /** Reads UTF-8 `bytes` (from `start` to `end`); returns the limit broken so far, if any. */
  bytes(bytes: Uint8Array, start = 0, end = bytes.length): JsonLimitExceeded | undefined {
    let i = start
    while (i < end && !this.broken) {
      if (!this.inString) {
        this.step(bytes[i++]!)
        continue
      }
      // A string's content, most of a document: a tight loop to its closing quote.
      let escaped = this.escaped
      while (i < end) {
        const c = bytes[i++]!
        if (escaped) escaped = false
        else if (c === BACKSLASH) escaped = true
        else if (c === QUOTE) {
          this.inString = false
          break
        }
      }
      this.escaped = escaped
    }
    return this.broken
  }

  /** One character outside strings. */
  private step(c: number): void {
    if (c === SPACE || c === NEWLINE || c === CARRIAGE_RETURN || c === TAB) return
    const d = this.depth
    if (c === COMMA) this.complete(d)
    else if (c === COLON) {
      if (this.isObject[d]) this.count()
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (d === 0) return // unbalanced: the parser refuses it
      this.complete(d)
      this.depth--
    } else {
      this.pending[d] = 1
      if (c === QUOTE) this.inString = true
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (d >= this.limits.maxDepth) {
          this.broken = 'Parameters nested too deeply'
          return
        }
        const inner = ++this.depth
        this.isObject[inner] = c === OPEN_OBJECT ? 1 : 0
        this.entries[inner] = 0
        this.pending[inner] = 0
      }
    }
  }

  /** Ends the entry under way at level `d` (an array entry, or a hash entry after its key). */
  private complete(d: number): void {
    if (d === 0 || !this.pending[d]) return
    this.pending[d] = 0
    this.count()
    const object = this.isObject[d] === 1
    const max = object ? this.limits.maxHashSize : this.limits.maxArraySize
    if (max > 0 && this.entries[d]! >= max)
      this.broken ??= object ? 'Hash parameter too large' : 'Array parameter too large'
    this.entries[d]!++
  }

  private count(): void {
    const max = this.limits.maxTotalElements
    if (++this.total >= max && max > 0) this.broken ??= 'Too many total parameters'
  }
}

/** The limit a whole document (its UTF-8 bytes) breaks, if any. */
export function jsonLimitExceeded(document: Uint8Array, limits: JsonLimits): JsonLimitExceeded | undefined {
  return new JsonShape(limits).bytes(document)
}
