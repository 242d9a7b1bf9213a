/**
 * A job's script lines run deterministically, as the emulator's stand-in for a runner's shell (our
 * semantics; a real runner runs them in `bash` with `set -eo pipefail`):
 *
 * - each line is printed first as gitlab-runner prints it (`$ command` in bold green, only the first
 *   line of a multi-line command, followed by ` # collapsed multi-line command`);
 * - `echo [-n] words` prints the words, `$VAR`/`${VAR}` expanded (not inside single quotes);
 *   `echo ... > file` and `>> file` write or append to the file in the job's workspace instead;
 * - `cat file` prints a workspace file, or a file variable's file by its absolute path (a missing one
 *   fails the line with exit code 1, as `cat` does);
 * - `export NAME=value` and `NAME=value` set a variable for the lines after;
 * - `exit N` ends the script with code N (`exit` alone with 0), `false` ends it with 1 (`set -e`);
 * - every other command succeeds silently.
 *
 * Paths are relative to the workspace; a path outside it (absolute, or climbing with `..`) is not kept.
 */

/** ANSI sequences of gitlab-runner's trace (`helpers/trace/ansi.go`'s ANSI_BOLD_GREEN ... ANSI_RESET). */
export const ANSI = {
  boldGreen: '\x1b[32;1m',
  boldRed: '\x1b[31;1m',
  boldCyan: '\x1b[36;1m',
  yellow: '\x1b[0;33m',
  reset: '\x1b[0;m',
  clear: '\x1b[0K',
} as const

/** A trace as a reader sees it: section markers and ANSI sequences (colours, line clears) gone. */
export function plainTrace(trace: string): string {
  const ESC = String.fromCharCode(27)
  return trace
    .split(
      new RegExp(`section_end:\\d+:[^\\r\\n]*\\r${ESC}\\[0K\\n?|section_start:\\d+:[^\\r\\n]*\\r${ESC}\\[0K`),
    )
    .join('')
    .split(new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`))
    .join('')
}

export interface ScriptResult {
  /** The trace lines the script printed, each ending with `\n`. */
  output: string
  /** 0 when every line ran; the code of the `exit` (or failing command) that ended it otherwise. */
  exitCode: number
}

/** The job's workspace: relative path to content. */
export type Workspace = Map<string, Buffer>

/** Files outside the workspace the script may read (file variables' files): absolute path to content. */
export type OutsideFiles = ReadonlyMap<string, string>

/** Normalises a workspace path (`./a//b` to `a/b`); undefined when it leaves the workspace. */
export function workspacePath(path: string): string | undefined {
  if (path.startsWith('/') || path.startsWith('~')) return undefined
  const parts: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (parts.length === 0) return undefined
      parts.pop()
    } else parts.push(part)
  }
  return parts.length === 0 ? undefined : parts.join('/')
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Expands `$VAR` and `${VAR}`; unknown variables expand to nothing, as in a shell. */
export function expand(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_m, braced: string | undefined, bare: string | undefined) => vars.get((braced ?? bare) as string) ?? '',
  )
}

interface Word {
  text: string
  /** An unquoted `>` or `>>`. */
  redirect?: '>' | '>>'
}

/** Splits a command into shell words: quotes removed, variables expanded outside single quotes. */
function words(line: string, vars: ReadonlyMap<string, string>): Word[] {
  const out: Word[] = []
  let current: string | undefined
  let i = 0
  const push = () => {
    if (current !== undefined) out.push({ text: current })
    current = undefined
  }
  while (i < line.length) {
    const c = line[i] as string
    if (c === ' ' || c === '\t') {
      push()
      i++
    } else if (c === '>') {
      push()
      const append = line[i + 1] === '>'
      out.push({ text: append ? '>>' : '>', redirect: append ? '>>' : '>' })
      i += append ? 2 : 1
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1)
      const stop = end < 0 ? line.length : end
      current = (current ?? '') + line.slice(i + 1, stop)
      i = stop + 1
    } else if (c === '"') {
      let j = i + 1
      let raw = ''
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) {
          raw += line[j + 1] === '$' ? '\u0000' : line[j + 1]
          j += 2
        } else raw += line[j++]
      }
      current = (current ?? '') + expand(raw, vars).split('\u0000').join('$')
      i = j + 1
    } else if (c === '\\' && i + 1 < line.length) {
      current = (current ?? '') + line[i + 1]
      i += 2
    } else {
      let j = i
      while (j < line.length && !' \t\'">\\'.includes(line[j] as string)) j++
      current = (current ?? '') + expand(line.slice(i, j), vars)
      i = j
    }
  }
  push()
  return out
}

/** How the runner shows a script line: the first line in bold green, a longer command collapsed. */
export function commandLine(command: string): string {
  const [first = ''] = command.split('\n')
  const more = command.trimEnd().includes('\n') ? ' # collapsed multi-line command' : ''
  return `${ANSI.boldGreen}$ ${first}${more}${ANSI.reset}\n`
}

/**
 * Runs `lines` against `workspace` (changed in place) and `vars` (a copy is changed), as the header
 * describes; stops at the first line that ends the script.
 */
export function runScript(
  lines: readonly string[],
  vars: ReadonlyMap<string, string>,
  workspace: Workspace,
  outside: OutsideFiles = new Map(),
): ScriptResult {
  const env = new Map(vars)
  let output = ''
  for (const line of lines) {
    output += commandLine(line)
    const code = runLine(line.trim(), env, workspace, outside, (text) => (output += text))
    if (code !== 0) return { output, exitCode: code }
  }
  return { output, exitCode: 0 }
}

/** One command; answers its exit code. */
function runLine(
  line: string,
  env: Map<string, string>,
  workspace: Workspace,
  outside: OutsideFiles,
  print: (text: string) => void,
): number {
  const all = words(line, env)
  const [head, ...rest] = all
  if (!head || head.redirect) return 0
  const command = head.text
  if (command === 'exit') {
    const code = rest[0] ? Number.parseInt(rest[0].text, 10) : 0
    return Number.isNaN(code) ? 2 : ((code % 256) + 256) % 256
  }
  if (command === 'false') return 1
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s
  if (command === 'export' || assignment.test(command)) {
    for (const w of command === 'export' ? rest : all) {
      const m = assignment.exec(w.text)
      if (m && NAME.test(m[1] as string)) env.set(m[1] as string, m[2] as string)
    }
    return 0
  }
  const at = rest.findIndex((w) => w.redirect)
  const args = (at < 0 ? rest : rest.slice(0, at)).map((w) => w.text)
  const redirect = at < 0 ? undefined : rest[at]
  const target = redirect ? rest[at + 1] : undefined
  let text: string | undefined
  if (command === 'echo') {
    const noNewline = args[0] === '-n'
    text = `${(noNewline ? args.slice(1) : args).join(' ')}${noNewline ? '' : '\n'}`
  } else if (command === 'cat') {
    text = ''
    for (const name of args) {
      const path = workspacePath(name)
      const content = path === undefined ? outside.get(name) : workspace.get(path)?.toString('utf8')
      if (content === undefined) {
        print(`cat: ${name}: No such file or directory\n`)
        return 1
      }
      text += content
    }
  }
  if (text === undefined) return 0
  if (redirect && target) {
    const path = workspacePath(target.text)
    if (path !== undefined) {
      const before = redirect.redirect === '>>' ? (workspace.get(path) ?? Buffer.alloc(0)) : Buffer.alloc(0)
      workspace.set(path, Buffer.concat([before, Buffer.from(text, 'utf8')]))
    }
  } else print(text.endsWith('\n') || text === '' ? text : `${text}\n`)
  return 0
}
