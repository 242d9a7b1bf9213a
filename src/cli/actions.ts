/*
 * `gitlab-actions trigger-pipeline|export-project|import-project [--flags]`: the actions from a
 * terminal or another CI. Flags mirror the inputs, from the
 * same tables, so flags, `--help`, action.yml and docs/actions.md cannot drift. Values come from a flag,
 * else the runner's `INPUT_<NAME>`, else the input's environment fallbacks (GITLAB_URL /
 * CI_SERVER_URL, GITLAB_TOKEN, CI_JOB_TOKEN), else its default.
 *
 * Exit codes: 0 done; 1 the action failed (pipeline failed, export or import failed, GitLab refused);
 * 2 bad flags or inputs; 130 stopped by SIGINT/SIGTERM.
 */
import { actionNamed, catalog, type ActionEntry } from '../actions/catalog.js'
import { InputError, inputVariable, type InputTable } from '../actions/inputs.js'
import type { ActionIO } from '../actions/io.js'
import { oneLine } from '../actions/server-text.js'

type Runner = (io: ActionIO, signal?: AbortSignal) => Promise<void>

/**
 * How each command runs. Another action (sync-issues) joins by adding its catalog entry and one
 * line here: `'sync-issues': async () => (await import('../actions/sync-issues/run.js')).run`.
 */
export const runners: Record<string, () => Promise<Runner>> = {
  'trigger-pipeline': async () => (await import('../actions/trigger-pipeline/run.js')).run,
  'export-project': async () => (await import('../actions/export-project/run.js')).run,
  'import-project': async () => (await import('../actions/import-project/run.js')).run,
  'sync-issues': async () => (await import('../actions/sync-issues/run.js')).run,
}

/** The commands this CLI can run, with their one-line descriptions (for the top-level usage). */
export const actionCommands = () => catalog.filter((a) => a.name in runners)

const boolInputs = (table: InputTable) =>
  new Set(
    Object.entries(table)
      .filter(([, s]) => s.default === 'true' || s.default === 'false')
      .map(([n]) => n),
  )

/** `--help` text of a command, made from its input table. */
export function actionHelp(entry: ActionEntry): string {
  const bools = boolInputs(entry.inputs)
  const rows = Object.entries(entry.inputs).map(([name, spec]) => {
    const flag = bools.has(name) ? `--[no-]${name}` : `--${name} VALUE`
    // An expression default (`${{ github.token }}`) means nothing in a terminal: say what stands in for it.
    const expression = spec.default?.startsWith('${{')
    const notes = [
      spec.required ? 'required' : undefined,
      spec.default !== undefined && !expression ? `default ${spec.default}` : undefined,
      expression ? `in GitHub Actions default ${spec.default}; here ${spec.cliDefault ?? 'none'}` : undefined,
      spec.env?.length ? `env ${spec.env.join(', ')}` : undefined,
    ].filter(Boolean)
    return `  ${flag.padEnd(34)} ${spec.description}${notes.length ? ` (${notes.join('; ')})` : ''}`
  })
  const outputs = Object.entries(entry.outputs).map(([n, d]) => `  ${n.padEnd(34)} ${d}`)
  return [
    `Usage: gitlab-actions ${entry.name} [options]`,
    '',
    `${entry.description}.`,
    '',
    'Options (the inputs of actions/' + entry.name + '/action.yml; INPUT_<NAME> variables work too):',
    ...rows,
    `  ${'--json'.padEnd(34)} print the outputs (or the error) as one JSON object on stdout`,
    `  ${'-h, --help'.padEnd(34)} show this help`,
    `  ${'-v, --version'.padEnd(34)} print the version`,
    '',
    'Outputs:',
    ...outputs,
    '',
    'Exit codes: 0 done, 1 the action failed, 2 bad options or inputs, 130 interrupted.',
    '',
  ].join('\n')
}

/** Flags to input values: `--name value`, `--name=value`, `--flag`, `--no-flag`. Throws InputError. */
export function parseFlags(table: InputTable, argv: string[]) {
  const values: Record<string, string> = {}
  const bools = boolInputs(table)
  let json = false
  let help = false
  let version = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--json') json = true
    else if (arg === '-h' || arg === '--help') help = true
    else if (arg === '-v' || arg === '--version') version = true
    else if (arg.startsWith('--no-') && bools.has(arg.slice(5))) values[arg.slice(5)] = 'false'
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
      if (!(name in table)) throw new InputError(`Unknown option '--${name}'`)
      if (eq > 0) values[name] = arg.slice(eq + 1)
      else if (bools.has(name) && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--')))
        values[name] = 'true'
      else if (argv[i + 1] === undefined) throw new InputError(`Option '--${name}' needs a value`)
      else values[name] = argv[++i] as string
    } else throw new InputError(`Unexpected argument '${arg}'`)
  }
  return { values, json, help, version }
}

/** An ActionIO for a terminal: logs to stderr with secrets masked, outputs collected, no summary file. */
function terminalIO(values: Record<string, string>, env: NodeJS.ProcessEnv, quiet: boolean) {
  const secrets: string[] = []
  const mask = (text: string) => secrets.reduce((t, s) => t.split(s).join('***'), text)
  const outputs: Record<string, string> = {}
  const state: { error?: string } = {}
  // oneLine: server text must not write terminal control sequences (ESC) or fake lines.
  const log = (prefix: string) => (m: string) => void process.stderr.write(`${prefix}${mask(oneLine(m))}\n`)
  const io: ActionIO = {
    getInput: (name) => values[name] ?? env[inputVariable(name)] ?? '',
    getEnv: (name) => env[name] || undefined,
    setSecret: (v) => void (v && secrets.push(v)),
    setOutput: (name, value) => void (outputs[name] = value),
    info: quiet ? () => undefined : log(''),
    warning: log('warning: '),
    debug: env.RUNNER_DEBUG === '1' ? log('debug: ') : () => undefined,
    summary: async () => undefined,
    fail: (err) => void (state.error = mask(err instanceof Error ? err.message : String(err))),
  }
  return { io, outputs, state, mask }
}

/**
 * An input error as a terminal user meets it: inputs are flags here, so `Input 'ref' ...` reads
 * `Option '--ref' ...` and a missing required input names its flag.
 */
export const asFlags = (message: string) =>
  message
    .replace(
      /^Input required and not supplied: ([\w-]+)/,
      (_, name: string) => `Option '--${name}' is required (or set ${inputVariable(name)} or its variable)`,
    )
    .replace(/^Input '([\w-]+)'/, "Option '--$1'")
    .replace(/Input '([\w-]+)'/g, "'--$1'")

/** Runs one action command; returns the exit code. */
export async function runActionCommand(name: string, argv: string[], env = process.env): Promise<number> {
  const entry = actionNamed(name)
  const load = runners[name]
  if (!entry || !load) throw new Error(`unknown action '${name}'`)
  let flags: ReturnType<typeof parseFlags>
  try {
    flags = parseFlags(entry.inputs, argv)
  } catch (err) {
    process.stderr.write(
      `${(err as Error).message}\n\nRun 'gitlab-actions ${name} --help' for the options.\n`,
    )
    return 2
  }
  if (flags.help) {
    process.stdout.write(actionHelp(entry))
    return 0
  }
  if (flags.version) {
    const { VERSION } = await import('./version.js')
    process.stdout.write(`${VERSION}\n`)
    return 0
  }
  const { io, outputs, state, mask } = terminalIO(flags.values, env, false)
  const controller = new AbortController()
  const stop = (signal: NodeJS.Signals) => {
    if (!controller.signal.aborted) {
      process.stderr.write(`received ${signal}: stopping\n`)
      controller.abort(new Error(`interrupted (${signal})`))
    }
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  let code = 0
  try {
    await (
      await load()
    )(io, controller.signal)
    if (state.error) code = 1
  } catch (err) {
    state.error = mask(err instanceof Error ? err.message : String(err))
    code = err instanceof InputError || /^Input /.test(state.error) ? 2 : 1
    if (code === 2) state.error = asFlags(state.error)
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  if (controller.signal.aborted) code = 130
  if (flags.json) process.stdout.write(`${JSON.stringify({ ok: code === 0, outputs, error: state.error })}\n`)
  else {
    for (const [k, v] of Object.entries(outputs)) process.stdout.write(`${k}: ${oneLine(v)}\n`)
    if (state.error) process.stderr.write(`error: ${oneLine(state.error)}\n`)
  }
  return code
}
