import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const child = fileURLToPath(new URL('./server-child.ts', import.meta.url))

export interface Started {
  url: string
  seedMs: number
  proc: ChildProcess
  stop(): Promise<void>
}

/** Starts `server-child.ts` in its own Node process (through tsx) and waits for its READY line. */
export async function startChild(args: string[]): Promise<Started> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  const ready = await new Promise<string>((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.startsWith('READY '))
      if (line) resolve(line)
    })
    proc.once('exit', (code) => reject(new Error(`server child exited with ${code}`)))
  })
  const [, url, seedMs] = ready.split(' ')
  return {
    url: url as string,
    seedMs: Number(seedMs),
    proc,
    async stop() {
      proc.kill('SIGTERM')
      if (proc.exitCode === null) await once(proc, 'exit')
    },
  }
}

export interface Load {
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
}

/** autocannon at `connections` keep-alive connections for `seconds`. */
export async function load(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<Load> {
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}
