import { messageError } from './gitlab-errors.js'

/**
 * `check_unmodified_since!` (`lib/api/helpers.rb`, which `destroy_conditionally!` calls): 412 when the
 * resource changed after the request's `If-Unmodified-Since`; a header that is no time checks nothing.
 */
export function checkUnmodifiedSince(header: string | string[] | undefined, lastModified: string): void {
  const since = typeof header === 'string' ? Date.parse(header) : NaN
  if (!Number.isNaN(since) && Date.parse(lastModified) > since)
    throw messageError(412, '412 Precondition Failed')
}
