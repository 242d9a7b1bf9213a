import type { Store } from '../store/index.js'
import { formatDuration } from '../domain/chronic-duration.js'
import { applies } from '../domain/releases.js'

/*
 * The system notes GitLab writes on an issue when it changes (`SystemNotes::IssuablesService`,
 * `SystemNotes::TimeTrackingService`), in their words. State, label and milestone changes are
 * resource events in GitLab, not notes, so they have none here either.
 */

/** Ruby's `Array#to_sentence` with Rails' English connectors: `a`, `a and b`, `a, b, and c`. */
export function toSentence(words: string[]): string {
  if (words.length <= 2) return words.join(' and ')
  return `${words.slice(0, -1).join(', ')}, and ${words.at(-1)}`
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

const SURROGATE = /[\uD800-\uDFFF]/

/** Rails' `Date#to_fs(:long)` of `YYYY-MM-DD`: `September 20, 2018`. */
function longDate(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return `${MONTHS[m - 1]} ${d}, ${y}`
}

/**
 * The titles as `change_title` marks them: the changed part between the longest common prefix and
 * suffix (by character, as Ruby indexes strings) wrapped `{-old-}` and `{+new+}`
 * (`Gitlab::Diff::InlineDiffMarkdownMarker`). Chosen: one changed part, as `Gitlab::Diff::InlineDiff`
 * found it before `CharDiff`; since then GitLab's diff-match-patch may mark several parts of a title
 * changed in several places.
 */
function markedTitles(before: string, after: string): [string, string] {
  // By UTF-16 unit where that is by character (no surrogate pair in either): no arrays of
  // one-character strings on every title edit.
  const units = !SURROGATE.test(before) && !SURROGATE.test(after)
  const a = units ? before : Array.from(before)
  const b = units ? after : Array.from(after)
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++
  const text = (part: string | string[]) => (typeof part === 'string' ? part : part.join(''))
  const mark = (chars: string | string[], sign: string) => {
    const end = chars.length - suffix
    if (end <= prefix) return text(chars)
    return `${text(chars.slice(0, prefix))}{${sign}${text(chars.slice(prefix, end))}${sign}}${text(chars.slice(end))}`
  }
  // GitLab skips the marks when the old text is empty (`InlineDiff#inline_diffs`).
  return a.length === 0 ? [before, after] : [mark(a, '-'), mark(b, '+')]
}

export const systemNoteBody = {
  /** `changed title from **{-Old-} title** to **{+New+} title**` (`SystemNotes::IssuablesService#change_title`). */
  title(before: string, after: string): string {
    const [old, now] = markedTitles(before, after)
    return `changed title from **${old}** to **${now}**`
  },
  /**
   * `changed due date to September 20, 2018`, or `removed due date` (from 16.0 followed by the date
   * removed) (`SystemNotes::TimeTrackingService`).
   */
  dueDate(due: string | null, previous: string | null, version: string): string {
    if (due) return `changed due date to ${longDate(due)}`
    return previous && applies(version, 'removedDueDateNamesDate')
      ? `removed due date ${longDate(previous)}`
      : 'removed due date'
  },
  /** `assigned to @a and @b and unassigned @c`; undefined when nobody changed. */
  assignees(added: string[], removed: string[]): string | undefined {
    const parts: string[] = []
    if (added.length > 0) parts.push(`assigned to ${toSentence(added.map((u) => `@${u}`))}`)
    if (removed.length > 0) parts.push(`unassigned ${toSentence(removed.map((u) => `@${u}`))}`)
    return parts.length > 0 ? parts.join(' and ') : undefined
  },
  description: () => 'changed the description',
  confidential: (on: boolean) => (on ? 'made the issue confidential' : 'made the issue visible to everyone'),
  discussionLock: (locked: boolean) => `${locked ? 'locked' : 'unlocked'} the discussion in this issue`,
  /** The new estimate: `changed time estimate to 3h 30m`, or `removed time estimate` for 0. */
  timeEstimate: (seconds: number) =>
    seconds === 0 ? 'removed time estimate' : `changed time estimate to ${formatDuration(seconds)}`,
  /** A timelog through the API (it has no `spent_at`): `added 1h of time spent`, `subtracted 30m ...`. */
  timeSpent: (seconds: number | 'reset') =>
    seconds === 'reset'
      ? 'removed time spent'
      : `${seconds > 0 ? 'added' : 'subtracted'} ${formatDuration(Math.abs(seconds))} of time spent`,
}

/** Writes one system note by `authorId` (it does not count in `user_notes_count`). */
export function addSystemNote(store: Store, issueId: number, authorId: number, body: string, now: string) {
  store.notes.insert({
    issue_id: issueId,
    author_id: authorId,
    body,
    system: 1,
    internal: 0,
    created_at: now,
    updated_at: now,
  })
}
