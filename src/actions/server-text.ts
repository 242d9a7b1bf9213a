/*
 * Text a server chose (GitLab's paths, URLs and errors, GitHub's titles, an upload target's
 * answers) on its way to the runner. The runner reads every line whose first non-blank characters
 * are `::` as a workflow command (`::add-mask::`, `::stop-commands::`; actions/runner
 * `ActionCommand.TryParseV2`), and a step output put in a `run:` script is shell text. So server
 * text is made one line here, with control characters shown as escapes, before it is logged or
 * becomes an output.
 */
import { isAbsolute, relative, resolve } from 'node:path'

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }
const escaped = (c: string) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/** One line without control characters that cannot open a workflow command (a leading `::` is escaped). */
export function oneLine(text: unknown): string {
  return String(text ?? '')
    .replace(CONTROL, escaped)
    .replace(/^(\s*):/, '$1\\:')
}

/** What GitLab's own addresses are made of; no shell metacharacters (`$`, quotes, `;`, `(`, spaces). */
const URL_CHARS = /^[A-Za-z0-9._~:/?#@%&=+-]+$/

/**
 * `url` when it is an http(s) address on `base`'s host (GitLab's `web_url` of something on the
 * configured GitLab) made only of plain URL characters, else undefined: it becomes a step output
 * that workflows open or echo.
 */
export function urlOnHost(url: unknown, base: string): string | undefined {
  if (typeof url !== 'string' || !URL_CHARS.test(url)) return undefined
  try {
    const u = new URL(url)
    const ok = (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password
    return ok && u.host === new URL(base).host ? url : undefined
  } catch {
    return undefined
  }
}

// Windows forbids these characters and device names in file names (Win32 "Naming Files").
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029<>:"/\\|?*]/g
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i

/**
 * A file name made of server text that is safe on every platform: no separators (`/`, `\`), no
 * control or Windows-reserved characters, no leading dot and no `..`, no device name, no trailing dot or space.
 */
export function safeFileName(text: string, maxLength = 200): string {
  let name = text.replace(UNSAFE, '_').replace(/^\.+|\.{2,}/g, (dots) => '_'.repeat(dots.length))
  name = name.slice(0, maxLength).replace(/[. ]+$/, '_')
  if (!name) name = '_'
  return DEVICE.test(name) ? `_${name}` : name
}

/** `dir/name`, or an Error when the path would leave `dir` (checked after resolving). */
export function pathInside(dir: string, name: string): string {
  const root = resolve(dir)
  const file = resolve(root, name)
  const rel = relative(root, file)
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`refusing to write outside ${root}`)
  return file
}
