/*
 * One `serve` start under callgrind, to its first answer: what bench/support/serve-instructions.ts
 * (the main thread's total) and bench/support/serve-parts.ts (the same, part by part) share.
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'undici'
import { stringify } from 'yaml'
import { firstAnswer, ownCompileCache } from './first-answer.js'
import { issuesSeed } from './seeds.js'

/** A start to count: serve's arguments and the first request's path and token. */
export interface StartKind {
  args: string[]
  path: string
  headers: Record<string, string>
}

/**
 * The starts by name: `issues` (bench/cold-start.ts's 1,000-issue seed file, written into `dir`, and
 * its first list), `none` and `builtin` (bench/start.ts's rows). Throws on another name.
 */
export function startKind(name: string, dir: string): StartKind {
  if (name === 'issues') {
    const seedFile = join(dir, 'seed.yaml')
    writeFileSync(seedFile, stringify(issuesSeed(1000)))
    return {
      args: ['--seed', seedFile],
      path: '/api/v4/projects/bench%2Fissues/issues?per_page=20',
      headers: { 'private-token': 'glpat-root-token' },
    }
  }
  const root = { 'private-token': 'glpat-emulator-root-token' }
  if (name === 'none') return { args: ['--seed', 'none'], path: '/api/v4/user', headers: root }
  if (name === 'builtin') return { args: [], path: '/api/v4/projects?per_page=20', headers: root }
  throw new Error('seed must be one of issues, none, builtin')
}

/**
 * Two plain starts of each checkout, in a compile cache directory of this run's under `dir`
 * (first-answer.ts `ownCompileCache`, kept for the process): its code cache and seeded image made,
 * as a user's second start finds them.
 */
export async function prime(checkouts: string[], kind: StartKind, dir: string): Promise<void> {
  ownCompileCache(dir)
  for (const checkout of checkouts)
    for (let i = 0; i < 2; i++)
      await firstAnswer(
        process.execPath,
        [join(checkout, 'bin/gitlab-actions.js'), 'serve', '--port', '0', ...kind.args],
        kind.path,
        kind.headers,
      )
}

/**
 * Runs `checkout`'s `bin/gitlab-actions.js serve --port 0` under `valgrind --tool=callgrind
 * --separate-threads=yes` (and `valgrind`'s further options), its profiles in `out`
 * (callgrind.PID...); once the first answer (a 200) is read, dumps the counters
 * (`callgrind_control --dump`) and stops the server.
 */
export async function callgrindStart(
  checkout: string,
  kind: StartKind,
  out: string,
  valgrind: string[] = [],
): Promise<void> {
  mkdirSync(out, { recursive: true })
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      ...valgrind,
      `--callgrind-out-file=${out}/callgrind.%p`,
      process.execPath,
      join(checkout, 'bin/gitlab-actions.js'),
      'serve',
      '--port',
      '0',
      ...kind.args,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const exited = once(child, 'exit')
  const url = await new Promise<string>((resolve, reject) => {
    let text = ''
    child.stdout.on('data', (d: Buffer) => {
      text += d.toString()
      const m = /http:\/\/[\d.]+:\d+/.exec(text)
      if (m) resolve(m[0])
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)))
  })
  const res = await request(`${url}${kind.path}`, { headers: kind.headers })
  await res.body.dump()
  if (res.statusCode !== 200) throw new Error(`first answer was ${res.statusCode}`)
  execFileSync('callgrind_control', ['--dump=first-answer', String(child.pid)], { stdio: 'ignore' })
  child.kill('SIGTERM')
  await exited
}

/** A callgrind profile's total count of instructions (its `summary` or `totals` line). */
export const profileTotal = (text: string) => Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1])

/**
 * A profile's instructions, all and V8's collector's (the inclusive count of `Heap::CollectGarbage`,
 * whose share moves with the collections' timing), in M.
 */
export function profileCounts(file: string): { all: number; gc: number } {
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  })
  // The outermost frame only: CollectGarbage calls itself no deeper than once.
  const gcLine = annotated.split('\n').find((l) => /v8::internal::Heap::CollectGarbage\(/.test(l))
  const gc = gcLine ? Number(gcLine.trim().split(/\s+/)[0]!.replace(/,/g, '')) : 0
  return { all: profileTotal(readFileSync(file, 'utf8')) / 1e6, gc: gc / 1e6 }
}
