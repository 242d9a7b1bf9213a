import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, UserBasic } from './common.js'
import { boolParam, dateTimeParam } from './params.js'

/** Quick-action effects reported with a note (reference §8.3); empty for a plain comment. */
export const NoteCommandsChanges = Type.Object(
  { promote_to_epic: Type.Optional(Type.Boolean()) },
  { title: 'NoteCommandsChanges' },
)

/** spec 2.10, reference §8.3 (`Entities::Note`): a comment or system note on an issue, in GitLab's key order. */
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
    noteable_id: Type.Integer(),
    noteable_type: Type.String({ description: 'Issue' }),
    project_id: Type.Integer(),
    resolvable: Type.Boolean(),
    confidential: Type.Boolean(),
    internal: Type.Boolean(),
    imported: Type.Boolean(),
    imported_from: Type.String(),
    noteable_iid: Type.Integer(),
    commands_changes: NoteCommandsChanges,
  },
  { title: 'Note' },
)
export type Note = Static<typeof Note>

/** reference §8.3: the 202 answer to a note made only of quick actions (`Entities::NoteCommands`). */
export const NoteCommands = Type.Object(
  { commands_changes: NoteCommandsChanges, summary: Type.Array(Type.String()) },
  { title: 'NoteCommands' },
)
export type NoteCommands = Static<typeof NoteCommands>

/** spec 4.3 `POST /projects/:id/issues/:issue_iid/notes`. */
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

/** `GET /projects/:id/issues/:issue_iid/notes`: GitLab's sort options and pagination. */
export const NoteListQuery = Type.Object(
  {
    order_by: Type.Optional(Type.Union([Type.Literal('created_at'), Type.Literal('updated_at')])),
    sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    activity_filter: Type.Optional(
      Type.Union([Type.Literal('all_notes'), Type.Literal('only_comments'), Type.Literal('only_activity')]),
    ),
    page: Type.Optional(Type.Integer()),
    per_page: Type.Optional(Type.Integer()),
  },
  { title: 'NoteListQuery' },
)
export type NoteListQuery = Static<typeof NoteListQuery>
