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
 * migrated before: where Node's compile cache is on (the bin turns it on; NODE_COMPILE_CACHE
 * elsewhere) the first store writes its image there, for the next stores and the next processes,
 * under a checksum of the migrations and SQLite's version; elsewhere this process keeps it in
 * memory. A copy carries `user_version`, so the migrations it holds are not run again; an image
 * that cannot be read or loaded is none. Memory after start: an image on disk is read again for
 * each new store (0.1 ms from the OS's cache) rather than held for the life of the process, which
 * for `serve` (one store) was 0.6 MB held for nothing.
 */

/** The image of a process whose compile cache directory is off or cannot be written. */
let kept: Uint8Array | undefined

/** The migrated image this process, or an earlier one with the same migrations, kept. */
export function migratedImage(migrations: Migration[]): Uint8Array | undefined {
  if (kept) return kept
  const file = imageFile(migrations)
  if (!file) return undefined
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** Keeps `image` (a store just migrated in full) for the next in-memory stores: on disk, else in memory. */
export function keepMigratedImage(migrations: Migration[], image: Uint8Array): void {
  const file = imageFile(migrations)
  if (!file) {
    kept = image
    return
  }
  // Written whole or not at all (another server may read it meanwhile).
  const part = `${file}.${process.pid}.part`
  try {
    writeFileSync(part, image)
    renameSync(part, file)
  } catch {
    // a read-only directory: this process keeps it; the next migrates as this one did
    kept = image
  }
}

function imageFile(migrations: Migration[]): string | undefined {
  const dir = getCompileCacheDir()
  if (!dir) return undefined
  const key = crc32(`${process.versions.sqlite}\n${JSON.stringify(migrations)}`).toString(16)
  return join(dir, `gitlab-actions-store-${migrations.length}-${key}.sqlite3`)
}
