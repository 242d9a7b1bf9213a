import type { GitObject, GitObjectType } from '../git/objects.js'
import type { Db } from './db.js'

/** Git objects by SHA (migration 7): the commits the refs of every project point at. */
export function gitObjectTable(db: Db) {
  const put = db.prepare('INSERT OR IGNORE INTO git_objects (sha, type, body) VALUES (?, ?, ?)')
  const get = db.prepare('SELECT sha, type, body FROM git_objects WHERE sha = ?')
  return {
    put: (o: GitObject) => put.run(o.sha, o.type, o.body),
    get: (sha: string) => get.get(sha) as { sha: string; type: GitObjectType; body: Buffer } | undefined,
  }
}
