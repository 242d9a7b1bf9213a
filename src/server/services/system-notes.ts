import type { Store } from '../store/index.js'
import { formatDuration } from '../domain/chronic-duration.js'

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

export const systemNoteBody = {
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
