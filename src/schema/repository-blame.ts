import { Type, type Static } from '@sinclair/typebox'
import { nonBlankString } from './params.js'

/**
 * A file's blame (`GET /projects/:id/repository/files/:file_path/blame`, `lib/api/files.rb`):
 * `Entities::BlameRange` and `Entities::BlameRangeCommit` (`lib/api/entities/blame_range.rb`,
 * `blame_range_commit.rb`), and the route's parameters.
 */

/** `Entities::BlameRangeCommit`: the commit's fields a blame shows, dates with their own offset. */
export const BlameRangeCommit = Type.Object(
  {
    id: Type.String(),
    parent_ids: Type.Array(Type.String()),
    message: Type.String(),
    authored_date: Type.String(),
    author_name: Type.String(),
    author_email: Type.String(),
    committed_date: Type.String(),
    committer_name: Type.String(),
    committer_email: Type.String(),
  },
  { title: 'BlameRangeCommit' },
)
export type BlameRangeCommit = Static<typeof BlameRangeCommit>

/** `Entities::BlameRange`: consecutive lines written by one commit, each without its newline. */
export const BlameRange = Type.Object(
  { commit: BlameRangeCommit, lines: Type.Array(Type.String()) },
  { title: 'BlameRange' },
)
export type BlameRange = Static<typeof BlameRange>

/** A line number of `range[...]`: an integer above 0 (`values: ->(v) { v > 0 }`), not blank. */
const lineNumber = (description: string) => Type.Integer({ minimum: 1, 'x-allow-blank': false, description })

/** `?ref=` (required) and `range[start]`, `range[end]` (both or neither; 1-based, inclusive). */
export const BlameQuery = Type.Object({
  ref: nonBlankString({ description: 'branch, tag or commit' }),
  range: Type.Optional(
    Type.Object({
      start: lineNumber('the first line to blame'),
      end: lineNumber('the last line to blame (past the end: the last line)'),
    }),
  ),
})
export type BlameQuery = Static<typeof BlameQuery>
