import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { CommitNote, type CommitNoteCreate } from '../schema/commit-note.js'
import { AcceptedMessage } from '../schema/project-export.js'
import { ProtectedTag, type ProtectedTagQuery, type ProtectTag } from '../schema/protected-tag.js'
import { BlameRange } from '../schema/repository-blame.js'
import { Contributor, type ContributorQuery } from '../schema/repository-contributors.js'
import {
  Blob,
  Compare,
  Diff,
  type ArchiveQuery,
  type CommitDiffQuery,
  type CompareQuery,
} from '../schema/repository-compare.js'
import {
  Branch,
  Commit,
  CommitDetailAnswer,
  CommitRef,
  ProtectedBranch,
  RepositoryFile,
  Tag,
  type BranchCreate,
  type BranchListQuery,
  type CommitCreate,
  type CommitListQuery,
  type CommitRefsQuery,
  type FileCommitted,
  type FileDelete,
  type FileWrite,
  type ProtectBranch,
  type ProtectedBranchQuery,
  type RepositoryFileMeta,
  type TagCreate,
  type TagListQuery,
  type TreeObject,
  type TreeQuery,
} from '../schema/repository.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'
import type { Query } from './call-options.js'
import { streamDownload } from './project-exports.js'

type ListQuery<Q> = Omit<Q, 'page' | 'per_page'>

/** The `X-Gitlab-*` headers of a file read, as `blob_data` (lib/api/files.rb) has them. */
function fileMeta(headers: Record<string, string | string[] | undefined>): RepositoryFileMeta {
  const h = (key: string) => {
    const v = headers[`x-gitlab-${key.replaceAll('_', '-')}`]
    return (Array.isArray(v) ? v[0] : v) ?? ''
  }
  return {
    file_name: h('file_name'),
    file_path: h('file_path'),
    size: Number(h('size')),
    encoding: h('encoding'),
    content_sha256: h('content_sha256'),
    ref: h('ref'),
    blob_id: h('blob_id'),
    commit_id: h('commit_id'),
    last_commit_id: h('last_commit_id'),
    execute_filemode: h('execute_filemode') === 'true',
  }
}

/** The bytes of a raw read (a file, a blob), GitLab's error thrown for a 4xx/5xx. */
async function bytesOf(http: Http, p: string, options: CallOptions): Promise<Buffer> {
  const res = await http.rawWhole('GET', p, options)
  if (res.status >= 400) await http.read('GET', p, res)
  const chunks: Buffer[] = []
  for await (const chunk of res.body) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/**
 * A project's repository (`lib/api/files.rb`, `commits.rb`, `repositories.rb`, `branches.rb`,
 * `protected_branches.rb`, `tags.rb`, `protected_tags.rb`): files, commits and their diffs,
 * comparisons, merge bases, blobs, archives, the tree, branches and tags and their protection.
 * A file path is one URL-encoded segment (`docs/a.md` -> `docs%2Fa.md`), as are branch names.
 */
export const repository = (http: Http) => ({
  files: {
    /** `GET /projects/:id/repository/files/:file_path?ref=`: metadata and Base64 `content`. */
    get: (project: ResourceRef, filePath: string, ref: string, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/repository/files/${filePath}`, {
        ...options,
        query: { ref },
        response: RepositoryFile,
      }),
    /** `HEAD .../files/:file_path?ref=`: the metadata only, from the `X-Gitlab-*` headers. */
    head: async (project: ResourceRef, filePath: string, ref: string, options: CallOptions = {}) => {
      const p = path`/projects/${project}/repository/files/${filePath}`
      const res = await http.rawWhole('HEAD', p, { ...options, query: { ref } })
      await http.read('HEAD', p, res)
      return fileMeta(res.headers)
    },
    /** `GET .../files/:file_path/raw`: the bytes (`ref` defaults to the default branch). */
    raw: (project: ResourceRef, filePath: string, ref?: string, options: CallOptions = {}) =>
      bytesOf(http, path`/projects/${project}/repository/files/${filePath}/raw`, {
        ...options,
        ...(ref === undefined ? {} : { query: { ref } }),
      }),
    /**
     * `GET .../files/:file_path/blame?ref=`: the commit that wrote each line, consecutive lines of
     * one commit in one range; `range` (1-based, inclusive) blames only those lines.
     */
    blame: (
      project: ResourceRef,
      filePath: string,
      ref: string,
      range?: { start: number; end: number },
      options: CallOptions = {},
    ) =>
      http.request('GET', path`/projects/${project}/repository/files/${filePath}/blame`, {
        ...options,
        query: range ? { ref, range } : { ref },
        response: Type.Array(BlameRange),
      }),
    /** `POST .../files/:file_path`: a commit creating it on `branch`. */
    create: (project: ResourceRef, filePath: string, params: FileWrite, options: CallOptions = {}) =>
      http.request<FileCommitted>('POST', path`/projects/${project}/repository/files/${filePath}`, {
        ...options,
        json: params,
      }),
    /** `PUT .../files/:file_path`: a commit updating it (`last_commit_id`: refused if it changed since). */
    update: (project: ResourceRef, filePath: string, params: FileWrite, options: CallOptions = {}) =>
      http.request<FileCommitted>('PUT', path`/projects/${project}/repository/files/${filePath}`, {
        ...options,
        json: params,
      }),
    /** `DELETE .../files/:file_path`: a commit deleting it; 204. */
    remove: (project: ResourceRef, filePath: string, params: FileDelete, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/repository/files/${filePath}`, {
        ...options,
        json: params,
      }),
  },
  commits: {
    /** `GET /projects/:id/repository/commits`, lazily, newest first. */
    list: (project: ResourceRef, query: ListQuery<CommitListQuery> = {}, options: PageOptions = {}) =>
      http.paginate<Commit>(path`/projects/${project}/repository/commits`, {
        ...options,
        query: query as Query,
      }),
    /** `GET /projects/:id/repository/commits/:sha` (a SHA, branch or tag), with `stats` unless `stats: false`. */
    get: (project: ResourceRef, sha: string, query: { stats?: boolean } = {}, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/repository/commits/${sha}`, {
        ...options,
        query: query as Query,
        response: CommitDetailAnswer,
      }),
    /** `GET /projects/:id/repository/commits/:sha/diff`, lazily: its diffs against its first parent. */
    diff: (
      project: ResourceRef,
      sha: string,
      query: ListQuery<CommitDiffQuery> = {},
      options: PageOptions = {},
    ) =>
      http.paginate<Diff>(path`/projects/${project}/repository/commits/${sha}/diff`, {
        ...options,
        query: query as Query,
        item: Diff,
      }),
    /** `GET /projects/:id/repository/commits/:sha/refs`, lazily: the branches, then the tags, that hold it (`type`). */
    refs: (
      project: ResourceRef,
      sha: string,
      query: ListQuery<CommitRefsQuery> = {},
      options: PageOptions = {},
    ) =>
      http.paginate<CommitRef>(path`/projects/${project}/repository/commits/${sha}/refs`, {
        ...options,
        query: query as Query,
        item: CommitRef,
      }),
    /** `GET /projects/:id/repository/commits/:sha/comments`, lazily, oldest first. */
    comments: (project: ResourceRef, sha: string, options: PageOptions = {}) =>
      http.paginate<CommitNote>(path`/projects/${project}/repository/commits/${sha}/comments`, {
        ...options,
        item: CommitNote,
      }),
    /** `POST /projects/:id/repository/commits/:sha/comments`: on the commit, or on a line of its diff (`path`, `line`, `line_type`). */
    comment: (project: ResourceRef, sha: string, params: CommitNoteCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/repository/commits/${sha}/comments`, {
        ...options,
        json: params,
        response: CommitNote,
      }),
    /** `POST /projects/:id/repository/commits`: `actions[]` as one commit on `branch`. */
    create: (project: ResourceRef, params: CommitCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/repository/commits`, {
        ...options,
        json: params,
        response: CommitDetailAnswer,
      }),
  },
  /** `GET /projects/:id/repository/tree`, lazily (offset pages, or keyset with `pagination: 'keyset'`). */
  tree: (project: ResourceRef, query: ListQuery<TreeQuery> = {}, options: PageOptions = {}) =>
    http.paginate<TreeObject>(path`/projects/${project}/repository/tree`, {
      ...options,
      query: query as Query,
    }),
  /** `GET /projects/:id/repository/compare`: the commits of `to` not in `from`, the diff from their merge base (`straight`: from `from`). */
  compare: (project: ResourceRef, query: CompareQuery, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/repository/compare`, {
      ...options,
      query: query as Query,
      response: Compare,
    }),
  /** `GET /projects/:id/repository/merge_base?refs[]=`: the common ancestor of two or more refs. */
  mergeBase: (project: ResourceRef, refs: string[], options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/repository/merge_base`, {
      ...options,
      query: { refs },
      response: Commit,
    }),
  /**
   * `GET /projects/:id/repository/contributors`, lazily: commit counts by author email on `ref` (the
   * default branch), `order_by` commits (default), name or email, `sort` asc (default) or desc.
   */
  contributors: (project: ResourceRef, query: ListQuery<ContributorQuery> = {}, options: PageOptions = {}) =>
    http.paginate<Contributor>(path`/projects/${project}/repository/contributors`, {
      ...options,
      query: query as Query,
      item: Contributor,
    }),
  blobs: {
    /** `GET /projects/:id/repository/blobs/:sha`: size and Base64 `content`. */
    get: (project: ResourceRef, sha: string, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/repository/blobs/${sha}`, { ...options, response: Blob }),
    /** `GET /projects/:id/repository/blobs/:sha/raw`: the bytes. */
    raw: (project: ResourceRef, sha: string, options: CallOptions = {}) =>
      bytesOf(http, path`/projects/${project}/repository/blobs/${sha}/raw`, options),
  },
  /**
   * `GET /projects/:id/repository/archive`: `git archive` of `sha` (default branch), streamed, with
   * the file name GitLab gives it (`format`: tar.gz by default, tar, zip).
   */
  archive: (project: ResourceRef, query: ArchiveQuery = {}, options: CallOptions = {}) =>
    streamDownload(http, path`/projects/${project}/repository/archive`, {
      ...options,
      query: query as Query,
    }),
  branches: {
    /** `GET /projects/:id/repository/branches`, lazily, by name (`search`). */
    list: (project: ResourceRef, query: ListQuery<BranchListQuery> = {}, options: PageOptions = {}) =>
      http.paginate<Branch>(path`/projects/${project}/repository/branches`, {
        ...options,
        query: query as Query,
        item: Branch,
      }),
    get: (project: ResourceRef, branch: string, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/repository/branches/${branch}`, {
        ...options,
        response: Branch,
      }),
    /** `POST /projects/:id/repository/branches` at `ref`. */
    create: (project: ResourceRef, params: BranchCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/repository/branches`, {
        ...options,
        json: params,
        response: Branch,
      }),
    /** `DELETE /projects/:id/repository/branches/:branch`; 204. */
    remove: (project: ResourceRef, branch: string, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/repository/branches/${branch}`, options),
  },
  /**
   * `DELETE /projects/:id/repository/merged_branches`: `{ message: '202 Accepted' }`. GitLab deletes the
   * branches merged into the default branch (not protected ones, nor those of open merge requests) in
   * the background; the reference server has deleted them when it answers.
   */
  deleteMergedBranches: (project: ResourceRef, options: CallOptions = {}) =>
    http.request('DELETE', path`/projects/${project}/repository/merged_branches`, {
      ...options,
      response: AcceptedMessage,
    }),
  protectedBranches: {
    list: (project: ResourceRef, query: ListQuery<ProtectedBranchQuery> = {}, options: PageOptions = {}) =>
      http.paginate<ProtectedBranch>(path`/projects/${project}/protected_branches`, {
        ...options,
        query: query as Query,
        item: ProtectedBranch,
      }),
    get: (project: ResourceRef, name: string, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/protected_branches/${name}`, {
        ...options,
        response: ProtectedBranch,
      }),
    /** `POST /projects/:id/protected_branches` (Maintainer; levels default to 40, Maintainers). */
    protect: (project: ResourceRef, params: ProtectBranch, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/protected_branches`, {
        ...options,
        json: params,
        response: ProtectedBranch,
      }),
    /** `DELETE /projects/:id/protected_branches/:name`; 204. */
    unprotect: (project: ResourceRef, name: string, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/protected_branches/${name}`, options),
  },
  protectedTags: {
    list: (project: ResourceRef, query: ListQuery<ProtectedTagQuery> = {}, options: PageOptions = {}) =>
      http.paginate<ProtectedTag>(path`/projects/${project}/protected_tags`, {
        ...options,
        query: query as Query,
        item: ProtectedTag,
      }),
    get: (project: ResourceRef, name: string, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/protected_tags/${name}`, {
        ...options,
        response: ProtectedTag,
      }),
    /** `POST /projects/:id/protected_tags` (Maintainer; `create_access_level` defaults to 40, Maintainers). */
    protect: (project: ResourceRef, params: ProtectTag, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/protected_tags`, {
        ...options,
        json: params,
        response: ProtectedTag,
      }),
    /** `DELETE /projects/:id/protected_tags/:name`; 204. */
    unprotect: (project: ResourceRef, name: string, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/protected_tags/${name}`, options),
  },
  tags: {
    /** `GET /projects/:id/repository/tags`, lazily (newest commit first unless `order_by`/`sort` say otherwise). */
    list: (project: ResourceRef, query: ListQuery<TagListQuery> = {}, options: PageOptions = {}) =>
      http.paginate<Tag>(path`/projects/${project}/repository/tags`, {
        ...options,
        query: query as Query,
        item: Tag,
      }),
    get: (project: ResourceRef, name: string, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/repository/tags/${name}`, { ...options, response: Tag }),
    /** `POST /projects/:id/repository/tags`: a `message` makes it annotated. */
    create: (project: ResourceRef, params: TagCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/repository/tags`, {
        ...options,
        json: params,
        response: Tag,
      }),
    /** `DELETE /projects/:id/repository/tags/:tag_name`; 204. */
    remove: (project: ResourceRef, name: string, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/repository/tags/${name}`, options),
  },
})
/** The type of `client.repository`. */
export type RepositoryApi = ReturnType<typeof repository>
