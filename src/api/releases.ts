import { Version } from '../schema/version.js'
import type { Http } from './http.js'

/** `18.2.1-ee` -> [18, 2, 1]; anything unreadable -> undefined. */
function parts(version: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version)
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined
}

/** True when `version` is `since` or later (both `X.Y[.Z]`). */
export function releaseAtLeast(version: string, since: string): boolean {
  const a = parts(version)
  const b = parts(since) as number[]
  if (!a) return true // unknown: assume current
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) > (b[i] as number)
  return true
}

/**
 * Reads the server's release once (`GET /version`, only when a release-tied call is made) and
 * warns once per feature when the caller uses something that release no longer has (GitLab's doc/api/runners.md).
 * The warning never stops the call: GitLab's own answer (e.g. 410) still reaches the caller.
 */
export function releaseGuard(http: Http, warn: (message: string) => void) {
  let version: Promise<string | undefined> | undefined
  const warned = new Set<string>()
  return {
    /** Warns once if the server is at `removedIn` or later for `feature`. */
    async removedIn(feature: string, removedIn: string, instead: string): Promise<void> {
      if (warned.has(feature)) return
      version ??= http.request('GET', '/version', { response: Version }).then(
        (v) => v.version,
        () => undefined, // no version (anonymous, old proxy): no warning rather than a failure
      )
      const v = await version
      if (v !== undefined && releaseAtLeast(v, removedIn) && !warned.has(feature)) {
        warned.add(feature)
        warn(`${feature} was removed in GitLab ${removedIn} (this server runs ${v}); ${instead}`)
      }
    },
  }
}
export type ReleaseGuard = ReturnType<typeof releaseGuard>

/** The default warning channel: a Node process warning, shown once per feature. */
export const processWarning = (message: string) => process.emitWarning(message, 'GitLabDeprecationWarning')
