import type { Commit } from '../../../schema/repository.js'
import type { Blob, Compare, CompareQuery, Diff } from '../../../schema/repository-compare.js'
import { isTreeMode } from '../../git/trees.js'
import { treeEntries } from '../../git/commit-files.js'
import { history, readCommit } from '../../git/history.js'
import { ancestors, mergeBase } from '../../git/merge-base.js'
import { treeChanges, type TreeChange } from '../../git/tree-diff.js'
import { unifiedDiff } from '../../git/unified-diff.js'
import { messageError, notFound } from '../../grape/gitlab-errors.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import { presentCommit } from '../../present/repository.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { networkProject } from '../project-forks.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** `ApplicationSetting#diff_max_patch_bytes`' default: a longer diff is sent empty, `too_large`. */
const MAX_PATCH_BYTES = 200 * 1024
const FULL_SHA = /^[0-9a-f]{40}$/

/**
 * Comparisons and raw objects (`lib/api/repositories.rb`, `lib/api/commits.rb`): `compare` of two
 * refs, a commit's `diff`, the `merge_base` of refs, and `blobs/:sha` (Base64 or raw). Every read
 * checks `read_code` as the repository's other reads do.
 */
export function compareService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const { store, instance } = ctx
  const objects = store.gitObjects
  const repo = store.repository

  const commitOf = (project: ProjectRow, sha: string): Commit =>
    presentCommit(readCommit(objects, sha)!, project.full_path, instance)

  /** The commit `ref` names, only if the store holds it (`repository.commit(ref)`). */
  const resolve = (project: ProjectRow, ref: string) => {
    const sha = core.resolveCommit(project, ref.trim())
    return sha === undefined ? undefined : readCommit(objects, sha)
  }

  /**
   * `Entities::Diff` of a change (`Gitlab::Git::Diff`): a patch of `diff_max_patch_bytes` or more
   * is emptied and marked `too_large`; `unidiff` adds the `---`/`+++` lines (`Diff#unidiff`), not
   * to an empty or binary one. `generated_file` is GitLab's `gitlab-generated` attribute, never set here.
   */
  function diffOf(c: TreeChange, unidiff: boolean): Diff {
    const blob = (sha: string | undefined) => (sha === undefined ? undefined : objects.get(sha)?.body)
    let diff = unifiedDiff(blob(c.old_sha), blob(c.new_sha), c.old_path, c.new_path)
    const tooLarge = Buffer.byteLength(diff) >= MAX_PATCH_BYTES
    if (tooLarge) diff = ''
    const newFile = c.status === 'added'
    const deleted = c.status === 'deleted'
    if (unidiff && diff !== '' && !diff.startsWith('Binary files '))
      diff = `--- ${newFile ? '/dev/null' : `a/${c.old_path}`}\n+++ ${deleted ? '/dev/null' : `b/${c.new_path}`}\n${diff}`
    return {
      diff,
      collapsed: false,
      too_large: tooLarge,
      new_path: c.new_path,
      old_path: c.old_path,
      a_mode: c.a_mode,
      b_mode: c.b_mode,
      new_file: newFile,
      renamed_file: c.status === 'renamed',
      deleted_file: deleted,
      generated_file: false,
    }
  }

  /** Whether a blob is in the project's repository: under a tree of a commit one of its refs reaches. */
  function hasBlob(project: ProjectRow, sha: string): boolean {
    const tips = [
      ...repo.refs(project.id, 'branch', undefined, -1, 0),
      ...repo.refs(project.id, 'tag', undefined, -1, 0),
    ]
    const seen = new Set<string>()
    const inTree = (tree: string): boolean => {
      if (seen.has(tree)) return false
      seen.add(tree)
      return treeEntries(objects, tree).some((e) => e.sha === sha || (isTreeMode(e.mode) && inTree(e.sha)))
    }
    for (const commit of ancestors(
      objects,
      tips.map((t) => t.sha),
    ))
      if (inTree(readCommit(objects, commit)!.tree)) return true
    return false
  }

  return {
    /**
     * `GET /repository/compare` (`CompareService`, `Gitlab::Git::Compare`, `Entities::Compare`):
     * the commits `to` has and `from` lacks, oldest first; the diff from the merge base of both
     * (`straight`: from `from` itself) to `to`. 404 `Ref Not Found` when either names no commit;
     * `from_project_id` names the project `from` is read in: this one or one of its fork network the
     * caller can read (`fetch_target_project`; any other is GitLab's 400).
     */
    compare(actor: Actor, projectRef: string, q: CompareQuery): Compare {
      const project = reads.readable(actor, projectRef)
      const target =
        q.from_project_id === undefined ? project : networkProject(ctx, actor, project, q.from_project_id)
      if (!target)
        throw messageError(
          400,
          `Target project id:${q.from_project_id} is not a fork of project id:${projectRef}`,
        )
      const base = resolve(target, q.from)
      const head = resolve(project, q.to)
      if (!base || !head) throw notFound('Ref')
      const same = base.sha === head.sha
      const known = ancestors(objects, [base.sha])
      const commits = same ? [] : [...history(objects, head.sha)].filter((c) => !known.has(c.sha)).reverse()
      const mergeSha = mergeBase(objects, base.sha, [head.sha])
      const start = q.straight ? base : mergeSha === undefined ? undefined : readCommit(objects, mergeSha)
      const presented = commits.map((c) => presentCommit(c, project.full_path, instance))
      return {
        commit: presented.at(-1) ?? null,
        commits: presented,
        diffs: treeChanges(objects, start?.tree, head.tree).map((c) => diffOf(c, q.unidiff === true)),
        compare_timeout: false,
        compare_same_ref: same,
        web_url: `${instance.baseUrl}/${project.full_path}/-/compare/${q.straight ? base.sha : (mergeSha ?? '')}...${head.sha}`,
      }
    },

    /** `GET /repository/commits/:sha/diff`: the commit's diffs against its first parent, a page of them. */
    commitDiff(actor: Actor, projectRef: string, sha: string, unidiff: boolean, page: Page): PageOut<Diff> {
      const project = reads.readable(actor, projectRef)
      const c = resolve(project, sha)
      if (!c) throw notFound('Commit')
      const parent = c.parents[0] === undefined ? undefined : readCommit(objects, c.parents[0])
      const changes = treeChanges(objects, parent?.tree, c.tree)
      return {
        items: changes.slice(page.offset, page.offset + page.perPage).map((ch) => diffOf(ch, unidiff)),
        page,
        total: changes.length,
      }
    },

    /**
     * `GET /repository/merge_base` (`Gitlab::Git::MergeBase`): 400 `Provide at least 2 refs`, 400
     * `Could not find ref(s): a, b`, 404 `Merge Base Not Found` for unrelated histories.
     */
    mergeBase(actor: Actor, projectRef: string, refs: string[]): Commit {
      const project = reads.readable(actor, projectRef)
      if (refs.length < 2) throw messageError(400, 'Provide at least 2 refs')
      const found = refs.map((r) => resolve(project, r))
      const unknown = refs.filter((_, i) => !found[i])
      if (unknown.length > 0)
        throw messageError(
          400,
          `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`,
        )
      const [first, ...others] = found.map((c) => c!.sha)
      const sha = mergeBase(objects, first!, others)
      if (sha === undefined) throw notFound('Merge Base')
      return commitOf(project, sha)
    },

    /**
     * A blob of the project's repository by its full SHA (`Gitlab::Git::Blob.raw`): 404 `Blob Not
     * Found` for anything else, a tree, a commit, or a blob only another project holds.
     */
    blob(actor: Actor, projectRef: string, sha: string): Buffer {
      const project = reads.readable(actor, projectRef)
      const object = FULL_SHA.test(sha) ? objects.get(sha) : undefined
      if (object?.type !== 'blob' || !hasBlob(project, sha)) throw notFound('Blob')
      return object.body
    },

    /** `Entities` of `GET /repository/blobs/:sha`: size, Base64 content, SHA. */
    blobRecord: (sha: string, body: Buffer): Blob => ({
      size: body.length,
      encoding: 'base64',
      content: body.toString('base64'),
      sha,
    }),
  }
}
export type CompareService = ReturnType<typeof compareService>
