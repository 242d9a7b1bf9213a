/*
 * The last lines of a GitLab job trace, as a person reads them on GitLab's job page: colours gone,
 * `\r` progress lines resolved to what the terminal finally showed, the runner's collapsible
 * section markers folded into one header line each, and every secret masked. Pure: no I/O.
 *
 * Trace shape (gitlab-runner `helpers/trace`, GitLab's `lib/gitlab/ci/ansi2json/`): a section opens
 * with `section_start:<unix time>:<name>[options]\r\e[0K<header text>` and closes with
 * `section_end:<unix time>:<name>\r\e[0K`; lines are coloured with SGR escapes (`\e[32;1m`).
 */

/** How the runner masks: what GitHub prints in place of a registered secret. */
export const MASK = '***'

/**
 * GitLab token shapes (`glpat-`, `glptt-`, `glcbt-`, `gldt-`, `glrt-`, ... and the CI job token
 * `glcbt-` with its partition prefix): masked even when the action was not given them, since a job
 * that echoes its own `CI_JOB_TOKEN` or another credential must not carry it into GitHub.
 * Our choice; GitLab's masking knows its variables' values instead.
 */
const TOKEN_SHAPE = /\bgl[a-z]{2,6}-[A-Za-z0-9_-]{16,}/g

// eslint-disable-next-line no-control-regex
const SECTION = /section_(start|end):\d+:([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\r?(?:\x1b\[0?K)?/g
/** CSI (`\e[...m`, `\e[0K`), OSC (`\e]...BEL`), and two-character escapes. */
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g
/** Erase-line escapes (`\e[K`, `\e[0K`, `\e[2K`), kept apart so that they can clear what follows the cursor. */
// eslint-disable-next-line no-control-regex
const ERASE = /^\x1b\[[02]?K/
// eslint-disable-next-line no-control-regex
const OTHER_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

/**
 * What a terminal shows for one line: `\r` moves back to the start and what follows overwrites,
 * `\e[K` clears the rest of the line; every other escape and control character goes.
 */
export function resolveLine(raw: string): string {
  const cells: string[] = []
  let cursor = 0
  for (let i = 0; i < raw.length;) {
    const ch = raw[i] as string
    if (ch === '\r') {
      cursor = 0
      i++
      continue
    }
    if (ch === '\x1b') {
      const rest = raw.slice(i, i + 64)
      const erase = ERASE.exec(rest)
      if (erase) {
        cells.length = cursor
        i += erase[0].length
        continue
      }
      ESCAPE.lastIndex = 0
      const esc = ESCAPE.exec(rest)
      i += esc && esc.index === 0 ? esc[0].length : 1
      continue
    }
    const cp = raw.codePointAt(i) as number
    const char = String.fromCodePoint(cp)
    i += char.length
    if (!OTHER_CONTROL.test(char)) cells[cursor++] = char
  }
  return cells.join('')
}

/** Replaces each secret (and anything shaped like a GitLab token) with `***`; longest secrets first. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of [...new Set(secrets)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length))
    out = out.split(secret).join(MASK)
  return out.replace(TOKEN_SHAPE, MASK)
}

/** The GitLab-token-shaped strings in `text` (to register with the runner's masking too). */
export const tokensIn = (text: string): string[] => [...new Set(text.match(TOKEN_SHAPE) ?? [])]

/**
 * One trace line, readable: a `section_start` becomes `▸ <header text>` (or `▸ <name>` without
 * one), a `section_end` disappears with whatever it left empty; undefined for a line that holds
 * nothing but section ends.
 */
function foldSections(line: string): string | undefined {
  let header: string | undefined
  let sawEnd = false
  const rest = line.replace(SECTION, (_m, kind: string, name: string) => {
    if (kind === 'start') header = name
    else sawEnd = true
    return ''
  })
  const text = resolveLine(rest)
  if (header !== undefined) return `▸ ${text.trim() || header}`
  if (sawEnd && text.trim() === '') return undefined
  return text
}

export interface TailOptions {
  /** How many lines to keep (the last ones). */
  lines: number
  /** Values to mask (the action's tokens); GitLab-token-shaped strings are masked too. */
  secrets: readonly string[]
}

/** Longest raw line kept whole (a trace that never breaks its lines must not fill the memory). */
const MAX_LINE = 64 * 1024

/**
 * The readable tail of a trace read piece by piece (a trace may be many megabytes): only the last
 * `lines` folded lines are ever held. `push` text as it arrives, then `end()` for the lines:
 * sections folded, progress resolved, escapes and control characters gone, secrets masked,
 * trailing blank lines dropped. The count is taken after folding, so section ends never use it up.
 */
export class TailCollector {
  private readonly kept: string[] = []
  private partial = ''
  /** The GitLab-token-shaped strings the returned lines had before masking (to register with the runner). */
  readonly tokens = new Set<string>()
  constructor(private readonly options: TailOptions) {}

  push(text: string): void {
    const parts = (this.partial + text).split('\n')
    this.partial = (parts.pop() as string).slice(-MAX_LINE)
    for (const raw of parts) this.add(raw)
  }

  end(): string[] {
    if (this.partial !== '') this.add(this.partial)
    this.partial = ''
    while (this.kept.length > 0 && this.kept[this.kept.length - 1] === '') this.kept.pop()
    const shown = this.kept.slice(Math.max(0, this.kept.length - this.options.lines))
    for (const line of shown) for (const token of tokensIn(line)) this.tokens.add(token)
    return shown.map((l) => maskSecrets(l, this.options.secrets))
  }

  private add(raw: string): void {
    const line = foldSections(raw.slice(-MAX_LINE))
    if (line === undefined) return
    this.kept.push(line.replace(/\s+$/, ''))
    // Blank lines at the end are dropped later: keep a few more than asked so that they cannot crowd out text.
    if (this.kept.length > this.options.lines + 64)
      this.kept.splice(0, this.kept.length - this.options.lines - 64)
  }
}

/** logTail of a whole trace (see TailCollector). */
export function logTail(trace: string, options: TailOptions): string[] {
  const tail = new TailCollector(options)
  tail.push(trace)
  return tail.end()
}
