import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, UserBasic } from './common.js'
import { boolParam, dateTimeParam, nonBlankString } from './params.js'

const Ids = Type.Array(Type.Integer())

/**
 * The changes a note's quick actions made, under GitLab's update parameter names
 * (`Notes::CreateService#do_commands`); empty for a plain comment. Only the keys
 * `Note#commands_changes` (app/models/note.rb) lets through, in its order, which `Hash#slice` keeps.
 */
export const NoteCommandsChanges = Type.Object(
  {
    due_date: Type.Optional(Nullable(Type.String())),
    label_ids: Type.Optional(Ids),
    remove_label_ids: Type.Optional(Ids),
    add_label_ids: Type.Optional(Ids),
    canonical_issue_id: Type.Optional(Type.Integer()),
    confidential: Type.Optional(Type.Boolean()),
    assignee_ids: Type.Optional(Ids),
    milestone_id: Type.Optional(Nullable(Type.Integer())),
    time_estimate: Type.Optional(Type.Integer()),
    spend_time: Type.Optional(
      Type.Object({
        duration: Type.Union([Type.Integer(), Type.Literal('reset')]),
        user_id: Type.Integer(),
        spent_at: Type.Optional(Type.String()),
        category: Type.Optional(Type.Null()),
      }),
    ),
    discussion_locked: Type.Optional(Type.Boolean()),
    promote_to_epic: Type.Optional(Type.Boolean()),
    weight: Type.Optional(Nullable(Type.Integer())),
    emoji_award: Type.Optional(Type.String()),
    todo_event: Type.Optional(Type.String()),
    subscription_event: Type.Optional(Type.String()),
    state_event: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
  },
  { title: 'NoteCommandsChanges' },
)

/**
 * `Entities::Note` (`lib/api/entities/note.rb`): a comment or system note on an issue, in GitLab's key order;
 * a comment on a commit (in an event) has no `noteable_id` nor `noteable_iid`.
 */
export const Note = Type.Object(
  {
    id: Type.Integer(),
    type: Nullable(Type.String()),
    body: Type.String(),
    attachment: Nullable(Type.String()),
    author: UserBasic,
    created_at: Timestamp,
    updated_at: Timestamp,
    system: Type.Boolean(),
    noteable_id: Nullable(Type.Integer()),
    noteable_type: Type.String({ description: 'Issue or Commit' }),
    project_id: Type.Integer(),
    resolvable: Type.Boolean(),
    confidential: Type.Boolean(),
    internal: Type.Boolean(),
    imported: Type.Boolean(),
    imported_from: Type.String(),
    noteable_iid: Nullable(Type.Integer()),
    commands_changes: NoteCommandsChanges,
  },
  { title: 'Note' },
)
export type Note = Static<typeof Note>

/** The 202 answer to a note made only of quick actions (`Entities::NoteCommands`, `lib/api/notes.rb`). */
export const NoteCommands = Type.Object(
  { commands_changes: NoteCommandsChanges, summary: Type.Array(Type.String()) },
  { title: 'NoteCommands' },
)
export type NoteCommands = Static<typeof NoteCommands>

/** GitLab's doc/api/issues.md `POST /projects/:id/issues/:issue_iid/notes`. */
export const NoteCreate = Type.Object(
  {
    body: Type.String(),
    confidential: Type.Optional(boolParam({ deprecated: true, description: 'use internal' })),
    internal: Type.Optional(boolParam()),
    created_at: Type.Optional(dateTimeParam()),
  },
  { title: 'NoteCreate' },
)
export type NoteCreate = Static<typeof NoteCreate>

/**
 * `Entities::Discussion` (`lib/api/entities/discussion.rb`): a thread of notes, or one individual note
 * (`individual_note: true`); its id is 40 hex digits.
 */
export const Discussion = Type.Object(
  { id: Type.String(), individual_note: Type.Boolean(), notes: Type.Array(Note) },
  { title: 'Discussion' },
)
export type Discussion = Static<typeof Discussion>

/** `POST .../discussions` and `POST .../discussions/:discussion_id/notes` (`lib/api/discussions.rb`). */
export const DiscussionNoteCreate = Type.Object(
  { body: Type.String(), created_at: Type.Optional(dateTimeParam()) },
  { title: 'DiscussionNoteCreate' },
)
export type DiscussionNoteCreate = Static<typeof DiscussionNoteCreate>

/** `PUT .../discussions/:discussion_id/notes/:note_id`: exactly one of a new body or `resolved`. */
export const DiscussionNoteUpdate = Type.Object(
  { body: Type.Optional(Type.String()), resolved: Type.Optional(boolParam()) },
  { title: 'DiscussionNoteUpdate', 'x-exactly-one-of': ['body', 'resolved'] },
)
export type DiscussionNoteUpdate = Static<typeof DiscussionNoteUpdate>

/** `PUT /projects/:id/issues/:issue_iid/notes/:note_id` (`lib/api/notes.rb`): a new body, if any. */
export const NoteUpdate = Type.Object(
  {
    body: Type.Optional(nonBlankString()),
    confidential: Type.Optional(boolParam({ deprecated: true, description: 'no longer changes anything' })),
  },
  { title: 'NoteUpdate' },
)
export type NoteUpdate = Static<typeof NoteUpdate>

/** `GET /projects/:id/issues/:issue_iid/notes`: GitLab's sort options and pagination. */
export const NoteListQuery = Type.Object(
  {
    order_by: Type.Optional(
      Type.Union([Type.Literal('created_at'), Type.Literal('updated_at')], { default: 'created_at' }),
    ),
    sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
    activity_filter: Type.Optional(
      Type.Union([Type.Literal('all_notes'), Type.Literal('only_comments'), Type.Literal('only_activity')], {
        default: 'all_notes',
      }),
    ),
    page: Type.Optional(Type.Integer()),
    per_page: Type.Optional(Type.Integer()),
  },
  { title: 'NoteListQuery' },
)
export type NoteListQuery = Static<typeof NoteListQuery>
