import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(__dirname, '../..')
export const bundlePath = (name: string) => join(ROOT, 'dist', name, 'index.js')
/** The node that runs bundles: this one, or `BUNDLE_NODE` (e.g. a Node 24 binary, to check the bundles there). */
const NODE = process.env.BUNDLE_NODE || process.execPath

export interface BundleRun {
  code: number | null
  signal: NodeJS.Signals | null
  /** stdout and stderr together, in order of arrival. */
  log: string
  outputs: Record<string, string>
  summary: string
}

/** Reads a GITHUB_OUTPUT file as the runner does (`name<<delimiter` blocks, or `name=value` lines). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const value: string[] = []
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i] as string)
      out[heredoc[1] as string] = value.join('\n')
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
  }
  return out
}

/**
 * Runs an action's bundle as the runner does: INPUT_* variables, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, nothing else of the test's environment but PATH and HOME.
 * `during(child)` runs while the process lives (drive a clock, send a signal); it must stop when the
 * child exits (`child.exitCode !== null`). A bounded guard kills a child that hangs.
 */
export async function runBundle(
  name: string,
  inputs: Record<string, string>,
  options: {
    env?: Record<string, string>
    during?: (child: ChildProcess) => Promise<void>
    killAfterMs?: number
  } = {},
): Promise<BundleRun> {
  const dir = mkdtempSync(join(tmpdir(), `gla-${name}-`))
  const outputFile = join(dir, 'output')
  const summaryFile = join(dir, 'summary')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...options.env,
  }
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v
  const child = spawn(NODE, [bundlePath(name)], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 25_000)
  try {
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    if (options.during) await options.during(child)
    const [code, signal] = await exited
    return {
      code,
      signal,
      log,
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
      summary: readFileSync(summaryFile, 'utf8'),
    }
  } finally {
    clearTimeout(guard)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Calls `step` every `everyMs` until the child exits (or `until` says stop); bounded by the guard. */
export async function whileRunning(
  child: ChildProcess,
  step: () => unknown,
  everyMs = 20,
  until?: () => boolean,
) {
  while (child.exitCode === null && child.signalCode === null && !until?.()) {
    await step()
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
