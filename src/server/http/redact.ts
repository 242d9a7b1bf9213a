/*
 * What the request log keeps of secrets: nothing. Names as Rails' `filter_parameters` in GitLab
 * (`config/application.rb`: token, password, secret, key...) are written `[FILTERED]`, as in
 * GitLab's own logs.
 */

const SECRET_NAME = /token|secret|passw|(?:^|_)key$|^authorization$|^otp/i
export const FILTERED = '[FILTERED]'
/** Characters of a body the log keeps. */
export const BODY_LIMIT = 4096

/** A query parameter may hold a secret (also when its name is URL-encoded): worth redacting. */
const MAYBE_SECRET = /[?&][^=&#]*(?:token|secret|passw|key|otp|%)/i

const decodedName = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

/** The URL with the values of secret query parameters `[FILTERED]`; the same string when it has none. */
export function redactUrl(url: string): string {
  if (!MAYBE_SECRET.test(url)) return url
  const q = url.indexOf('?')
  return (
    url.slice(0, q) +
    url
      .slice(q)
      .replace(/([?&])([^=&]*)=([^&]*)/g, (pair, sep: string, name: string) =>
        SECRET_NAME.test(decodedName(name).replace(/\[\]$/, '')) ? `${sep}${name}=${FILTERED}` : pair,
      )
  )
}

/** A parsed body with the values of secret keys `[FILTERED]`, at any depth. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    out[k] = SECRET_NAME.test(k) && v !== null && typeof v !== 'object' ? FILTERED : redactValue(v, depth + 1)
  return out
}

/** `key: value`, `key=value` and `"key": "value"` pairs of secret names in a text (a form, YAML). */
const SECRET_PAIR =
  /((?:^|[\s{,&?"'])["']?[\w.[\]-]*(?:token|secret|passw|_key|otp)[\w.[\]-]*["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,&}]+)/gim

/** A text body (a form, YAML, plain text) with the values of secret names `[FILTERED]`. */
export const redactText = (text: string) => text.replace(SECRET_PAIR, `$1${FILTERED}`)

/** A JSON text redacted, or as text when it is none. */
export function redactJsonText(text: string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text)))
  } catch {
    return redactText(text)
  }
}

/** JSON up to this size is parsed to be redacted; a larger one is redacted as text, its start only. */
const PARSED_JSON_LIMIT = 65_536

/**
 * Redacted text cut at `BODY_LIMIT` characters, with the length of the whole when it was longer.
 * The cut is copied: V8 keeps a slice as a view of the whole string, which would keep a large
 * answer in memory for as long as its entry stays in the log.
 */
export const cut = (redacted: string, length = redacted.length) =>
  redacted.length <= BODY_LIMIT && length <= BODY_LIMIT
    ? redacted
    : Buffer.from(`${redacted.slice(0, BODY_LIMIT)}...[${length} characters in all]`).toString()

/** A body as the log keeps it: redacted, its first `BODY_LIMIT` characters and the length of the whole. */
export function loggedText(text: string, json: boolean): string {
  const redacted =
    json && text.length <= PARSED_JSON_LIMIT
      ? redactJsonText(text)
      : redactText(text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text)
  return cut(redacted, text.length)
}
