import type { CommitNote } from '../../schema/commit-note.js'
import type { CommitNoteRow } from '../store/commit-notes.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/** `Entities::CommitNote` (`lib/api/entities/commit_note.rb`) of a row and its author. */
export function presentCommitNote(instance: Instance, row: CommitNoteRow, author: UserRow): CommitNote {
  return {
    note: row.note,
    path: row.path,
    line: row.line,
    line_type: row.line_type,
    author: presentUser(author, instance),
    created_at: row.created_at,
  }
}
