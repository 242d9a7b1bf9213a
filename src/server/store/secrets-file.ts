import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { Db } from './db.js'
import { PRIVATE_FILE_MODE } from './private-files.js'
import { hasKeyedDigests } from './token-digests.js'

/** GitLab's name for the file that holds `db_key_base` (`config/secrets.yml`, Omnibus `gitlab-secrets.json`). */
export const SECRETS_FILE = 'gitlab-secrets.json'

/**
 * The key of the store's sealed secrets, kept as GitLab keeps `db_key_base`: in a 0600 file of its
 * own, apart from the database, so that a copy of `gitlab.sqlite3` alone opens nothing. Our format:
 * `{"db_key_base": "<64 hex>"}`, the AES-256 key itself (GitLab derives its 32-byte key from a
 * longer string, `Settings.attr_encrypted_db_key_base_32`). A key that older releases kept in
 * `emulator_meta.secret_key` moves to the file, then leaves the table; a store with sealed tokens
 * or keyed token digests (token-digests.ts) and no key anywhere does not start. `:memory:` keeps the
 * key in memory.
 */
export function loadDbKeyBase(data: string, db: Db): Buffer {
  if (data === ':memory:') return randomBytes(32)
  const legacy = db.prepare("SELECT value FROM emulator_meta WHERE key = 'secret_key'").get() as
    { value: string } | undefined
  const path = join(data, SECRETS_FILE)
  let key = existsSync(path) ? readKey(path) : undefined
  if (!key) {
    // A new key would leave every sealed token unreadable: refuse to start, as GitLab does.
    if (!legacy && db.prepare('SELECT 1 FROM triggers UNION ALL SELECT 1 FROM ci_builds LIMIT 1').get())
      throw new Error(`${path} is missing: the tokens sealed in the database cannot be opened without it`)
    // ...and every token digest keyed with it useless (an older release's digests are not keyed yet).
    if (!legacy && hasKeyedDigests(db))
      throw new Error(`${path} is missing: the tokens in the database cannot be checked without it`)
    key = legacy ? Buffer.from(legacy.value, 'base64') : randomBytes(32)
    writeKey(path, key)
  }
  // Only once the file is on disk: a crash in between finds the key in one place or both.
  if (legacy) db.prepare("DELETE FROM emulator_meta WHERE key = 'secret_key'").run()
  return key
}

function readKey(path: string): Buffer {
  chmodSync(path, PRIVATE_FILE_MODE)
  const hex = (JSON.parse(readFileSync(path, 'utf8')) as { db_key_base?: unknown }).db_key_base
  if (typeof hex !== 'string' || !/^[0-9a-f]{64}$/.test(hex))
    throw new Error(`${path}: db_key_base must be 64 lower-case hex characters`)
  return Buffer.from(hex, 'hex')
}

/** Written whole or not at all: a temporary 0600 file, flushed, then renamed into place. */
function writeKey(path: string, key: Buffer): void {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(temp, 'wx', PRIVATE_FILE_MODE)
  try {
    writeSync(fd, `${JSON.stringify({ db_key_base: key.toString('hex') }, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  chmodSync(temp, PRIVATE_FILE_MODE)
  renameSync(temp, path)
}
