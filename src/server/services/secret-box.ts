import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { Db } from '../store/db.js'

/**
 * Encrypts secrets that must be shown again later (trigger tokens to their owner) with
 * AES-256-GCM under a key made once per store; lookups use a digest, never the plain text.
 */
export function secretBox(db: Db) {
  const row = db.prepare("SELECT value FROM emulator_meta WHERE key = 'secret_key'").get() as
    { value: string } | undefined
  let key: Buffer
  if (row) key = Buffer.from(row.value, 'base64')
  else {
    key = randomBytes(32)
    db.prepare("INSERT INTO emulator_meta (key, value) VALUES ('secret_key', ?)").run(key.toString('base64'))
  }
  return {
    seal(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    open(sealed: string): string {
      const raw = Buffer.from(sealed, 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}
