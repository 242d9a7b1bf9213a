/*
 * Text a server chose (GitLab's paths, URLs and errors, GitHub's titles, an upload target's
 * answers) on its way to the runner. The runner reads a line as a workflow command in two ways
 * (actions/runner `ActionCommandManager.TryProcessCommand`): when its first non-blank characters
 * are `::` (`::add-mask::`, `::stop-commands::`; `ActionCommand.TryParseV2`), and, failing that,
 * when `##[` appears ANYWHERE in it (`##[set-output name=x]value`; the older `ActionCommand.TryParse`).
 * Both look with .NET's culture-sensitive `StartsWith`/`IndexOf`, which on ICU skip ignorable
 * characters (zero-width, soft hyphen, variation selectors) between the ones they look for. And a
 * step output put in a `run:` script is shell text. So server text is made one line here, with
 * control characters shown as escapes and neither form of command left in it, before it is logged
 * or becomes an output.
 */
import { isAbsolute, relative, resolve } from 'node:path'

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }
const escaped = (c: string) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/** Characters that may stand unseen between a command's characters (more than ICU skips: safe side). */
const INVISIBLE = '\\p{Default_Ignorable_Code_Point}\\p{Cf}\\p{Mn}\\p{Me}'
// One character class each, never a nested quantifier: linear on any input.
const LEADING = new RegExp(`^([\\s${INVISIBLE}]*):`, 'u')
const LEGACY = new RegExp(`#[${INVISIBLE}]*#[${INVISIBLE}]*\\[`, 'gu')

/**
 * One line without control characters that cannot hold a workflow command: a leading `:` is
 * escaped (`\:`), and so is the `[` of every `##[` (`##\[`), invisible characters between them or not.
 */
export function oneLine(text: unknown): string {
  return String(text ?? '')
    .replace(CONTROL, escaped)
    .replace(LEADING, '$1\\:')
    .replace(LEGACY, (found) => `${found.slice(0, -1)}\\[`)
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

// GitLab's object names (SHA-1, or SHA-256 in a repository of that format), full paths
// (`Gitlab::PathRegex`: segments of letters, digits, `_`, `.` and `-` that neither start with `-`
// nor end with `.`), and status words (`success`, `scheduled`).
const SEGMENT = '(?:[A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])'
const SHAPES = {
  sha: { test: /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, is: 'a commit SHA (40 or 64 hex digits)' },
  path: { test: new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`), is: 'a GitLab path (group/project)' },
  word: { test: /^[a-z][a-z_]*$/, is: 'a status word (a-z and _)' },
} as const

/** `value` when it has `shape` (then it is safe in a log line, a file name part or a shell word), else undefined. */
export const shaped = (value: unknown, shape: keyof typeof SHAPES): string | undefined =>
  typeof value === 'string' && SHAPES[shape].test.test(value) ? value : undefined

/**
 * Sets step output `name` to `value`, GitLab's `field`, when it has `shape`; otherwise leaves the
 * output out and says why in a warning, as for a `web-url` off the GitLab host.
 */
export function setShapedOutput(
  // ActionIO's two methods, written out: io.ts imports this module (its log lines go through oneLine).
  io: { setOutput(name: string, value: string): void; warning(message: string): void },
  name: string,
  value: unknown,
  field: string,
  shape: keyof typeof SHAPES,
): void {
  const ok = shaped(value, shape)
  if (ok !== undefined) io.setOutput(name, ok)
  else io.warning(`Output '${name}' not set: GitLab's ${field} is not ${SHAPES[shape].is}`)
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
