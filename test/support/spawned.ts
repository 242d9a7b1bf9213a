import type { ChildProcess } from 'node:child_process'

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
