import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

export const run = promisify(execFile)
const INSTALL = 'apt-get install -y golang-go golang-github-xanzy-go-gitlab-dev'
/** Debian's go-gitlab and its dependencies live under this GOPATH; Go 1.19 builds from it without modules. */
const GOPATH = '/usr/share/gocode'

/**
 * Builds `source` (a `package main` file in test/clients/) into `dir`, or fails saying what to install.
 * Go's build cache makes a second build quick.
 */
export async function buildGo(source: string, dir: string): Promise<string> {
  const out = join(dir, source.replace(/\.go$/, ''))
  const env = { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '' }
  try {
    await run('go', ['version'], { env })
  } catch {
    throw new Error(`Go is missing: install golang-go and go-gitlab (${INSTALL})`)
  }
  try {
    await run('go', ['build', '-o', out, join(__dirname, '..', 'clients', source)], { env, timeout: 120_000 })
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? ''
    if (stderr.includes('xanzy/go-gitlab'))
      throw new Error(
        `go-gitlab is missing: install golang-github-xanzy-go-gitlab-dev (${INSTALL})\n${stderr}`,
      )
    throw error
  }
  return out
}

/**
 * A Go program of test/clients/ for the tests of this file: built into a temp dir before them (Go
 * takes a while the first time), removed after. Returns where the built program and its dir are.
 */
export function goProgram(source: string): { path: string; dir: string } {
  const built = { path: '', dir: '' }
  beforeAll(async () => {
    built.dir = await mkdtemp(join(tmpdir(), 'go-gitlab-'))
    built.path = await buildGo(source, built.dir)
  }, 180_000)
  afterAll(() => rm(built.dir, { recursive: true, force: true }))
  return built
}
