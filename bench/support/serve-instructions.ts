/*
 * Instructions `serve`'s main thread runs from process start to its first answer, counted by
 * callgrind: on a shared machine wall and CPU times say little, instructions do.
 *   node --import tsx bench/support/serve-instructions.ts [<checkout>,...] [<runs>] [<seed>]
 * `<seed>`: `issues` (default: bench/cold-start.ts's 1,000-issue seed file and its first list),
 * `none` or `builtin` (bench/start.ts's rows). Each checkout's `bin/gitlab-actions.js serve --port 0`
 * runs under `valgrind --tool=callgrind --separate-threads=yes`, the checkouts alternating round by
 * round; once the answer is read the counters are dumped (`callgrind_control --dump`) and the server
 * stopped. Two plain starts of each first prime its code cache and seeded image, as a user's second
 * start finds them. Prints each run's main-thread count, and the same without V8's collector (the
 * inclusive count of `Heap::CollectGarbage`, whose share moves with the collections' timing), in M.
 * `CALLGRIND_KEEP=DIR` keeps the profiles there (for callgrind_annotate).
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { request } from 'undici'
import { stringify } from 'yaml'
import { firstAnswer } from './first-answer.js'
import { issuesSeed } from './seeds.js'

const checkouts = (process.argv[2] ?? '.').split(',').map((c) => resolve(c))
const runs = Number(process.argv[3] ?? 3)
const kind = process.argv[4] ?? 'issues'
const keep = process.env.CALLGRIND_KEEP

const dir = mkdtempSync(join(tmpdir(), 'gla-serve-instructions-'))
const seedFile = join(dir, 'seed.yaml')
writeFileSync(seedFile, stringify(issuesSeed(1000)))
const KINDS: Record<string, { args: string[]; path: string; token: string }> = {
  issues: {
    args: ['--seed', seedFile],
    path: '/api/v4/projects/bench%2Fissues/issues?per_page=20',
    token: 'glpat-root-token',
  },
  none: { args: ['--seed', 'none'], path: '/api/v4/user', token: 'glpat-emulator-root-token' },
  builtin: { args: [], path: '/api/v4/projects?per_page=20', token: 'glpat-emulator-root-token' },
}
const run = KINDS[kind]
if (!run) throw new Error(`seed must be one of ${Object.keys(KINDS).join(', ')}`)
const headers = { 'private-token': run.token }

/** One start under callgrind; its main thread's instructions, all and without the collector, in M. */
async function counted(checkout: string, out: string): Promise<[number, number]> {
  mkdirSync(out, { recursive: true })
  const bin = join(checkout, 'bin/gitlab-actions.js')
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}/callgrind.%p`,
      process.execPath,
      bin,
      'serve',
      '--port',
      '0',
      ...run!.args,
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
  const res = await request(`${url}${run!.path}`, { headers })
  await res.body.dump()
  if (res.statusCode !== 200) throw new Error(`first answer was ${res.statusCode}`)
  execFileSync('callgrind_control', ['--dump=first-answer', String(child.pid)], { stdio: 'ignore' })
  child.kill('SIGTERM')
  await exited
  const main = readdirSync(out).find((f) => f.endsWith('.1-01'))
  if (!main) throw new Error('no dump of the main thread')
  const file = join(out, main)
  const total = Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1])
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  })
  // The outermost frame only: CollectGarbage calls itself no deeper than once.
  const gcLine = annotated.split('\n').find((l) => /v8::internal::Heap::CollectGarbage\(/.test(l))
  const gc = gcLine ? Number(gcLine.trim().split(/\s+/)[0]!.replace(/,/g, '')) : 0
  return [total / 1e6, (total - gc) / 1e6]
}

try {
  for (const checkout of checkouts)
    for (let i = 0; i < 2; i++)
      await firstAnswer(
        process.execPath,
        [join(checkout, 'bin/gitlab-actions.js'), 'serve', '--port', '0', ...run.args],
        run.path,
        headers,
      )
  const counts = new Map<string, string[]>(checkouts.map((c) => [c, []]))
  for (let i = 0; i < runs; i++)
    for (const checkout of checkouts) {
      const out = join(dir, `${basename(checkout)}-${i}`)
      const [all, noGc] = await counted(checkout, out)
      counts.get(checkout)!.push(`${all.toFixed(1)}/${noGc.toFixed(1)}`)
      if (keep) cpSync(out, join(keep, `${basename(checkout)}-${kind}-${i}`), { recursive: true })
    }
  for (const [checkout, c] of counts) console.log(`${checkout} ${kind}: ${c.join(' ')} (M, all/without GC)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
