/** `LIKE` with `%` and `_` taken literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * A branch or tag `search` as GitLab's `GitRefsFinder#by_search` reads it (app/finders/git_refs_finder.rb),
 * case-insensitively: a term with `^`, `$` or `*` is a pattern (`^` anchors the start, `$` the end,
 * `*` any run of characters), anything else a substring whose exact match (any case) comes first.
 * `like` is the SQL `LIKE` pattern (escaped with `\`), `exact` the name to put first (null for a pattern).
 */
export function refSearch(search = ''): { like: string; exact: string | null } {
  if (!/[\^$*]/.test(search)) return { like: `%${likeEscape(search)}%`, exact: search === '' ? null : search }
  const start = search.startsWith('^')
  const end = search.endsWith('$') && search.length > (start ? 1 : 0)
  const body = search.slice(start ? 1 : 0, end ? -1 : undefined)
  const like = body.split('*').map(likeEscape).join('%')
  return { like: `${start ? '' : '%'}${like}${end ? '' : '%'}`, exact: null }
}

/** Moves the name `exact` matches (any case) to the front, as `set_exact_match_as_first_result` does. */
export function exactMatchFirst<T extends { name: string }>(rows: T[], exact: string | null): T[] {
  if (exact === null) return rows
  const lower = exact.toLowerCase()
  const i = rows.findIndex((r) => r.name.toLowerCase() === lower)
  if (i > 0) rows.unshift(...rows.splice(i, 1))
  return rows
}
