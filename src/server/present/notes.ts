import { createHash } from 'node:crypto'
import type { Note } from '../../schema/index.js'
import type { CommitNoteRow } from '../store/commit-notes.js'
import type { NoteRow } from '../store/notes.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/** `Entities::Note` (`lib/api/entities/note.rb`): an issue note; issue notes are never resolvable. */
export function presentNote(
  instance: Instance,
  row: NoteRow,
  issue: { id: number; iid: number; project_id: number },
  author: UserRow | undefined,
  commands: Note['commands_changes'] = {},
): Note {
  if (!author) throw new Error(`note ${row.id}: author ${row.author_id} is missing`)
  return {
    id: row.id,
    type: row.type ?? null,
    body: row.body,
    attachment: null,
    author: presentUser(author, instance),
    created_at: row.created_at,
    updated_at: row.updated_at,
    system: row.system === 1,
    noteable_id: issue.id,
    noteable_type: 'Issue',
    project_id: issue.project_id,
    resolvable: false,
    confidential: row.internal === 1,
    internal: row.internal === 1,
    imported: false,
    imported_from: 'none',
    noteable_iid: issue.iid,
    commands_changes: commands,
  }
}

/** `Entities::Note` of a comment on a commit (an event's `note`): no noteable id nor iid, never internal. */
export function presentNoteOfCommit(instance: Instance, row: CommitNoteRow, author: UserRow): Note {
  return {
    id: row.id,
    type: row.line === null ? null : 'LegacyDiffNote',
    body: row.note,
    attachment: null,
    author: presentUser(author, instance),
    created_at: row.created_at,
    updated_at: row.updated_at,
    system: false,
    noteable_id: null,
    noteable_type: 'Commit',
    project_id: row.project_id,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
    noteable_iid: null,
    commands_changes: {},
  }
}

/**
 * A comment on a commit's discussion id: 40 hex digits as GitLab's, derived from its id (our comments on
 * commits keep none), apart from the issue notes' with the same id.
 */
export const commitNoteDiscussionId = (row: Pick<CommitNoteRow, 'id'>): string =>
  createHash('sha1').update(`commit_note:${row.id}`).digest('hex')

/**
 * A note's discussion id: its thread's, or for an individual note one of its own, 40 hex digits as
 * GitLab's (`Discussion.discussion_id`, a SHA1), derived from the note's id so that it stays.
 */
export const discussionIdOf = (row: Pick<NoteRow, 'id' | 'discussion_id'>): string =>
  row.discussion_id ?? createHash('sha1').update(`note:${row.id}`).digest('hex')
