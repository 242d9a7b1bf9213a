import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { oneOf } from './pipeline.js'

/**
 * Comments on a commit (`lib/api/commits.rb`, `GET`/`POST /projects/:id/repository/commits/:sha/comments`):
 * `Entities::CommitNote` (`lib/api/entities/commit_note.rb`) and the parameters of a new one.
 */

/** `Entities::CommitNote`: `path`, `line` and `line_type` only for a note on a line of the commit's diff. */
export const CommitNote = Type.Object(
  {
    note: Type.String(),
    path: Nullable(Type.String()),
    line: Nullable(Type.Integer()),
    line_type: Nullable(Type.String({ description: 'new or old' })),
    author: UserBasic,
    created_at: Timestamp,
  },
  { title: 'CommitNote' },
)
export type CommitNote = Static<typeof CommitNote>

/**
 * `POST .../comments`: `note`; with `path`, `line` too (Grape's `given :path`: 400 `line is missing`),
 * and `line_type` `new` (the default, a line of the new file) or `old`. Without a `path`, GitLab
 * neither checks nor uses `line` and `line_type`.
 */
export const CommitNoteCreate = Type.Object(
  {
    note: Type.String(),
    path: Type.Optional(Type.String()),
    line: Type.Optional(Type.Integer()),
    line_type: Type.Optional(oneOf(['new', 'old'], { default: 'new' })),
  },
  { 'x-given': { path: ['line', 'line_type'] } },
)
export type CommitNoteCreate = Static<typeof CommitNoteCreate>

/** `GET .../comments`: offset pages. */
export const CommitNoteListQuery = Type.Object({ ...PageQuery.properties })
export type CommitNoteListQuery = Static<typeof CommitNoteListQuery>
