import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'

/** The data dir and every folder in it: the owner only. */
export const PRIVATE_DIR_MODE = 0o700
/** Every file the server writes there (database, WAL, archives, uploads, the key file). */
export const PRIVATE_FILE_MODE = 0o600

/**
 * Creates `dir` (and its parents) and sets it to 0700 explicitly, also when it already existed:
 * `mkdir`'s mode goes through the umask, and an older data dir was made 0755.
 */
export function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  chmodSync(dir, PRIVATE_DIR_MODE)
  return dir
}

/**
 * Makes `file` exist with mode 0600 before anything else opens it (SQLite creates its files
 * 0644 and gives the -wal and -shm files the mode of the database), and sets 0600 on `others`
 * that exist already (a WAL left by an older start).
 */
export function privateFile(file: string, others: string[] = []): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE))
  chmodSync(file, PRIVATE_FILE_MODE)
  for (const other of others) if (existsSync(other)) chmodSync(other, PRIVATE_FILE_MODE)
}
