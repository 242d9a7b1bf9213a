import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { privateDir } from './private-files.js'

/** A folder of files the store's rows point to (uploads, archives), made private. */
export interface WorkDir {
  dir: string
  /** True for a `:memory:` store: the folder is temporary. */
  temporary: boolean
  /** Removes a temporary folder (at close); keeps a persistent one. */
  removeIfTemporary(): void
  /** Empties the folder (a reset). */
  empty(): void
  /** Files may be in the folder now (an upload, a snapshot's restore): the next `empty` looks. */
  filled(): void
}

/** True when `dir` exists and holds nothing. */
function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0
  } catch {
    return false
  }
}

/**
 * `<data>/<path>` with a persistent store (its parents made private too), else a new temporary
 * folder named `gitlab-actions-<name>-*`, to be removed when the server closes.
 */
export function workDir(data: string, path: string[], name: string): WorkDir {
  const temporary = data === ':memory:'
  let dir: string
  if (temporary) dir = mkdtempSync(join(tmpdir(), `gitlab-actions-${name}-`))
  else {
    for (let i = 1; i < path.length; i++) privateDir(join(data, ...path.slice(0, i)))
    dir = join(data, ...path)
  }
  privateDir(dir)
  // Unknown at first: a data directory may hold files of an earlier run.
  let maybeFilled = true
  return {
    dir,
    temporary,
    removeIfTemporary: () => {
      if (temporary) rmSync(dir, { recursive: true, force: true })
    },
    empty: () => {
      // Nothing put in since it was last emptied: not even a readdir, which took 0.05 ms after a
      // burst of requests, a third of an in-memory store's reset (bench/reset.ts).
      if (!maybeFilled) return
      // Most resets find it empty: one readdir instead of removing and making it again (3 ms).
      if (!isEmptyDir(dir)) {
        rmSync(dir, { recursive: true, force: true })
        privateDir(dir)
      }
      maybeFilled = false
    },
    filled: () => {
      maybeFilled = true
    },
  }
}

/**
 * Removes what jobs of an earlier run left when the process died (a crash, SIGKILL): `.part`
 * uploads, import folders and downloads, export archives no record points to. Every job under
 * way then was just marked failed, so nothing here is still in use.
 */
export function sweepAbandoned(dir: string, kept: string[]): void {
  const keep = new Set(kept.map((file) => basename(file)))
  for (const name of readdirSync(dir))
    if (!keep.has(name)) rmSync(join(dir, name), { recursive: true, force: true })
}
