/*
 * Runs the local-action steps of a GitHub workflow job the way a runner does, so that tests can
 * check what users write (`uses: ./actions/<name>` and `uses: ./`) against the real composite
 * action.yml files and bundles. What it implements of GitHub's runner, and no more:
 * - expressions `${{ ... }}` over `inputs`, `env`, `steps.<id>.outputs`, `github` and `runner`,
 *   with string literals, `==` and `!=` (strings compared case-insensitively), `!`, `&&`, `||`
 *   (each giving an operand, as GitHub's do) and parentheses;
 * - composite actions: inputs with their defaults, `if:` conditions, `run:` steps in bash with
 *   their `env:`, `$GITHUB_ACTION_PATH`, and outputs read from `$GITHUB_OUTPUT`;
 * - in the job: the local-action steps, and `run:` steps that are `test` assertions. Setup steps
 *   (checkout, setup-node, installing, starting the server) are the caller's: it passes the server.
 * A remote action (`uses: owner/repo@v`) whose condition holds inside a composite action throws.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'
import { parseOutputFile } from './action-run.js'

type Scope = Record<string, unknown>

interface Step {
  id?: string
  name?: string
  if?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, unknown>
}

interface ActionYml {
  inputs?: Record<string, { default?: string; required?: boolean }>
  outputs?: Record<string, { value: string }>
  runs: { using: string; steps: Step[] }
}

/** One step of the job as it ran: its outputs, exit code and what it printed. */
export interface StepRun {
  label: string
  code: number
  outputs: Record<string, string>
  log: string
  /** The job summary after the step (runJob). */
  summary?: string
}

const truthy = (v: unknown) => v !== '' && v !== false && v !== null && v !== undefined && v !== 0

const STATUS_FUNCTIONS = new Set(['always', 'success', 'failure'])

/** Evaluates one expression (the text inside `${{ }}`) in `scope`. */
export function evaluate(expr: string, scope: Scope): unknown {
  const tokens =
    expr.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[!()]|[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*|\S/g) ?? []
  let at = 0
  const peek = () => tokens[at]
  const next = () => tokens[at++]
  const primary = (): unknown => {
    const t = next()
    if (t === undefined) throw new Error(`unexpected end of ${expr}`)
    if (t === '(') {
      const v = or()
      if (next() !== ')') throw new Error(`missing ) in ${expr}`)
      return v
    }
    if (t === '!') return !truthy(primary())
    if (t.startsWith("'")) return t.slice(1, -1).replaceAll("''", "'")
    // The status functions, from `job.failed` in the scope (runJob keeps it).
    if (STATUS_FUNCTIONS.has(t) && peek() === '(') {
      next()
      if (next() !== ')') throw new Error(`${t}() takes no arguments in ${expr}`)
      const failed = (scope.job as Scope | undefined)?.failed === true
      return t === 'always' ? true : t === 'failure' ? failed : !failed
    }
    if (t === 'true' || t === 'false') return t === 'true'
    if (!/^[A-Za-z_]/.test(t)) throw new Error(`unsupported token ${t} in ${expr}`)
    let v: unknown = scope
    for (const key of t.split('.')) v = v && typeof v === 'object' ? (v as Scope)[key] : undefined
    return v ?? ''
  }
  const equality = (): unknown => {
    let v = primary()
    while (peek() === '==' || peek() === '!=') {
      const op = next()
      const rhs = primary()
      const same = String(v).toLowerCase() === String(rhs).toLowerCase()
      v = op === '==' ? same : !same
    }
    return v
  }
  const and = (): unknown => {
    let v = equality()
    while (peek() === '&&') {
      next()
      const rhs = equality()
      v = truthy(v) ? rhs : v
    }
    return v
  }
  const or = (): unknown => {
    let v = and()
    while (peek() === '||') {
      next()
      const rhs = and()
      v = truthy(v) ? v : rhs
    }
    return v
  }
  const value = or()
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]} in ${expr}`)
  return value
}

/** Replaces every `${{ expr }}` in `text`. */
export const interpolate = (text: string, scope: Scope) =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_m, expr: string) => String(evaluate(expr, scope)))

/**
 * An `if:` condition, with or without its `${{ }}`; absent means run. As on GitHub, a condition
 * without a status function (`always()`, `success()`, `failure()`) holds only while no step failed.
 */
const holds = (condition: string | undefined, scope: Scope) => {
  const failed = (scope.job as Scope | undefined)?.failed === true
  if (condition === undefined) return !failed
  const expr = condition.replace(/^\s*\$\{\{(.*)\}\}\s*$/, '$1')
  const status = /\b(always|success|failure)\s*\(/.test(expr)
  return (status || !failed) && truthy(evaluate(expr, scope))
}

/**
 * Runs a bash script as a runner runs a `run:` step (`bash -e`), in `cwd` with `env` added.
 * Asynchronous: the server under test may live in this very process.
 */
async function bash(script: string, env: Record<string, string>, cwd: string, launcher?: string) {
  const args = ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]
  // `launcher`: a program (a shell) that starts the step's bash as its child, as Runner.Worker does.
  const [command, argv] = launcher
    ? [launcher, ['-c', 'bash "$@"; exit $?', 'launcher', ...args]]
    : ['bash', args]
  const child = spawn(command, argv, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr.on('data', (d: Buffer) => (log += d.toString()))
  const [code] = (await once(child, 'close')) as [number | null]
  return { code: code ?? 1, log }
}

/**
 * Runs a local composite action (`dir` holds its action.yml) with `given` inputs, as a job step in
 * `job.cwd` (the workspace); its steps share `job.temp` as `RUNNER_TEMP`, where `summary.md` is the job summary.
 * `job.github` adds to the `github` context (`token`), `job.env` to every step's environment (a PATH of the
 * runner under test), `job.launcher` starts each step's bash (a stand-in for Runner.Worker).
 */
export async function runComposite(
  dir: string,
  given: Record<string, string>,
  job: {
    temp: string
    cwd: string
    github?: Record<string, string>
    env?: Record<string, string>
    launcher?: string
    /** A failed step's outputs stand (what it wrote before failing), as on GitHub. */
    failedOutputs?: boolean
  },
) {
  const yml = parse(readFileSync(join(dir, 'action.yml'), 'utf8')) as ActionYml
  if (yml.runs.using !== 'composite') throw new Error(`${dir}: not a composite action`)
  const inputs: Record<string, string> = {}
  const github = { action_path: dir, token: '', ...job.github }
  // Defaults are expressions too (`${{ github.token }}`), evaluated as the runner does.
  for (const [name, spec] of Object.entries(yml.inputs ?? {}))
    inputs[name] = given[name] ?? interpolate(spec.default ?? '', { github })
  for (const name of Object.keys(given))
    if (!(name in (yml.inputs ?? {}))) throw new Error(`${dir}: unexpected input ${name}`)
  const steps: Record<string, { outputs: Record<string, string> }> = {}
  const scope = () => ({
    inputs,
    steps,
    github,
    runner: { temp: job.temp },
  })
  let log = ''
  let code = 0
  for (const step of yml.runs.steps) {
    if (!holds(step.if, scope())) continue
    if (step.uses) throw new Error(`${dir}: step ${step.name ?? step.uses} needs ${step.uses}`)
    const outputFile = join(job.temp, `output-${Math.random().toString(36).slice(2)}`)
    writeFileSync(outputFile, '')
    writeFileSync(join(job.temp, 'summary.md'), '', { flag: 'a' })
    const env: Record<string, string> = {
      ...job.env,
      GITHUB_ACTION_PATH: dir,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: join(job.temp, 'summary.md'),
      RUNNER_TEMP: job.temp,
    }
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(String(v), scope())
    const ran = await bash(interpolate(step.run ?? '', scope()), env, job.cwd, job.launcher)
    log += ran.log
    if (ran.code !== 0 && !job.failedOutputs) return { code: ran.code, outputs: {}, log }
    if (step.id) steps[step.id] = { outputs: parseOutputFile(readFileSync(outputFile, 'utf8')) }
    if (ran.code !== 0) {
      code = ran.code
      break
    }
  }
  const outputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries(yml.outputs ?? {}))
    outputs[name] = interpolate(spec.value, scope())
  return { code, outputs, log }
}

/**
 * Runs job `jobName` of the workflow at `workflowPath` (repository `root`): its local-action steps
 * and its `test` assertions, in order, with `env` over the workflow's and the job's own. After a step
 * fails, only steps whose condition asks for `always()` or `failure()` run. Returns every step that ran.
 * `options.runSteps`: every `run:` step runs (in bash, `GITHUB_STEP_SUMMARY` the job summary, which
 * each StepRun's `summary` holds as it stood after the step), steps and composite actions see the
 * job's environment, and a failed composite keeps its outputs, as on GitHub; for workflows whose
 * every step the test provides for.
 */
export async function runJob(
  root: string,
  workflowPath: string,
  jobName: string,
  env: Record<string, string> = {},
  options: { runSteps?: boolean } = {},
): Promise<StepRun[]> {
  const workflow = parse(readFileSync(join(root, workflowPath), 'utf8')) as {
    env?: Record<string, string>
    jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>
  }
  const job = workflow.jobs[jobName]
  if (!job) throw new Error(`${workflowPath}: no job ${jobName}`)
  const temp = mkdtempSync(join(tmpdir(), 'gla-runner-'))
  const summaryFile = join(temp, 'summary.md')
  writeFileSync(summaryFile, '')
  const steps: Record<string, { outputs: Record<string, string> }> = {}
  let failed = false
  const scope = () => ({
    env: { ...workflow.env, ...job.env, ...env },
    steps,
    runner: { temp },
    github: { workspace: root },
    job: { failed },
  })
  const jobEnv = (): Record<string, string> => {
    if (!options.runSteps) return {}
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(scope().env)) out[k] = interpolate(String(v), scope())
    return out
  }
  const ran: StepRun[] = []
  try {
    for (const step of job.steps) {
      if (!holds(step.if, scope())) continue
      const label = step.name ?? step.id ?? step.uses ?? step.run ?? '?'
      let result: { code: number; outputs: Record<string, string>; log: string } | undefined
      if (step.uses?.startsWith('./')) {
        const given: Record<string, string> = {}
        for (const [k, v] of Object.entries(step.with ?? {})) given[k] = interpolate(String(v), scope())
        result = await runComposite(resolve(root, step.uses), given, {
          temp,
          cwd: root,
          env: jobEnv(),
          failedOutputs: options.runSteps,
        })
      } else if (step.run && (options.runSteps || /^test\s/.test(step.run.trim()))) {
        const stepEnv: Record<string, string> = { ...jobEnv(), GITHUB_STEP_SUMMARY: summaryFile }
        for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = interpolate(String(v), scope())
        result = { ...(await bash(interpolate(step.run, scope()), stepEnv, root)), outputs: {} }
      } else continue
      ran.push({ label, ...result, summary: readFileSync(summaryFile, 'utf8') })
      if (step.id) steps[step.id] = { outputs: result.outputs }
      if (result.code !== 0) failed = true
    }
    return ran
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}
