/*
 * How synced text looks on each side, and how it is read back. A mirror's body is a visible link
 * back, the content, and a hidden marker; reading strips the link and marker (and, on GitLab, the
 * quick-action escapes), so every side's `body` field is comparable text.
 */
import type { Side, SideComment, SideIssue } from './model.js'
import {
  LIMITS,
  defuseMarkers,
  escapeQuickActions,
  fit,
  normalize,
  stripMarkers,
  unescapeQuickActions,
} from './text.js'

const FORGE: Record<Side, string> = { github: 'GitHub', gitlab: 'GitLab' }
const HEADER = /^> 🔁 Mirrored from (?:GitHub|GitLab)\b[^\n]*(?:\n|$)/
/** Room kept for the marker below the forge's limit. */
const MARKER_ROOM = 1024
const TRUNCATED = '\n\n… (truncated; the full text is at the link above)'

/** Text as compared: `\n` line ends, no leading blank lines, no trailing blanks. */
export const canonical = (text: string | null | undefined) => normalize(text).replace(/^(?:[ \t]*\n)+/, '')

/** A title as both forges store it: trimmed, one line, within the target's limit. */
export const fitTitle = (title: string, side: Side) =>
  [...title.replace(/\s+/g, ' ').trim()].slice(0, LIMITS[side].title).join('')

/** `> 🔁 Mirrored from GitHub: [acme/widgets#12](url) (opened by **alice**)`; never an @-mention. */
export const issueHeader = (from: SideIssue, place: string, note = '') =>
  `> 🔁 Mirrored from ${FORGE[from.side]}: [${place}#${from.number}](${from.url}) (opened by **${from.author}**)${note}`

/** Content as a side stores it: GitLab gets its quick actions escaped. */
const encodeFor = (side: Side, content: string) =>
  side === 'gitlab' ? escapeQuickActions(defuseMarkers(content)) : defuseMarkers(content)

/** The body of a mirror on `side` without its marker, fitted to the side's limit. */
export function mirrorBody(side: Side, header: string, content: string): string {
  const wrap = (c: string) => (c ? `${header}\n\n${encodeFor(side, c)}` : header)
  return fit(content, LIMITS[side].body - MARKER_ROOM, wrap, TRUNCATED)
}

/** The body written to an origin issue (content only), fitted to the side's limit. */
export const originBody = (side: Side, content: string) =>
  fit(content, LIMITS[side].body, (c) => encodeFor(side, c), TRUNCATED)

/** Appends the marker to a mirror body. */
export const withMarker = (body: string, marker: string) => `${body}\n\n${marker}`

/** The comparable content of a stored body: a mirror loses its link and marker, GitLab its escapes. */
export function readBody(side: Side, raw: string, mirror: boolean): string {
  let text = canonical(raw)
  if (mirror) text = canonical(stripMarkers(text).replace(HEADER, ''))
  return canonical(side === 'gitlab' ? unescapeQuickActions(text) : text)
}

/** A mirrored comment without its marker: who said it where (a link, no @-mention), and `content`. */
export function commentText(side: Side, from: SideComment, fromSide: Side, content: string): string {
  const header = `> 💬 **${from.author}** commented on ${FORGE[fromSide]}: [link](${from.url})`
  const wrap = (c: string) => (c ? `${header}\n\n${encodeFor(side, c)}` : header)
  return fit(canonical(content), LIMITS[side].comment - MARKER_ROOM, wrap, TRUNCATED)
}
