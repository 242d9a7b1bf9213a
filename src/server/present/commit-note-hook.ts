import type { HistoryCommit } from '../git/history.js'
import type { CommitNoteRow } from '../store/commit-notes.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { noteBase, type HookNote, type HookProject } from './hook-payloads.js'
import { commitNoteDiscussionId } from './notes.js'
import { commitHookAttrs } from './push-payloads.js'

/**
 * `Gitlab::DataBuilder::Note#build` for a comment on a commit: `noteable_type` `Commit`, no noteable id,
 * `commit_id` its SHA, a `LegacyDiffNote` on a line with its `line_code` (`st_diff`, the file's diff GitLab
 * keeps with it, is not kept: null), and the commit's `hook_attrs` as `commit`.
 */
export function commitNotePayload(
  instance: Instance,
  project: HookProject,
  user: UserRow,
  note: CommitNoteRow,
  lineCode: string | null,
  commit: HistoryCommit,
  action: string,
): Record<string, unknown> {
  const hookNote: HookNote = {
    id: note.id,
    author_id: note.author_id,
    body: note.note,
    created_at: note.created_at,
    updated_at: note.updated_at,
    discussion_id: commitNoteDiscussionId(note),
    commit_id: note.commit_sha,
    line_code: lineCode,
    noteable_id: null,
    noteable_type: 'Commit',
    system: false,
    type: note.line === null ? null : 'LegacyDiffNote',
    internal: false,
    url: `${instance.baseUrl}/${project.row.full_path}/-/commit/${note.commit_sha}#note_${note.id}`,
  }
  return {
    ...noteBase(instance, project, user, hookNote, false, action),
    commit: commitHookAttrs(instance, project.row.full_path, commit),
  }
}
