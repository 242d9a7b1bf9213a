import { execFile, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'

/**
 * Resolves with the first line of `child`'s stdout that matches `pattern` (e.g. serve's
 * `listening on` line); rejects with everything it printed if it exits first.
 */
export function lineFrom(child: ChildProcess, pattern: RegExp): Promise<string> {
  let out = ''
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => pattern.test(l))
      if (line !== undefined) resolve(line)
    }
    child.stdout?.on('data', seen)
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}:\n${out}`)))
  })
}

/** The `http://...` address of serve's `listening on` line: where its API answers. */
export const apiBaseIn = (line: string) => (/\(API at (http:\/\/\S+)\/api\/v4\)/.exec(line) ?? [])[1] ?? ''

/**
 * The KiB of ArrayBuffers that `test/support/<script>` reports as the first number it prints, run
 * with `args` in a process of its own (`--expose-gc`, so that it can collect first; its heap
 * untouched by Jest's).
 */
export async function arrayBuffersKiBOf(script: string, ...args: string[]): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(__dirname, script), ...args],
    { cwd: join(__dirname, '..', '..') },
  )
  return Number(stdout.trim().split(' ')[0])
}
