/*
 * bench/blame: `GET /projects/:id/repository/files/:path/blame` of a file of 2,000 lines shaped by 500
 * commits (the first writes it, each later one rewrites 4 of its lines), against real `git blame
 * --porcelain` of the same history in a real git repository (built with `git fast-import` in a temp
 * dir), alternating, medians of ROUNDS rounds (BENCH_ROUNDS, default 3).
 * - Ours: the history is committed through the API (`POST .../repository/commits`) to a `serve --data`
 *   child, which then stops. Each round starts `serve` again on that data directory: cold is its
 *   first blame (a new process: nothing compiled, no statement prepared, SQLite's pages unread),
 *   warm the median of WARM more. Only the request is timed, not the start.
 * - git: each run is a new process over the repository fast-import packed. Cold is a round's first
 *   run, warm the median of WARM more; git keeps nothing between runs but what the OS caches.
 * - Both sides must blame every line on the same commit (by its message), or the row fails.
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { median, ROUNDS } from './support/measure.js'
import { printedUrl } from './support/printed-url.js'

const bin = fileURLToPath(new URL('../bin/gitlab-actions.js', import.meta.url))
const LINES = 2000
const COMMITS = 500
const CHANGED = 4
const WARM = 10
const TOKEN = 'glpat-bench-root-token'
const PROJECT = '/api/v4/projects/bench%2Fblame'
const BLAME = `${PROJECT}/repository/files/f.txt/blame?ref=main`

type Row = { name: string; ratio: number; detail: string }

/** The file after each commit: commit 0 writes every line, commit k rewrites 4 lines spread over it. */
function versions(): string[][] {
  let lines = Array.from({ length: LINES }, (_, i) => `line ${i} of the first version\n`)
  const out = [lines]
  for (let k = 1; k < COMMITS; k++) {
    lines = [...lines]
    for (let j = 0; j < CHANGED; j++) {
      const at = (k * 7919 + j * 977) % LINES
      lines[at] = `line ${at} as commit ${k} wrote it\n`
    }
    out.push(lines)
  }
  return out
}

/** The history in a new bare repository, through one `git fast-import`. */
function gitRepository(dir: string, history: string[][]): void {
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir])
  const parts: string[] = []
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`
  history.forEach((lines, k) => {
    const when = 1_767_225_600 + k * 60
    parts.push(
      `commit refs/heads/main\nmark :${k + 1}\n`,
      `author Bench <bench@example.com> ${when} +0000\ncommitter Bench <bench@example.com> ${when} +0000\n`,
      data(`commit ${k}`),
      k > 0 ? `from :${k}\n` : '',
      `M 100644 inline f.txt\n${data(lines.join(''))}\n`,
    )
  })
  execFileSync('git', ['-C', dir, 'fast-import', '--quiet'], { input: parts.join('') })
}

/** Each line's commit message, from `git blame --porcelain`'s output. */
function porcelainMessages(out: string): string[] {
  const summaries = new Map<string, string>()
  const lines: string[] = []
  let sha = ''
  for (const line of out.split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line)
    if (header) sha = header[1]!
    else if (line.startsWith('summary ')) summaries.set(sha, line.slice(8))
    else if (line.startsWith('\t')) lines.push(sha)
  }
  return lines.map((s) => summaries.get(s) ?? '?')
}

/** Each line's commit message, from our blame ranges. */
const rangeMessages = (ranges: { commit: { message: string }; lines: string[] }[]) =>
  ranges.flatMap((r) => r.lines.map(() => r.commit.message.trim()))

/** A `serve` child on `data` (seeded from `seed` when given: the first start), its URL, and how to stop it. */
async function serve(data: string, seed?: string) {
  const args = [bin, 'serve', '--port', '0', '--data', data, ...(seed ? ['--seed', seed] : [])]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await printedUrl(child)
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      if (child.exitCode === null) await once(child, 'exit')
    },
  }
}

async function timedBlame(url: string): Promise<{ ms: number; messages: string[] }> {
  const started = performance.now()
  const res = await request(`${url}${BLAME}`, { headers: { 'private-token': TOKEN } })
  const body = (await res.body.json()) as { commit: { message: string }; lines: string[] }[]
  const ms = performance.now() - started
  if (res.statusCode !== 200) throw new Error(`blame answered ${res.statusCode}: ${JSON.stringify(body)}`)
  return { ms, messages: rangeMessages(body) }
}

function timedGitBlame(repo: string): { ms: number; messages: string[] } {
  const started = performance.now()
  const out = execFileSync('git', ['-C', repo, 'blame', '--porcelain', 'main', '--', 'f.txt'], {
    maxBuffer: 64 * 1024 * 1024,
  }).toString()
  return { ms: performance.now() - started, messages: porcelainMessages(out) }
}

/** Commits the history through the API, one commit per version. */
async function commitHistory(url: string, history: string[][]): Promise<void> {
  for (const [k, lines] of history.entries()) {
    const res = await request(`${url}${PROJECT}/repository/commits`, {
      method: 'POST',
      headers: { 'private-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        branch: 'main',
        commit_message: `commit ${k}`,
        actions: [{ action: k === 0 ? 'create' : 'update', file_path: 'f.txt', content: lines.join('') }],
      }),
    })
    const text = await res.body.text()
    if (res.statusCode !== 201) throw new Error(`commit ${k} answered ${res.statusCode}: ${text}`)
  }
}

function sameBlame(ours: string[], git: string[]): void {
  const differ = ours.findIndex((m, i) => m !== git[i])
  if (ours.length !== git.length || differ !== -1)
    throw new Error(
      `blames differ: ${ours.length} and ${git.length} lines, line ${differ + 1}: ours ${ours[differ]}, git ${git[differ]}`,
    )
}

export async function run(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gla-blame-'))
  try {
    const history = versions()
    const repo = join(dir, 'repo.git')
    gitRepository(repo, history)
    const seed = join(dir, 'seed.yaml')
    writeFileSync(
      seed,
      `users: [ { username: root, admin: true, token: ${TOKEN} } ]\ngroups: [ { path: bench } ]\nprojects: [ { path: bench/blame } ]\n`,
    )
    const data = join(dir, 'data')
    const builder = await serve(data, seed)
    const built = performance.now()
    try {
      await commitHistory(builder.url, history)
    } finally {
      await builder.stop()
    }
    const buildMs = performance.now() - built
    const cold = { ours: [] as number[], git: [] as number[] }
    const warm = { ours: [] as number[], git: [] as number[] }
    for (let round = 0; round < ROUNDS; round++) {
      const server = await serve(data)
      try {
        const first = await timedBlame(server.url)
        cold.ours.push(first.ms)
        const again = []
        for (let i = 0; i < WARM; i++) again.push((await timedBlame(server.url)).ms)
        warm.ours.push(median(again))
        const git = timedGitBlame(repo)
        sameBlame(first.messages, git.messages)
        cold.git.push(git.ms)
        const gitAgain = []
        for (let i = 0; i < WARM; i++) gitAgain.push(timedGitBlame(repo).ms)
        warm.git.push(median(gitAgain))
      } finally {
        await server.stop()
      }
    }
    const shape = `${LINES.toLocaleString('en')} lines, ${COMMITS} commits`
    const row = (kind: 'cold' | 'warm', sides: typeof cold, what: string): Row => ({
      name: `blame: GET .../files/:path/blame / git blame --porcelain, ${kind} (${shape})`,
      ratio: median(sides.ours) / median(sides.git),
      detail: `ours ${median(sides.ours).toFixed(1)} ms, git ${median(sides.git).toFixed(1)} ms (${what}; medians of ${ROUNDS} rounds, alternating)`,
    })
    return [
      row(
        'cold',
        cold,
        `each side's first blame: a restarted serve, a new git process; history built through the API in ${(buildMs / 1000).toFixed(1)} s`,
      ),
      row('warm', warm, `each round the median of ${WARM} more`),
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
