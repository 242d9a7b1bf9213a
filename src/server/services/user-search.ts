import type { UserRow } from '../store/users.js'

/** `Gitlab::SQL::Pattern::MIN_CHARS_FOR_PARTIAL_MATCHING`: shorter words never match as a part. */
const MIN_CHARS_FOR_PARTIAL_MATCHING = 3
/** `REGEX_QUOTED_TERM`: a quoted phrase between spaces (or the ends) is one term. */
const QUOTED_TERM = /(?<=^| )"[^"]+"(?= |$)/g

/** `split_query_to_search_terms`: the words outside quotes, then the quoted phrases without quotes. */
function searchTerms(query: string): string[] {
  const quoted: string[] = []
  const rest = query.replace(QUOTED_TERM, (term) => {
    quoted.push(term.slice(1, -1))
    return ''
  })
  return [...rest.split(/\s+/).filter(Boolean), ...quoted]
}

/**
 * `fuzzy_arel_match` (lib/gitlab/sql/pattern.rb) as a test of one column's text: every term of at
 * least 3 characters is a part of it, any case (`ILIKE '%term%'`); without such a term, the whole
 * query, squished, is the text itself, any case (`ILIKE` without wildcards).
 */
function fuzzyMatch(query: string): (text: string) => boolean {
  const squished = query.trim().replace(/\s+/g, ' ').toLowerCase()
  const words = searchTerms(squished).filter((w) => w.length >= MIN_CHARS_FOR_PARTIAL_MATCHING)
  if (words.length === 0) return (text) => text.toLowerCase() === squished
  return (text) => {
    const lower = text.toLowerCase()
    return words.every((w) => lower.includes(w))
  }
}

/** How a user search matches and ranks users; `none` when nothing can match (`User.none`). */
export type UserSearch =
  | 'none'
  | {
      matches: (u: UserRow) => boolean
      /** `users_match_priority`: 1 the username is the query, 2 the name is, 3 neither, any case. */
      rank: (u: UserRow) => number
    }

/**
 * `User.search` (app/models/user.rb) for UsersFinder's `search`; undefined when the parameter is
 * blank, so not applied. A leading `@` is dropped; the rest matches the name or username as
 * `fuzzyMatch` says, or the email exactly (administrators: the primary email, `with_private_emails`;
 * others the public email, which our users never have). Ranking puts the exact matches first
 * (priority 0, a public email, cannot occur here).
 */
export function userSearch(search: string | undefined, admin: boolean): UserSearch | undefined {
  if (!search?.trim()) return undefined
  const query = (search.startsWith('@') ? search.slice(1) : search).toLowerCase()
  if (!query.trim()) return 'none'
  const fuzzy = fuzzyMatch(query)
  return {
    matches: (u) => fuzzy(u.name) || fuzzy(u.username) || (admin && (u.email ?? '').toLowerCase() === query),
    rank: (u) => (u.username.toLowerCase() === query ? 1 : u.name.toLowerCase() === query ? 2 : 3),
  }
}
