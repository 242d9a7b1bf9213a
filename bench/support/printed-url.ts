import type { ChildProcessByStdio } from 'node:child_process'
import type { Readable } from 'node:stream'

/** The `http://host:port` a server child prints on stdout once it listens; rejects if it exits first. */
export function printedUrl(child: ChildProcessByStdio<null, Readable, null>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /http:\/\/[\d.]+:\d+/.exec(out)
      if (m) resolve(m[0])
    })
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)))
  })
}
