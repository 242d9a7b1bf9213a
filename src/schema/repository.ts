import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox'
import { Nullable, PageQuery } from './common.js'
import { boolParam, dateTimeParam, nonBlankString } from './params.js'
import { Commit } from './commit.js'
import { PipelineBasic } from './pipeline.js'

/**
 * The repository API's records and parameters: commits (`lib/api/entities/commit.rb`,
 * `commit_detail.rb`, `commit_stats.rb`), files (`lib/api/files.rb`), the tree
 * (`lib/api/entities/tree_object.rb`), branches (`lib/api/entities/branch.rb`), protected branches
 * (`lib/api/entities/protected_branch.rb`, `protected_ref_access.rb`) and tags (`lib/api/entities/tag.rb`).
 */

const oneOf = <T extends string>(values: readonly T[], options: object = {}): TUnion<TLiteral<T>[]> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  )

export { Commit } from './commit.js'

/** `Entities::CommitStats`: lines added and removed against the first parent. */
export const CommitStats = Type.Object({
  additions: Type.Integer(),
  deletions: Type.Integer(),
  total: Type.Integer(),
})
export type CommitStats = Static<typeof CommitStats>

const detailFields = {
  status: Nullable(Type.String()),
  project_id: Type.Integer(),
  last_pipeline: Nullable(PipelineBasic),
}

/**
 * `Entities::CommitDetail` with `stats` (the default), then the last pipeline's status and the
 * pipeline itself. Two schemas, as the serializer writes required keys first: `stats` stays in place.
 */
export const CommitDetail = Type.Object(
  { ...Commit.properties, stats: CommitStats, ...detailFields },
  { title: 'CommitDetail' },
)
export type CommitDetail = Static<typeof CommitDetail>
/** `Entities::CommitDetail` with `stats=false`. */
export const CommitDetailWithoutStats = Type.Object({ ...Commit.properties, ...detailFields })
export type CommitDetailWithoutStats = Static<typeof CommitDetailWithoutStats>
/** A commit's detail as the `stats` parameter asks. */
export const CommitDetailAnswer = Type.Union([CommitDetail, CommitDetailWithoutStats])
export type CommitDetailAnswer = Static<typeof CommitDetailAnswer>

export const commitActionNames = ['create', 'delete', 'move', 'update', 'chmod'] as const
export type CommitActionName = (typeof commitActionNames)[number]

/**
 * One of `actions[]`. Every field is optional here: `RepositoryService` checks them with Grape's
 * messages, naming the action (`actions[0][file_path] is missing`).
 */
export const CommitAction = Type.Object({
  action: Type.Optional(Type.String({ description: commitActionNames.join(', ') })),
  file_path: Type.Optional(Type.String()),
  previous_path: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  encoding: Type.Optional(Type.String({ description: 'text (default) or base64' })),
  last_commit_id: Type.Optional(Type.String()),
  execute_filemode: Type.Optional(Type.Boolean()),
})
export type CommitAction = Static<typeof CommitAction>

/** `POST /projects/:id/repository/commits` (`lib/api/commits.rb`). */
export const CommitCreate = Type.Object({
  branch: nonBlankString({
    description: 'the branch to commit to; a new one needs start_branch or start_sha',
  }),
  commit_message: nonBlankString(),
  actions: Type.Array(CommitAction),
  start_branch: Type.Optional(Type.String()),
  start_sha: Type.Optional(Type.String()),
  author_email: Type.Optional(Type.String()),
  author_name: Type.Optional(Type.String()),
  stats: Type.Optional(boolParam({ default: true })),
  force: Type.Optional(boolParam({ default: false })),
})
export type CommitCreate = Static<typeof CommitCreate>

/** `GET /projects/:id/repository/commits`. */
export const CommitListQuery = Type.Object({
  ref_name: Type.Optional(Type.String()),
  since: Type.Optional(dateTimeParam()),
  until: Type.Optional(dateTimeParam()),
  path: Type.Optional(Type.String()),
  with_stats: Type.Optional(boolParam()),
  all: Type.Optional(boolParam()),
  ...PageQuery.properties,
})
export type CommitListQuery = Static<typeof CommitListQuery>

/** `GET /projects/:id/repository/commits/:sha/refs`: which branches and tags hold the commit. */
export const CommitRefsQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('branch'), Type.Literal('tag'), Type.Literal('all')])),
  ...PageQuery.properties,
})
export type CommitRefsQuery = Static<typeof CommitRefsQuery>

/** `Entities::BasicRef`: a branch or tag that holds a commit. */
export const CommitRef = Type.Object({
  type: Type.Union([Type.Literal('branch'), Type.Literal('tag')]),
  name: Type.String(),
})
export type CommitRef = Static<typeof CommitRef>

/** `GET /projects/:id/repository/commits/:sha`. */
export const CommitGetQuery = Type.Object({ stats: Type.Optional(boolParam({ default: true })) })

/** `GET /projects/:id/repository/files/:file_path` (`blob_data` plus the content in Base64). */
export const RepositoryFile = Type.Object(
  {
    file_name: Type.String(),
    file_path: Type.String(),
    size: Type.Integer(),
    encoding: Type.String(),
    content_sha256: Type.String(),
    ref: Type.String(),
    blob_id: Type.String(),
    commit_id: Type.String(),
    last_commit_id: Type.String(),
    execute_filemode: Type.Boolean(),
    content: Type.String(),
  },
  { title: 'RepositoryFile' },
)
export type RepositoryFile = Static<typeof RepositoryFile>
export type RepositoryFileMeta = Omit<RepositoryFile, 'content'>

/** `?ref=` of a file read: required (not blank) for the file, optional (the default branch) for `/raw`. */
export const FileRefQuery = Type.Object({ ref: nonBlankString({ description: 'branch, tag or commit' }) })
export const RawFileQuery = Type.Object({
  ref: Type.Optional(
    nonBlankString({ description: 'branch, tag or commit; the default branch if not given' }),
  ),
  lfs: Type.Optional(boolParam()),
})

/** Create, update (`content`) and delete (`simple_file_params`) of one file. */
export const FileDelete = Type.Object({
  branch: nonBlankString(),
  commit_message: nonBlankString(),
  start_branch: Type.Optional(Type.String()),
  author_email: Type.Optional(Type.String()),
  author_name: Type.Optional(Type.String()),
  last_commit_id: Type.Optional(Type.String()),
})
export type FileDelete = Static<typeof FileDelete>
export const FileWrite = Type.Object({
  ...FileDelete.properties,
  content: Type.String(),
  encoding: Type.Optional(oneOf(['text', 'base64'], { default: 'text' })),
  execute_filemode: Type.Optional(boolParam()),
})
export type FileWrite = Static<typeof FileWrite>

/** `POST`/`PUT .../files/:file_path`'s answer. */
export const FileCommitted = Type.Object({ file_path: Type.String(), branch: Type.String() })
export type FileCommitted = Static<typeof FileCommitted>

/** `Entities::TreeObject`. */
export const TreeObject = Type.Object(
  { id: Type.String(), name: Type.String(), type: Type.String(), path: Type.String(), mode: Type.String() },
  { title: 'TreeObject' },
)
export type TreeObject = Static<typeof TreeObject>

/** `GET /projects/:id/repository/tree` (`lib/api/repositories.rb`): offset pages, or keyset ones after `page_token`. */
export const TreeQuery = Type.Object({
  ref: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  recursive: Type.Optional(boolParam({ default: false })),
  pagination: Type.Optional(oneOf(['legacy', 'keyset'], { default: 'legacy' })),
  page_token: Type.Optional(Type.String()),
  ...PageQuery.properties,
})
export type TreeQuery = Static<typeof TreeQuery>

/** `Entities::Branch`. */
export const Branch = Type.Object(
  {
    name: Type.String(),
    commit: Commit,
    merged: Type.Boolean(),
    protected: Type.Boolean(),
    developers_can_push: Type.Boolean(),
    developers_can_merge: Type.Boolean(),
    can_push: Type.Boolean(),
    default: Type.Boolean(),
    web_url: Type.String(),
  },
  { title: 'Branch' },
)
export type Branch = Static<typeof Branch>

export const BranchListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  ...PageQuery.properties,
})
export type BranchListQuery = Static<typeof BranchListQuery>

/** `POST /projects/:id/repository/branches`. */
export const BranchCreate = Type.Object({ branch: nonBlankString(), ref: nonBlankString() })
export type BranchCreate = Static<typeof BranchCreate>

/** `Entities::ProtectedRefAccess`. */
export const ProtectedRefAccess = Type.Object({
  id: Type.Integer(),
  access_level: Type.Integer(),
  access_level_description: Type.String(),
  deploy_key_id: Type.Optional(Nullable(Type.Integer())),
  user_id: Nullable(Type.Integer()),
  group_id: Nullable(Type.Integer()),
})

/** `Entities::ProtectedBranch` (EE adds `unprotect_access_levels`, `code_owner_approval_required`, `inherited`). */
export const ProtectedBranch = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    push_access_levels: Type.Array(ProtectedRefAccess),
    merge_access_levels: Type.Array(ProtectedRefAccess),
    allow_force_push: Type.Boolean(),
    unprotect_access_levels: Type.Optional(Type.Array(ProtectedRefAccess)),
    code_owner_approval_required: Type.Optional(Type.Boolean()),
    inherited: Type.Optional(Type.Boolean()),
  },
  { title: 'ProtectedBranch' },
)
export type ProtectedBranch = Static<typeof ProtectedBranch>

/** The levels a protection accepts (`ProtectedRefAccess::HUMAN_ACCESS_LEVELS`): 0, 30, 40 or 60 (checked by the service). */
const protectLevel = Type.Optional(
  Type.Integer({ description: '0 (no one), 30 (Developers + Maintainers), 40 (Maintainers), 60 (Admins)' }),
)

/** `POST /projects/:id/protected_branches` (`lib/api/protected_branches.rb`). */
export const ProtectBranch = Type.Object({
  name: nonBlankString(),
  push_access_level: protectLevel,
  merge_access_level: protectLevel,
  unprotect_access_level: protectLevel,
  allow_force_push: Type.Optional(boolParam({ default: false })),
  code_owner_approval_required: Type.Optional(boolParam({ default: false })),
})
export type ProtectBranch = Static<typeof ProtectBranch>

export const ProtectedBranchQuery = Type.Object({
  search: Type.Optional(Type.String()),
  ...PageQuery.properties,
})
export type ProtectedBranchQuery = Static<typeof ProtectedBranchQuery>

/** `Entities::Tag`. `target`: the tag object of an annotated tag, else the commit. */
export const Tag = Type.Object(
  {
    name: Type.String(),
    message: Nullable(Type.String()),
    target: Type.String(),
    commit: Commit,
    release: Nullable(Type.Object({ tag_name: Type.String(), description: Type.String() })),
    protected: Type.Boolean(),
    created_at: Nullable(Type.String()),
  },
  { title: 'Tag' },
)
export type Tag = Static<typeof Tag>

export const TagListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  order_by: Type.Optional(oneOf(['name', 'updated', 'version'])),
  sort: Type.Optional(oneOf(['asc', 'desc'])),
  ...PageQuery.properties,
})
export type TagListQuery = Static<typeof TagListQuery>

/** `POST /projects/:id/repository/tags`. */
export const TagCreate = Type.Object({
  tag_name: nonBlankString(),
  ref: nonBlankString(),
  message: Type.Optional(Type.String()),
})
export type TagCreate = Static<typeof TagCreate>
