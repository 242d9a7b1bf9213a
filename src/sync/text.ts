/*
 * Text rules of the sync: hidden markers, GitLab quick-action escaping, size limits,
 * normalisation and hashing. Pure functions; the same input always gives the same output.
 */
import { createHash } from 'node:crypto'

const TAG = 'gitlab-actions:sync'
const MARKER = /<!-- gitlab-actions:sync ([^<>]*?) -->/g

/** Values go percent-encoded, and `-` too, so that a marker never contains `--` or `>`. */
const enc = (v: string) => encodeURIComponent(v).replace(/-/g, '%2D')
const dec = (v: string) => {
  try {
    return decodeURIComponent(v)
  } catch {
    return v
  }
}

/** `<!-- gitlab-actions:sync k=v k=v -->`, keys in the order given. */
export function formatMarker(fields: Record<string, string | number | undefined>): string {
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${enc(String(v))}`)
  return `<!-- ${TAG} ${parts.join(' ')} -->`
}

/** The fields of the last marker in `text` (the one we append), or undefined when there is none. */
export function parseMarker(text: string): Record<string, string> | undefined {
  let last: string | undefined
  for (const m of text.matchAll(MARKER)) last = m[1]
  if (last === undefined) return undefined
  const out: Record<string, string> = {}
  for (const part of last.trim().split(/\s+/)) {
    const at = part.indexOf('=')
    if (at > 0) out[part.slice(0, at)] = dec(part.slice(at + 1))
  }
  return out
}

/** Removes every marker (and the blank lines before the last one). */
export const stripMarkers = (text: string) => text.replace(MARKER, '').replace(/\s+$/, '')

/**
 * Copied text must not carry a marker that would claim an identity (a quoted mirror, a pasted
 * body): `gitlab-actions:sync` inside it becomes `gitlab-actions:quoted`.
 */
export const defuseMarkers = (text: string) =>
  text.replace(/<!-- gitlab-actions:sync /g, '<!-- gitlab-actions:quoted ')

/** Line endings as `\n`, no trailing blanks: what both forges may do to a stored text. */
export const normalize = (text: string | null | undefined) =>
  (text ?? '').replace(/\r\n?/g, '\n').replace(/\s+$/, '')

/** A short stable digest of any JSON value (base values in markers). */
export const digest = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 10)

/** Line indexes inside closed code fences (``` or ~~~); an unclosed fence protects nothing. */
export function fencedLines(lines: string[]): Set<number> {
  const inside = new Set<number>()
  let open: { at: number; mark: string } | undefined
  lines.forEach((line, i) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (!m) return
    const mark = m[1] as string
    if (!open) open = { at: i, mark }
    else if (mark[0] === open.mark[0] && mark.length >= open.mark.length && /^ {0,3}[`~]+\s*$/.test(line)) {
      for (let j = open.at; j <= i; j++) inside.add(j)
      open = undefined
    }
  })
  return inside
}

/**
 * Makes GitLab quick actions inert (`lib/gitlab/quick_actions/extractor.rb`): every line outside closed code
 * fences that starts with `/` (after any backslashes) gets one more backslash, so `/close` becomes `\/close`
 * (Markdown still shows "/close"; GitLab's extractor needs `/` in column 0). `unescapeQuickActions` is its
 * exact inverse, so text can round-trip; `\/x` written by a person becomes `\\/x`.
 */
export function escapeQuickActions(text: string): string {
  const lines = text.split('\n')
  const fenced = fencedLines(lines)
  return lines.map((l, i) => (!fenced.has(i) && /^\\*\//.test(l) ? `\\${l}` : l)).join('\n')
}

/** The inverse of escapeQuickActions. */
export function unescapeQuickActions(text: string): string {
  const lines = text.split('\n')
  const fenced = fencedLines(lines)
  return lines.map((l, i) => (!fenced.has(i) && /^\\+\//.test(l) ? l.slice(1) : l)).join('\n')
}

/** Cuts at `max` UTF-16 units without splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return text.slice(0, end)
}

/**
 * `text` fitted into `max` units once `wrap` has been applied: when it does not fit, the content is
 * cut and `note` appended (both deterministic, so a second run renders the same text).
 */
export function fit(text: string, max: number, wrap: (t: string) => string, note: string): string {
  let out = wrap(text)
  if (out.length <= max) return out
  let budget = max - (out.length - text.length) - note.length
  for (let i = 0; i < 8 && budget > 0; i++) {
    out = wrap(`${cut(text, budget)}${note}`)
    if (out.length <= max) return out
    budget -= out.length - max + 64
  }
  return wrap(note.trim())
}

/** Forge limits (GitLab: title 255, description 1,048,576, note 1,000,000; GitHub: 256 and 65,536). */
export const LIMITS = {
  github: { title: 256, body: 65_536, comment: 65_536 },
  gitlab: { title: 255, body: 1_048_576, comment: 1_000_000 },
} as const
