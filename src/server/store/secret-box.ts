import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/**
 * Encrypts secrets that must be shown again later (trigger tokens to their owner, running jobs'
 * tokens to administrators) with AES-256-GCM, as GitLab's `attr_encrypted` does for
 * `Ci::Trigger#encrypted_token` and `Ci::Build#token_encrypted`. The key lives apart from the
 * database (src/server/store/secrets-file.ts); lookups use a digest, never the plain text.
 */
export function secretBox(key: Buffer) {
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
export type SecretBox = ReturnType<typeof secretBox>
