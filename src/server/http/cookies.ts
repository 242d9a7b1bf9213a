/**
 * The value of cookie `name` in a `Cookie` header (RFC 6265 `cookie-string`), or undefined. Only
 * the HTML pages and the form post of the emulator's reset read one; the API reads tokens only.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim()
  }
  return undefined
}
