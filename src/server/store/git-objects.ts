import type { GitObject, GitObjectType } from '../git/objects.js'
import type { Db } from './db.js'

type GitObjectRow = { sha: string; type: GitObjectType; body: Uint8Array }

/** node:sqlite reads a BLOB as a Uint8Array; the git code slices and decodes it as a Buffer (no copy). */
export const gitObjectOf = (row: GitObjectRow | undefined): GitObject | undefined =>
  row && { ...row, body: Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength) }

/** Git objects by SHA (migration 7): the commits the refs of every project point at. */
export function gitObjectTable(db: Db) {
  const put = db.prepare('INSERT OR IGNORE INTO git_objects (sha, type, body) VALUES (?, ?, ?)')
  const get = db.prepare('SELECT sha, type, body FROM git_objects WHERE sha = ?')
  return {
    put: (o: GitObject) => put.run(o.sha, o.type, o.body),
    get: (sha: string) => gitObjectOf(get.get(sha) as GitObjectRow | undefined),
  }
}
