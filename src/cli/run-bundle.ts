import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The committed bundle of an action (`dist/<name>/index.js`). */
export const bundleOf = (name: string) =>
  fileURLToPath(new URL(`../../dist/${name}/index.js`, import.meta.url))

export interface BundleRun {
  code: number | null
  /** stdout and stderr lines as the runner would show them (`::add-mask::` commands removed). */
  lines: string[]
  outputs: Record<string, string>
  /** The HTML the step appended to the job summary. */
  summary: string
}

/** A GITHUB_OUTPUT file's `name<<delimiter` blocks (and `name=value` lines) as a map. */
export function readOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^=<]+)<<(.+)$/.exec(lines[i] as string)
    if (!m) continue
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] as string)
    out[m[1] as string] = value.join('\n')
  }
  return out
}

/**
 * Runs an action bundle exactly as a runner runs a node step: a child process with `INPUT_*`,
 * `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files; `onLine` sees each log line as it comes.
 */
export async function runActionBundle(
  name: string,
  inputs: Record<string, string>,
  onLine: (line: string) => void = () => undefined,
): Promise<BundleRun> {
  const dir = await mkdtemp(join(tmpdir(), `gitlab-actions-${name}-`))
  const output = join(dir, 'output')
  const summary = join(dir, 'summary')
  await writeFile(output, '')
  await writeFile(summary, '')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
  }
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v
  try {
    const child = spawn(process.execPath, [bundleOf(name)], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    const lines: string[] = []
    let partial = ''
    const take = (d: Buffer) => {
      const parts = (partial + d.toString()).split('\n')
      partial = parts.pop() ?? ''
      for (const line of parts)
        if (!line.startsWith('::add-mask::')) {
          lines.push(line)
          onLine(line)
        }
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    const [code] = (await once(child, 'exit')) as [number | null]
    if (partial && !partial.startsWith('::add-mask::')) lines.push(partial)
    return {
      code,
      lines,
      outputs: readOutputFile(await readFile(output, 'utf8')),
      summary: await readFile(summary, 'utf8'),
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
