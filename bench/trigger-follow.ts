/*
 * bench/trigger-follow: trigger-pipeline's bundle (dist/trigger-pipeline/index.js, `npm run bundle`)
 * triggers a pipeline whose `strategy: depend` child pipeline fails, and follows it to its end: the
 * child's tree, the failed job's log tail, the build job's artifacts. Measured: time from process start to
 * the first status line, to the end, and the requests the server received. Baseline, alternating in the
 * same run: the same pipeline with `follow-downstream: false`, `log-lines: 0` and no artifacts (what the
 * action did before it followed downstream pipelines). The server runs in this process on a clock that
 * moves 400 ms every 20 ms, so a pipeline's progress costs no real waiting.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { commitFiles } from '../test/support/ci-files.js'
import { manualClock } from '../test/support/pipeline-seed.js'
import { startServer } from '../test/support/server.js'
import { median, ROUNDS } from './support/measure.js'

const bundle = fileURLToPath(new URL('../dist/trigger-pipeline/index.js', import.meta.url))
const TRIGGER = `glptt-${'be'.repeat(20)}`
const READER = 'glpat-bench-reader-token'

interface Run {
  firstStatusMs: number
  totalMs: number
  requests: number
}

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
  if (!existsSync(bundle)) throw new Error('dist/trigger-pipeline/index.js is missing: run npm run bundle')
  const clock = manualClock()
  const t = await startServer(
    `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: mark, token: ${READER} }
groups: [ { path: bench, members: { mark: maintainer } } ]
projects:
  - { path: bench/app, triggers: [ { description: bench, owner: mark, token: ${TRIGGER} } ] }
`,
    { clock },
  )
  await commitFiles(
    t,
    'bench/app',
    'main',
    {
      '.gitlab-ci.yml':
        'build:\n  stage: build\n  script: [echo built > out.txt]\n  artifacts: { paths: [out.txt] }\n' +
        'tests:\n  stage: test\n  trigger: { include: ci/tests.yml, strategy: depend }\n',
      'ci/tests.yml':
        'unit:\n  script:\n    - echo "expected 2, got 3"\n    - exit 1\nlint:\n  script: [echo ok]\n',
    },
    READER,
  )
  let requests = 0
  t.server.app.server.on('request', () => requests++)
  const ticking = setInterval(() => clock.advance(400), 20)
  const dir = mkdtempSync(join(tmpdir(), 'gla-bench-follow-'))
  writeFileSync(join(dir, 'output'), '')
  writeFileSync(join(dir, 'summary'), '')

  const once_ = async (follow: boolean): Promise<Run> => {
    const inputs: Record<string, string> = {
      'gitlab-url': t.baseUrl,
      project: 'bench/app',
      token: TRIGGER,
      'access-token': READER,
      'poll-interval': '50ms',
      'follow-downstream': String(follow),
      'log-lines': follow ? '40' : '0',
      ...(follow ? { 'download-artifacts': 'build', 'artifacts-path': join(dir, 'artifacts') } : {}),
    }
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    }
    for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v
    const before = requests
    const started = performance.now()
    let firstStatusMs = NaN
    const child = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout.on('data', (d: Buffer) => {
      if (Number.isNaN(firstStatusMs) && /pipeline \d+: \w+/.test(d.toString()))
        firstStatusMs = performance.now() - started
    })
    const [code] = (await once(child, 'exit')) as [number]
    if (code !== 1) throw new Error(`trigger-pipeline exited ${code}, not 1 (the child pipeline fails)`)
    return { firstStatusMs, totalMs: performance.now() - started, requests: requests - before }
  }

  try {
    const runs: Record<'follow' | 'plain', Run[]> = { follow: [], plain: [] }
    for (let round = 0; round < ROUNDS; round++) {
      runs.follow.push(await once_(true))
      runs.plain.push(await once_(false))
    }
    const m = (k: 'follow' | 'plain', f: keyof Run) => median(runs[k].map((r) => r[f]))
    const ratio = m('follow', 'totalMs') / m('plain', 'totalMs')
    return {
      name: 'trigger-follow (a pipeline with a failing depend child, followed to its end)',
      ratio,
      detail:
        `first status ${m('follow', 'firstStatusMs').toFixed(0)} ms (plain ${m('plain', 'firstStatusMs').toFixed(0)}), ` +
        `end ${m('follow', 'totalMs').toFixed(0)} ms (plain ${m('plain', 'totalMs').toFixed(0)}), ` +
        `${m('follow', 'requests')} requests (plain ${m('plain', 'requests')}: no bridges, logs or artifacts); ` +
        `median of ${ROUNDS} alternating rounds`,
    }
  } finally {
    clearInterval(ticking)
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
