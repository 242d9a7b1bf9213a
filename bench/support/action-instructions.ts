/*
 * Instructions an action bundle runs from process start to its first HTTP request, counted by
 * callgrind (all threads): on a shared machine wall and CPU times say little, instructions do.
 *   node --import tsx bench/support/action-instructions.ts [<checkout>] [<runs>] [<action,...>]
 * runs `<checkout>/dist/<action>/index.js` (default: this worktree's) as bench/action-startup.ts
 * does, under `valgrind --tool=callgrind`; on the first request the recorder dumps the counters
 * (`callgrind_control --dump`) before it answers 404. Prints each run's count per action.
 * No `--single-threaded`: it changes V8's flags, so Node's built-ins lose their code cache and
 * their compilation would count some 8 times over.
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { inputsFor } from '../action-startup.js'

const checkout = resolve(process.argv[2] ?? '.')
const runs = Number(process.argv[3] ?? 3)
const names = process.argv[4]?.split(',') ?? [
  'export-project',
  'import-project',
  'sync-issues',
  'trigger-pipeline',
]

const dir = mkdtempSync(join(tmpdir(), 'gla-action-instructions-'))
let pid = 0
let dumped = false
const server = createServer((req, res) => {
  req.resume()
  if (!dumped) {
    dumped = true
    execFileSync('callgrind_control', ['--dump=first-request', String(pid)], { stdio: 'ignore' })
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Project Not Found"}')
})
server.listen(0, '127.0.0.1')
await once(server, 'listening')
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
try {
  writeFileSync(join(dir, 'archive.tar.gz'), Buffer.alloc(1024))
  writeFileSync(join(dir, 'output'), '')
  writeFileSync(join(dir, 'summary'), '')
  for (const name of names) {
    // valgrind leaves out variables whose names hold a hyphen (INPUT_GITLAB-URL): a preload sets them.
    const inputs = Object.fromEntries(
      Object.entries(inputsFor(name, url, dir)).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
    )
    const env = {
      PATH: process.env.PATH ?? '',
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      GITHUB_API_URL: url,
      BENCH_INPUTS: JSON.stringify(inputs),
    }
    const preload = 'data:text/javascript,Object.assign(process.env, JSON.parse(process.env.BENCH_INPUTS))'
    const counts: string[] = []
    for (let i = 0; i < runs; i++) {
      const out = join(dir, `${name}-${i}`)
      mkdirSync(out)
      dumped = false
      const child = spawn(
        'valgrind',
        [
          '--tool=callgrind',
          `--callgrind-out-file=${out}/callgrind.%p`,
          process.execPath,
          `--import=${preload}`,
          join(checkout, 'dist', name, 'index.js'),
        ],
        { env, stdio: 'ignore' },
      )
      pid = child.pid!
      await once(child, 'exit')
      const first = readdirSync(out).find((f) => f.endsWith('.1'))
      if (!first) throw new Error(`${name} made no request`)
      const text = readFileSync(join(out, first), 'utf8')
      counts.push(`${(Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1]) / 1e6).toFixed(1)}M`)
    }
    console.log(`${name}: ${counts.join(' ')}`)
  }
} finally {
  server.close()
  rmSync(dir, { recursive: true, force: true })
}
