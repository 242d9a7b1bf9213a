import type { Migration } from './migration.js'

// Built-ins taken, not imported (start-up time: see src/cli/serve-script.ts on module facades).
const { readFileSync, renameSync, writeFileSync } = process.getBuiltinModule('node:fs')
const { getCompileCacheDir } = process.getBuiltinModule('node:module')
const { join } = process.getBuiltinModule('node:path')
const { crc32 } = process.getBuiltinModule('node:zlib')

/*
 * Start-up time: a new store's schema, 21 migrations of DDL, took SQLite longer to build than
 * anything else in a warm `startServer()` (half of it, with every statement then prepared at once;
 * and 9-10 ms of a cold `serve`). So a new in-memory store starts from the file image of one
 * migrated before: the first of the process keeps its image here, and where Node's compile cache is
 * on (the bin turns it on; NODE_COMPILE_CACHE elsewhere) it is also written there, for the next
 * process, under a checksum of the migrations and SQLite's version. A copy carries `user_version`,
 * so the migrations it holds are not run again; an image that cannot be read or loaded is none.
 */

let kept: Uint8Array | undefined

/** The migrated image this process, or an earlier one with the same migrations, kept. */
export function migratedImage(migrations: Migration[]): Uint8Array | undefined {
  if (kept) return kept
  const file = imageFile(migrations)
  if (!file) return undefined
  try {
    return (kept = readFileSync(file))
  } catch {
    return undefined
  }
}

/** Keeps `image` (a store just migrated in full) for the next in-memory stores, and on disk. */
export function keepMigratedImage(migrations: Migration[], image: Uint8Array): void {
  kept = image
  const file = imageFile(migrations)
  if (!file) return
  // Written whole or not at all (another server may read it meanwhile); a cache that cannot be written is none.
  const part = `${file}.${process.pid}.part`
  try {
    writeFileSync(part, image)
    renameSync(part, file)
  } catch {
    // a read-only directory: the next process migrates as this one did
  }
}

function imageFile(migrations: Migration[]): string | undefined {
  const dir = getCompileCacheDir()
  if (!dir) return undefined
  const key = crc32(`${process.versions.sqlite}\n${JSON.stringify(migrations)}`).toString(16)
  return join(dir, `gitlab-actions-store-${migrations.length}-${key}.sqlite3`)
}
