/** Elements whose contents Sanitize drops with them (its default `remove_contents`). */
const DROPPED =
  /<(script|style|iframe|math|noembed|noframes|noscript|plaintext|svg|xmp)\b[^>]*>[\s\S]*?<\/\1\s*>/gi
const TAG = /<\/?[a-zA-Z][^>]*>|<!--[\s\S]*?-->/g
const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const unescape = (_: string, name: string) => {
  const lower = name.toLowerCase()
  if (!lower.startsWith('#')) return NAMED[lower] as string
  const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : Number(lower.slice(1))
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : `&${name};`
}

/**
 * `CGI.unescapeHTML(Sanitize.clean(value))`, as GitLab writes label and milestone titles and label
 * descriptions (`app/models/label.rb`, `timebox.rb`): markup goes, its text stays, `&` and `<`
 * alone are text. An approximation of Sanitize's HTML parser for the markup people type.
 */
export function plainText(value: string): string {
  return value.replace(DROPPED, '').replace(TAG, '').replace(ENTITY, unescape)
}

/** What `title=` and `description=` write (labels, milestones): the sanitized text, nothing for a blank value. */
export function writtenText(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : plainText(value)
}
