import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/*
 * `gitlab-actions serve` as a child process, for the suites that kill it (durability, jobs across
 * crashes): an in-process server cannot be SIGKILLed without killing the test.
 */
const BIN = join(__dirname, '..', '..', 'bin', 'gitlab-actions.js')

/**
 * A new temporary folder `work` (named from `prefix`) holding `seed.yml` (`seedFile`: `seedYaml`),
 * and where serve's `data` folder goes: what startServe is given. Remove `work` in `afterAll`.
 */
export function serveFolder(
  prefix: string,
  seedYaml: string,
): { work: string; data: string; seedFile: string } {
  const work = mkdtempSync(join(tmpdir(), prefix))
  const seedFile = join(work, 'seed.yml')
  writeFileSync(seedFile, seedYaml)
  return { work, data: join(work, 'data'), seedFile }
}

/** Starts `serve --data DIR --port 0 --seed FILE ...extra`; resolves with its base URL once it listens. */
export async function startServe(
  data: string,
  seedFile: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--data', data, '--port', '0', '--seed', seedFile, ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /http:\/\/[\d.]+:\d+/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[0])
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}: ${err}`))
    })
  })
  return { child, url }
}

/** SIGKILLs the child (if still running) and resolves once it has exited. */
export const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })

/** The child's peak resident set size so far (`VmHWM` in /proc/PID/status), in bytes. */
export function peakRss(child: ChildProcess): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
  if (!m) throw new Error(`no VmHWM for pid ${child.pid}`)
  return Number(m[1]) * 1024
}
