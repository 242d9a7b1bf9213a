/*
 * How a file's bytes are shown and served: text or binary, and the safe content type and disposition
 * of a raw download as GitLab Workhorse picks them (`workhorse/internal/headers/content_headers.go`,
 * `SafeContentHeaders`, behind `Projects::RawController` and `WorkhorseHelper#send_git_blob`).
 */

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Binary as git and GitLab judge it: a NUL in the first 8000 bytes, or bytes that are not UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8000).includes(0)) return true
  try {
    utf8.decode(bytes)
    return false
  } catch {
    return true
  }
}

/**
 * Signatures `http.DetectContentType` knows, of the types Workhorse lets a browser show inline: the
 * bytes at the start (`null` for any byte), then the type.
 */
const SIGNATURES: [(number | null)[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
  [[...Buffer.from('GIF87a')], 'image/gif'],
  [[...Buffer.from('GIF89a')], 'image/gif'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[...Buffer.from('RIFF'), null, null, null, null, ...Buffer.from('WEBP')], 'image/webp'],
  [[...Buffer.from('BM')], 'image/bmp'],
  [[0, 0, 1, 0], 'image/x-icon'],
  [[...Buffer.from('%PDF-')], 'application/pdf'],
]
const startsWith = (bytes: Uint8Array, signature: (number | null)[]) =>
  bytes.length >= signature.length && signature.every((b, i) => b === null || bytes[i] === b)

/** An SVG file (Workhorse's `svg.Is`): shown as an image it could run script, so it is downloaded. */
const isSvg = (head: string) =>
  /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)

/**
 * The `Content-Type` and `Content-Disposition` of a raw file named `name`: text of any kind is
 * `text/plain; charset=utf-8` (never HTML a browser would run), images but SVG, and PDFs keep their
 * type; those, and text, are `inline` (unless `asked` is `attachment`: Workhorse keeps an attachment);
 * anything else is `application/octet-stream` and `attachment`.
 * The disposition carries the name as Rails' `ActionDispatch::Http::ContentDisposition` writes it.
 */
export function rawContentHeaders(
  bytes: Uint8Array,
  name: string,
  asked: 'inline' | 'attachment' = 'inline',
): { type: string; disposition: string } {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1')
  const known = SIGNATURES.find(([signature]) => startsWith(bytes, signature))?.[1]
  const type = isSvg(head)
    ? 'image/svg+xml'
    : (known ?? (isBinary(bytes) ? 'application/octet-stream' : 'text/plain; charset=utf-8'))
  const inline = asked === 'inline' && type !== 'image/svg+xml' && type !== 'application/octet-stream'
  return { type, disposition: contentDisposition(inline ? 'inline' : 'attachment', name) }
}

/**
 * `ActionDispatch::Http::ContentDisposition.format`: `<disposition>; filename="<ascii>";
 * filename*=UTF-8''<name>`, the ASCII name with what is not safe in a quoted header value
 * percent-escaped, accents dropped as `I18n.transliterate` drops them and other non-ASCII characters `?`.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const escape = (text: string, unsafe: RegExp) =>
    text.replace(unsafe, (c) =>
      [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    )
  const latin = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
  const ascii = escape(latin.replace(/[^ -~]/gu, '?'), /[^ A-Za-z0-9!#$+.^_`|~-]/g)
  const utf8Name = escape(name, /[^A-Za-z0-9!#$&+.^_`|~-]/gu)
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${utf8Name}`
}
