/*
 * The peer of bench/peer.ts: vercel-labs/emulate (npm package `emulate`), a stateful GitHub emulator,
 * pinned to the version issue 44 measured. It is installed by the benchmark into a cache directory
 * (BENCH_CACHE_DIR, default ~/.cache/gitlab-actions-bench), not as a devDependency: only this row
 * uses it, and a devDependency would put it in every `npm ci` (CI's and every contributor's) and in
 * the lockfile for a benchmark that few run. npm pins it exactly (`emulate@0.12.2`) and writes its own
 * lockfile there; the version installed is checked before each run.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { stringify } from 'yaml'

export const EMULATE_VERSION = '0.12.2'

/** The installed package's directory (`.../node_modules/emulate`), installing it when missing. */
export function ensureEmulate(): string {
  const cache = process.env.BENCH_CACHE_DIR ?? join(homedir(), '.cache', 'gitlab-actions-bench')
  const prefix = join(cache, `emulate-${EMULATE_VERSION}`)
  const pkg = join(prefix, 'node_modules', 'emulate')
  const installed = () =>
    existsSync(join(pkg, 'package.json')) &&
    (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version ===
      EMULATE_VERSION
  if (!installed()) {
    mkdirSync(prefix, { recursive: true })
    if (!existsSync(join(prefix, 'package.json')))
      writeFileSync(join(prefix, 'package.json'), '{ "private": true }\n')
    console.error(`peer: installing emulate@${EMULATE_VERSION} into ${prefix}`)
    // --ignore-scripts: nothing of it needs an install script, and none runs on this machine unasked.
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', `emulate@${EMULATE_VERSION}`],
      { cwd: prefix, stdio: ['ignore', 'ignore', 'inherit'] },
    )
    if (!installed()) throw new Error(`npm did not install emulate@${EMULATE_VERSION} into ${prefix}`)
  }
  return pkg
}

/** Repository and token of both sides' worlds: `bench/issues`, written by alice. */
export const PEER_TOKEN = 'peer-alice-token'
/**
 * alice's other tokens, `peer-token-0` to `peer-token-<n-1>`, for the load rows to rotate through
 * (bench/wrk/tokens.lua): emulate allows 5,000 requests an hour per token and cannot be told not to.
 */
export const ROTATED_TOKENS = { prefix: 'peer-token-', count: 256 }

/**
 * emulate's seed: alice, the organisation `bench` with its repository `issues`, and alice's token.
 * It has no place for issues: they are made through its API (`createIssues`).
 */
export function emulateSeed(): Record<string, unknown> {
  return {
    tokens: Object.fromEntries(
      [
        PEER_TOKEN,
        ...Array.from({ length: ROTATED_TOKENS.count }, (_, i) => `${ROTATED_TOKENS.prefix}${i}`),
      ].map((token) => [token, { login: 'alice', scopes: ['repo'] }]),
    ),
    github: {
      users: [{ login: 'alice' }],
      orgs: [{ login: 'bench', members: [{ login: 'alice', role: 'admin' }] }],
      repos: [{ owner: 'bench', name: 'issues' }],
    },
  }
}

/** The seed as emulate's `--seed` file. */
export const writeEmulateSeed = (file: string) => writeFileSync(file, stringify(emulateSeed()))

export const peerHeaders = { authorization: `Bearer ${PEER_TOKEN}`, 'content-type': 'application/json' }
export const PEER_ISSUES = '/repos/bench/issues/issues'

/**
 * `count` issues in emulate's `bench/issues` through its API, `inFlight` requests at a time (a third
 * labelled bug, as the seed of bench/support/seeds.ts has them).
 */
export async function createIssues(url: string, count: number, inFlight = 8): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < count) {
      const n = next++
      const res = await request(`${url}${PEER_ISSUES}`, {
        method: 'POST',
        headers: peerHeaders,
        body: JSON.stringify({
          title: `Issue number ${n + 1}`,
          body: `Description of issue ${n + 1}`,
          labels: n % 3 === 0 ? ['bug'] : n % 3 === 1 ? ['feature', 'docs'] : [],
        }),
      })
      const text = await res.body.text()
      if (res.statusCode !== 201) throw new Error(`emulate answered ${res.statusCode} to a creation: ${text}`)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
}
