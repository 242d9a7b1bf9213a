import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery } from './common.js'
import { boolParam, csvParam, nonBlankString } from './params.js'
import { Commit } from './repository.js'

/**
 * The repository's comparisons and raw objects: `Entities::Diff` and `Entities::Compare`
 * (`lib/api/entities/diff.rb`, `compare.rb`), the parameters of `compare`, `merge_base`, a
 * commit's `diff`, `blobs` and `archive` (`lib/api/repositories.rb`, `lib/api/commits.rb`).
 */

/** `Entities::Diff`: one file's diff; a missing side's mode is `'0'`. */
export const Diff = Type.Object(
  {
    diff: Type.String(),
    collapsed: Type.Boolean(),
    too_large: Type.Boolean(),
    new_path: Type.String(),
    old_path: Type.String(),
    a_mode: Type.String(),
    b_mode: Type.String(),
    new_file: Type.Boolean(),
    renamed_file: Type.Boolean(),
    deleted_file: Type.Boolean(),
    generated_file: Type.Boolean(),
  },
  { title: 'Diff' },
)
export type Diff = Static<typeof Diff>

/** `Entities::Compare`: `commit` is the newest of `commits` (oldest first), null when there are none. */
export const Compare = Type.Object(
  {
    commit: Nullable(Commit),
    commits: Type.Array(Commit),
    diffs: Type.Array(Diff),
    compare_timeout: Type.Boolean(),
    compare_same_ref: Type.Boolean(),
    web_url: Type.String(),
  },
  { title: 'Compare' },
)
export type Compare = Static<typeof Compare>

/** `use :with_unidiff` (`lib/api/helpers/unidiff.rb`): diffs with `---`/`+++` header lines. */
const unidiff = Type.Optional(boolParam({ default: false, description: 'diffs in unified diff format' }))

/** `GET /projects/:id/repository/compare`. */
export const CompareQuery = Type.Object({
  from: Type.String({ description: 'commit, branch or tag to start from' }),
  to: Type.String({ description: 'commit, branch or tag to stop at' }),
  from_project_id: Type.Optional(Type.Integer({ description: 'the project `from` is in (a fork)' })),
  straight: Type.Optional(boolParam({ default: false, description: 'from..to, not from...to' })),
  unidiff,
})
export type CompareQuery = Static<typeof CompareQuery>

/** `GET /projects/:id/repository/commits/:sha/diff`. */
export const CommitDiffQuery = Type.Object({ ...PageQuery.properties, unidiff })
export type CommitDiffQuery = Static<typeof CommitDiffQuery>

/** `GET /projects/:id/repository/merge_base` (`refs[]=a&refs[]=b`, or `refs=a,b`). */
export const MergeBaseQuery = Type.Object({ refs: csvParam({ description: 'two or more refs' }) })
export type MergeBaseQuery = Static<typeof MergeBaseQuery>

/** `GET /projects/:id/repository/blobs/:sha`: the blob's bytes in Base64. */
export const Blob = Type.Object(
  { size: Type.Integer(), encoding: Type.Literal('base64'), content: Type.String(), sha: Type.String() },
  { title: 'Blob' },
)
export type Blob = Static<typeof Blob>

/** `GET /projects/:id/repository/archive[.format]`. */
export const ArchiveQuery = Type.Object({
  sha: Type.Optional(Type.String({ description: 'commit, branch or tag (default branch)' })),
  format: Type.Optional(nonBlankString({ description: 'tar.gz (default), tgz, gz, tar, zip' })),
  path: Type.Optional(Type.String({ description: 'the folder to archive' })),
  include_lfs_blobs: Type.Optional(boolParam({ default: true })),
  exclude_paths: Type.Optional(csvParam({ description: 'paths to leave out' })),
})
export type ArchiveQuery = Static<typeof ArchiveQuery>
