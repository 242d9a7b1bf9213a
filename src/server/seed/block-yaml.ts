import { CORE_SCHEMA } from 'js-yaml'

/*
 * Start-up time: `serve --seed` with 1,000 issues spent 21 of its 171 ms of CPU to the first answer
 * in js-yaml, which builds an event for every node before it builds any value: 9.7 MB of heap for a
 * 235 KB seed whose value takes 0.5 MB, and each scavenge brings V8's first full collection nearer.
 * Large seeds are written by programs, in YAML's block style: `key: value` lines, `- ` items, plain
 * or quoted one-line scalars, `|` blocks. This reader reads that style alone, line by line, and
 * gives up on anything else (flow mappings, anchors, multi-line plain or quoted scalars, comments
 * after a value, odd indentation, tabs, CRs, duplicate keys...), returning `undefined` so that the
 * caller reads the seed with js-yaml as before. What it reads, it reads as js-yaml does: plain
 * scalars are resolved by js-yaml's own core schema, and test/server/seed/block-yaml.test.ts
 * compares the two on generated documents.
 */

/** Thrown at the first thing this reader does not read; caught by `readBlockYaml`. */
class NotBlockYaml extends Error {}
const giveUp = (): never => {
  throw new NotBlockYaml()
}

/**
 * What js-yaml refuses or treats specially anywhere in a document: its non-printable characters
 * (lone surrogates included), tabs, CR, the Unicode line separators and a byte order mark.
 */
const UNREAD_CHARACTERS =
  // eslint-disable-next-line no-control-regex
  /[\x00-\x08\t\r\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/

/** A key this reader takes: a plain word (and one js-yaml reads as that same string, see isPlainKey). */
const KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/
/** `key: ...` or `key:` at the start of an item. */
const KEY_AND_COLON = /^[A-Za-z0-9_][A-Za-z0-9_.-]*:( |$)/
/**
 * A plain scalar may not start with an indicator (`-` only before a space: `-1` is a scalar); `: `
 * and ` #` inside it mean a mapping or a comment.
 */
const PLAIN_START = /^(?:[?:,[\]{}#&*!|>'"%@`]|-(?: |$))/
const PLAIN_INSIDE = /: | #|:$/
const DOUBLE_QUOTED = /^"([^"\\]*)"$/
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/
/** `[a, b]` of plain words: no quotes, nested collections, colons or comments. */
const FLOW_WORDS = /^\[([^[\]{}"'#:]*)\]$/

/**
 * The document `text` holds, read as js-yaml's `load` reads it, or `undefined` when `text` is not
 * a block-style mapping this reader reads (see above).
 */
export function readBlockYaml(text: string): Record<string, unknown> | undefined {
  if (!text.endsWith('\n') || UNREAD_CHARACTERS.test(text)) return undefined
  try {
    return new Reader(text.split('\n')).document()
  } catch (err) {
    if (err instanceof NotBlockYaml) return undefined
    throw err
  }
}

/** Deeper collections are left to js-yaml, whose own limit (100) refuses some of them. */
const MAX_DEPTH = 50

class Reader {
  private at = 0
  private depth = 0
  private readonly plainKeys = new Map<string, boolean>()

  constructor(private readonly lines: string[]) {}

  document(): Record<string, unknown> {
    if (this.next() !== 0 || this.startsItem(0)) giveUp()
    const value = this.mapping(0)
    if (this.next() !== -1) giveUp()
    return value
  }

  /** Moves to the next line with content (not blank, not a comment): its indentation, or -1 at the end. */
  private next(): number {
    const { lines } = this
    for (; this.at < lines.length; this.at++) {
      const line = lines[this.at] as string
      let n = 0
      while (line.charCodeAt(n) === 32) n++
      if (n < line.length && line.charCodeAt(n) !== 35) return n
    }
    return -1
  }

  /** Whether the current line has `- ` (or a bare `-`) at column `n`. */
  private startsItem(n: number): boolean {
    const line = this.lines[this.at] as string
    return line.charCodeAt(n) === 45 && (line.length === n + 1 || line.charCodeAt(n + 1) === 32)
  }

  /** A mapping whose keys start at column `n`; the current line holds its first key there. */
  private mapping(n: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) giveUp()
    const value: Record<string, unknown> = {}
    for (;;) {
      const line = this.lines[this.at] as string
      const colon = line.indexOf(':', n)
      if (colon === -1 || (colon + 1 < line.length && line.charCodeAt(colon + 1) !== 32)) giveUp()
      const key = line.slice(n, colon)
      if (!this.isPlainKey(key) || Object.hasOwn(value, key)) giveUp()
      value[key] = this.value(n, trimSpaces(line.slice(colon + 1)))
      const m = this.next()
      if (m < n) {
        this.depth--
        return value
      }
      if (m > n || this.startsItem(n)) giveUp()
    }
  }

  /** A sequence whose `- ` items are at column `n`; the current line is its first item. */
  private sequence(n: number): unknown[] {
    if (++this.depth > MAX_DEPTH) giveUp()
    const items: unknown[] = []
    for (;;) {
      const line = this.lines[this.at] as string
      let k = n + 1
      while (line.charCodeAt(k) === 32) k++
      const rest = trimSpaces(line.slice(k))
      if (rest === '' || rest === '-' || rest.startsWith('- ')) giveUp()
      // `- key: value` starts a mapping at the key's column.
      if (KEY_AND_COLON.test(rest)) items.push(this.mapping(k))
      else {
        if (rest.startsWith('|')) giveUp()
        items.push(scalar(rest))
        this.at++
      }
      const m = this.next()
      if (m < n || (m === n && !this.startsItem(n))) {
        this.depth--
        return items
      }
      if (m > n) giveUp()
    }
  }

  /**
   * The value after `key:` (`rest`, trimmed) of a mapping at column `n`: inline, a `|` block, or
   * the more indented lines below, or `- ` items at the key's own column.
   */
  private value(n: number, rest: string): unknown {
    if (rest === '|' || rest === '|-') return this.literal(n, rest === '|-')
    if (rest !== '') {
      this.at++
      return scalar(rest)
    }
    this.at++
    const m = this.next()
    if (m > n) return this.startsItem(m) ? this.sequence(m) : this.mapping(m)
    if (m === n && this.startsItem(n)) return this.sequence(n)
    return null
  }

  /** A literal block (`|` clips to one final line break, `|-` strips them) under a key at column `n`. */
  private literal(n: number, strip: boolean): string {
    const { lines } = this
    this.at++
    const parts: string[] = []
    let indent = -1
    for (; this.at < lines.length; this.at++) {
      const line = lines[this.at] as string
      let k = 0
      while (line.charCodeAt(k) === 32) k++
      if (k === line.length) {
        // A blank line: an empty line of the text, unless it holds more than the indentation.
        if (indent === -1 || k > indent) giveUp()
        parts.push('')
        continue
      }
      if (indent === -1) {
        if (k <= n) giveUp()
        indent = k
      }
      if (k < indent) {
        if (k > n) giveUp()
        break
      }
      parts.push(line.slice(indent))
    }
    if (indent === -1) giveUp()
    while (parts.length > 0 && parts.at(-1) === '') parts.pop()
    const text = parts.join('\n')
    return strip || text === '' ? text : `${text}\n`
  }

  /** Whether `key` is a key this reader takes (KEY) that js-yaml reads as that same string. */
  private isPlainKey(key: string): boolean {
    let plainKey = this.plainKeys.get(key)
    if (plainKey === undefined) {
      plainKey =
        KEY.test(key) && key !== '__proto__' && CORE_SCHEMA.resolveImplicitScalarTag(key).value === key
      this.plainKeys.set(key, plainKey)
    }
    return plainKey
  }
}

/**
 * `text` without the spaces around it. YAML's white space is the space and the tab (never read
 * here), not JavaScript's `trim`'s: a no-break or ideographic space is part of a scalar.
 */
function trimSpaces(text: string): string {
  let start = 0
  let end = text.length
  while (text.charCodeAt(start) === 32) start++
  while (end > start && text.charCodeAt(end - 1) === 32) end--
  return text.slice(start, end)
}

/** A one-line scalar after `key: ` or `- ` (trimmed). */
function scalar(text: string): unknown {
  const first = text.charCodeAt(0)
  if (first === 34) {
    const quoted = DOUBLE_QUOTED.exec(text)
    return quoted ? quoted[1] : giveUp()
  }
  if (first === 39) {
    const quoted = SINGLE_QUOTED.exec(text)
    return quoted ? (quoted[1] as string).replaceAll("''", "'") : giveUp()
  }
  if (first === 91) {
    if (text === '[]') return []
    const words = FLOW_WORDS.exec(text)
    return words ? (words[1] as string).split(',').map((word) => plain(trimSpaces(word))) : giveUp()
  }
  if (text === '{}') return {}
  return plain(text)
}

function plain(text: string): unknown {
  if (text === '' || PLAIN_START.test(text) || PLAIN_INSIDE.test(text)) giveUp()
  return CORE_SCHEMA.resolveImplicitScalarTag(text).value
}
