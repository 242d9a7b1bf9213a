import { createHash } from 'node:crypto'
import type { BlameQuery, BlameRange } from '../../../schema/repository-blame.js'
import type { FileCommitted, FileDelete, FileWrite, RepositoryFileMeta } from '../../../schema/repository.js'
import { blame } from '../../git/blame.js'
import { entryAt } from '../../git/commit-files.js'
import { forbidden, messageError, notFound, paramError } from '../../grape/gitlab-errors.js'
import { presentBlame } from '../../present/repository.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { checkActions, cleanPath } from './commit-actions.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** A file read: what `blob_data` shows (and the `X-Gitlab-*` headers repeat), and its bytes. */
export interface FileRead {
  meta: RepositoryFileMeta
  content: Buffer
}

/**
 * The files API (`lib/api/files.rb`): read a file at a ref (its metadata, Base64 content and
 * `X-Gitlab-*` headers, or its raw bytes), create, update and delete one file as a commit on a
 * branch (`Files::CreateService`, `UpdateService`, `DeleteService`, all `Commits::CreateService`).
 */
export function fileService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const objects = ctx.store.gitObjects

  /**
   * The `file_path` validator (`lib/api/validations/validators/file_path.rb`): no `..` segment
   * (`Gitlab::PathTraversal`), no leading `/` except where a route allows one (`/raw`). A 400
   * before any access check, as Grape validates before the endpoint runs.
   */
  const checkPath = (path: string, leadingSlash: boolean) => {
    if (path.split(/[\\/]/).includes('..') || (!leadingSlash && path.startsWith('/')))
      throw paramError('file_path should be a valid file path')
  }

  function read(
    actor: Actor,
    projectRef: string,
    path: string,
    ref: string | undefined,
    raw = false,
  ): FileRead {
    checkPath(path, raw)
    const project = reads.readable(actor, projectRef)
    const gitRef = ref ?? project.default_branch ?? 'HEAD'
    const commit = core.resolveCommit(project, gitRef)
    if (!commit) throw notFound('Commit')
    const clean = cleanPath(path)
    const entry = clean === undefined ? undefined : entryAt(objects, commit, clean)
    const blob = entry?.type === 'blob' ? objects.get(entry.sha) : undefined
    if (!entry || !blob) throw notFound('File')
    const content = blob.body
    return {
      meta: {
        file_name: clean!.split('/').at(-1)!,
        file_path: clean!,
        size: content.length,
        encoding: 'base64',
        content_sha256: createHash('sha256').update(content).digest('hex'),
        ref: gitRef,
        blob_id: entry.sha,
        commit_id: commit,
        last_commit_id: core.lastCommitFor(commit, clean!) ?? commit,
        execute_filemode: entry.mode === '100755',
      },
      content,
    }
  }

  /**
   * `GET .../files/:file_path/blame` (`Gitlab::Blame`): the file's metadata for the headers and its
   * blame ranges. A range ending before it starts is a 400 after the file is found (the endpoint's
   * `fetch_blame_range`); one starting past the last line answers no ranges, as Gitaly's
   * `out_of_range` error does (`Gitlab::Git::Blame#fetch_raw_blame`).
   */
  function blameFile(actor: Actor, projectRef: string, path: string, q: BlameQuery) {
    const { meta } = read(actor, projectRef, path, q.ref)
    if (q.range && q.range.start > q.range.end)
      throw messageError(400, 'range[start] must be less than or equal to range[end]')
    const result = blame(objects, meta.commit_id, meta.file_path, q.range)
    const ranges: BlameRange[] = result ? presentBlame(result) : []
    return { meta, ranges }
  }

  /** `authorize! :push_code`: 403 for those below Developer and in an archived project. */
  const pusher = (actor: Actor, projectRef: string): ProjectRow => {
    const project = reads.readable(actor, projectRef)
    if (!reads.pushCode(actor, project)) throw forbidden()
    return project
  }

  function write(
    actor: Actor,
    projectRef: string,
    path: string,
    action: 'create' | 'update' | 'delete',
    input: FileDelete & Partial<FileWrite>,
  ): FileCommitted {
    checkPath(path, false)
    const project = pusher(actor, projectRef)
    const actions = checkActions([
      {
        action,
        file_path: path,
        ...(input.content === undefined ? {} : { content: input.content }),
        ...(input.encoding === undefined ? {} : { encoding: input.encoding }),
        ...(input.execute_filemode === undefined ? {} : { execute_filemode: input.execute_filemode }),
      },
    ])
    core.commit(actor, project, {
      branch: input.branch,
      commit_message: input.commit_message,
      actions,
      start_branch: input.start_branch ?? input.branch,
      author_email: input.author_email,
      author_name: input.author_name,
      // UpdateService checks `last_commit_id` with its own message; delete as `actions[]` do.
      ...(action === 'update' ? { last_commit_id: input.last_commit_id } : {}),
      ...(action === 'delete' && input.last_commit_id !== undefined
        ? { actions: [{ ...actions[0]!, last_commit_id: input.last_commit_id }] }
        : {}),
    })
    return { file_path: path, branch: input.branch }
  }

  return {
    /**
     * `GET`/`HEAD .../files/:file_path` (`ref` required) and, `raw`, `.../raw` (`ref` defaults to the
     * default branch, a leading `/` is allowed).
     */
    read,
    blame: blameFile,
    create: (actor: Actor, projectRef: string, path: string, input: FileWrite) =>
      write(actor, projectRef, path, 'create', input),
    update: (actor: Actor, projectRef: string, path: string, input: FileWrite) =>
      write(actor, projectRef, path, 'update', input),
    remove: (actor: Actor, projectRef: string, path: string, input: FileDelete) =>
      void write(actor, projectRef, path, 'delete', input),
  }
}
export type FileService = ReturnType<typeof fileService>
