import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Signs the pages' session cookies with a key of their own derived from the instance's `dbKeyBase`
 * (as token-digests.ts derives its key), so that a cookie cannot be forged without the secrets
 * file and outlives a restart of a `--data` directory. `mac` also derives the forms' CSRF tokens.
 */
export function sessionSeal(dbKeyBase: Buffer) {
  const key = createHmac('sha256', dbKeyBase).update('page sessions').digest()
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url')
  return {
    mac,
    /** `value.mac`: the MAC is base64url, which has no `.`, so the last `.` always parts them. */
    sign: (value: string) => `${value}.${mac(value)}`,
    /** The value of a signed text, or null when its signature does not match. */
    open(signed: string): string | null {
      const at = signed.lastIndexOf('.')
      if (at <= 0) return null
      const value = signed.slice(0, at)
      const given = Buffer.from(signed.slice(at + 1))
      const expected = Buffer.from(mac(value))
      return given.length === expected.length && timingSafeEqual(given, expected) ? value : null
    },
  }
}
export type SessionSeal = ReturnType<typeof sessionSeal>
