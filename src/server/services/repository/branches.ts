import type {
  Branch,
  BranchCreate,
  BranchListQuery,
  Commit,
  ProtectBranch,
  ProtectedBranch,
  ProtectedBranchQuery,
} from '../../../schema/repository.js'
import { history, readCommit } from '../../git/history.js'
import { validRefName } from '../../domain/git-ref-names.js'
import { forbidden, messageError, notFound, paramError, recordNotFound } from '../../grape/gitlab-errors.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import { presentCommit, presentProtectedBranch } from '../../present/repository.js'
import type { ProjectRow } from '../../store/projects.js'
import { Level, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { BLANK_SHA, DEFAULT_PROTECTION, type RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** How far back `merged` looks in the default branch's history (GitLab asks git, unbounded). */
const MERGED_SCAN = 10_000
const LEVELS = new Set([0, 30, 40, 60])

/**
 * Branches (`lib/api/branches.rb`, `app/services/branches/create_service.rb`, `delete_service.rb`)
 * and protected branches (`lib/api/protected_branches.rb`, Maintainer only).
 */
export function branchService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const { store, instance, access } = ctx
  const repo = store.repository

  /** A commit record, or one with the SHA only when the store lacks the object (an imported ref). */
  const commitRecord = (project: ProjectRow, sha: string): Commit => {
    const c = readCommit(store.gitObjects, sha)
    if (c) return presentCommit(c, project.full_path, instance)
    const at = '1970-01-01T00:00:00.000+00:00'
    return {
      id: sha,
      short_id: sha.slice(0, 11),
      created_at: at,
      parent_ids: [],
      title: '',
      message: '',
      author_name: '',
      author_email: '',
      authored_date: at,
      committer_name: '',
      committer_email: '',
      committed_date: at,
      trailers: {},
      extended_trailers: {},
      web_url: `${instance.baseUrl}/${project.full_path}/-/commit/${sha}`,
    }
  }

  /** The commits of the default branch, for `merged` (read once per answer). */
  const mergedInto = (project: ProjectRow) => {
    const head = project.default_branch ? core.branchSha(project, project.default_branch) : undefined
    const shas = new Set<string>()
    if (head)
      for (const c of history(store.gitObjects, head)) {
        shas.add(c.sha)
        if (shas.size >= MERGED_SCAN) break
      }
    return shas
  }

  const present = (
    actor: Actor,
    project: ProjectRow,
    name: string,
    sha: string,
    merged: Set<string>,
  ): Branch => {
    const p = core.protection(project, name)
    const isDefault = name === project.default_branch
    return {
      name,
      commit: commitRecord(project, sha),
      merged: !isDefault && merged.has(sha),
      protected: p !== undefined,
      developers_can_push: p?.push_access_level === Level.developer,
      developers_can_merge: p?.merge_access_level === Level.developer,
      can_push: core.canPush(actor, project, name),
      default: isDefault,
      web_url: `${instance.baseUrl}/${project.full_path}/-/tree/${name}`,
    }
  }

  /** Deletes a branch and tells the push listeners, as `Branches::DeleteService` does once allowed. */
  const drop = (actor: Actor, project: ProjectRow, name: string, sha: string) => {
    store.transaction(() => repo.deleteRef(project.id, 'branch', name))
    core.pushed({ project, kind: 'branch', ref: name, before: sha, after: BLANK_SHA, user: actor.user! })
  }

  const maintainer = (actor: Actor, projectRef: string) => {
    const project = reads.readable(actor, projectRef)
    if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
    return project
  }

  const protectedRow = (project: ProjectRow, name: string) => {
    const row = repo.protectedBranch(project.id, name)
    if (!row) throw recordNotFound()
    return row
  }

  return {
    list(actor: Actor, projectRef: string, q: BranchListQuery, page: Page): PageOut<Branch> {
      const project = reads.readable(actor, projectRef)
      const rows = repo.refs(project.id, 'branch', q.search, page.perPage, page.offset)
      const merged = mergedInto(project)
      return {
        items: rows.map((r) => present(actor, project, r.name, r.sha, merged)),
        page,
        total: repo.countRefs(project.id, 'branch', q.search),
      }
    },

    get(actor: Actor, projectRef: string, name: string): Branch {
      const project = reads.readable(actor, projectRef)
      const sha = core.branchSha(project, name)
      if (!sha) throw notFound('Branch')
      return present(actor, project, name, sha, mergedInto(project))
    },

    /**
     * `POST /repository/branches`: push access to the new branch (403), then
     * `Branches::CreateService`: a valid name (400 `Branch name is invalid`), not taken (400
     * `Branch already exists`), a ref that resolves (400 `Invalid reference name: <ref>`).
     */
    create(actor: Actor, projectRef: string, input: BranchCreate): Branch {
      const project = reads.readable(actor, projectRef)
      if (!reads.pushCode(actor, project)) throw forbidden()
      if (!core.canPush(actor, project, input.branch))
        throw forbidden('You are not allowed to push into this branch')
      if (!validRefName(input.branch)) throw messageError(400, 'Branch name is invalid')
      if (core.branchSha(project, input.branch)) throw messageError(400, 'Branch already exists')
      const sha = core.resolveCommit(project, input.ref)
      if (!sha) throw messageError(400, `Invalid reference name: ${input.ref}`)
      store.transaction(() => repo.setRef(project.id, 'branch', input.branch, sha))
      core.pushed({
        project,
        kind: 'branch',
        ref: input.branch,
        before: BLANK_SHA,
        after: sha,
        user: actor.user!,
      })
      return present(actor, project, input.branch, sha, mergedInto(project))
    },

    /**
     * `DELETE /repository/branches/:branch` (`Branches::DeleteService`): 404 for no such branch,
     * 405 `Cannot remove HEAD branch` for the default one, and for a protected one 405 `You dont
     * have permission to delete the branch` below Maintainer (`can_delete_branch?`).
     */
    remove(actor: Actor, projectRef: string, name: string): void {
      const project = reads.readable(actor, projectRef)
      if (!reads.pushCode(actor, project)) throw forbidden()
      const sha = core.branchSha(project, name)
      if (!sha) throw notFound('Branch')
      if (name === project.default_branch) throw messageError(405, 'Cannot remove HEAD branch')
      if (core.protection(project, name) && !access.atLeast(actor, project, Level.maintainer))
        throw messageError(405, 'You dont have permission to delete the branch')
      drop(actor, project, name, sha)
    },

    /**
     * `DELETE /repository/merged_branches` (`Branches::DeleteMergedService`): deletes the branches
     * whose tip the default branch's history holds, but not the default branch, a protected one
     * (wildcards too) or a source or target branch of an open merge request; each as the branch
     * deletion API deletes it (its push event). GitLab's route asks only `download_code` and answers
     * 202, deleting in a Sidekiq job whose `push_code` check refuses quietly: a reader below Developer
     * gets the same 202 and nothing is deleted. Here the branches are gone before the answer.
     */
    removeMerged(actor: Actor, projectRef: string): void {
      const project = reads.readable(actor, projectRef)
      if (!reads.pushCode(actor, project)) return
      const merged = mergedInto(project)
      const open = new Set(store.mergeRequests.openBranchNames(project.id))
      for (const r of repo.refs(project.id, 'branch', undefined, -1, 0)) {
        if (r.name === project.default_branch || !merged.has(r.sha) || open.has(r.name)) continue
        if (core.protection(project, r.name)) continue
        drop(actor, project, r.name, r.sha)
      }
    },

    listProtected(
      actor: Actor,
      projectRef: string,
      q: ProtectedBranchQuery,
      page: Page,
    ): PageOut<ProtectedBranch> {
      const project = maintainer(actor, projectRef)
      return {
        items: repo
          .protectedPage(project.id, q.search, page.perPage, page.offset)
          .map((r) => presentProtectedBranch(r, instance)),
        page,
        total: repo.protectedCount(project.id, q.search),
      }
    },

    getProtected(actor: Actor, projectRef: string, name: string): ProtectedBranch {
      const project = maintainer(actor, projectRef)
      return presentProtectedBranch(protectedRow(project, name), instance)
    },

    /**
     * `POST /protected_branches`: Maintainer; levels default to Maintainers (40); 409 `Protected
     * branch '<name>' already exists`. The name may hold `*` wildcards and need not exist yet.
     */
    protect(actor: Actor, projectRef: string, input: ProtectBranch): ProtectedBranch {
      const project = maintainer(actor, projectRef)
      const bad = (['push_access_level', 'merge_access_level', 'unprotect_access_level'] as const).filter(
        (k) => input[k] !== undefined && input[k] !== null && !LEVELS.has(input[k]),
      )
      if (bad.length > 0) throw paramError(bad.map((k) => `${k} does not have a valid value`).join(', '))
      if (repo.protectedBranch(project.id, input.name))
        throw messageError(409, `Protected branch '${input.name}' already exists`)
      const id = store.transaction(() =>
        repo.protect({
          project_id: project.id,
          name: input.name,
          push_access_level: input.push_access_level ?? DEFAULT_PROTECTION.push,
          merge_access_level: input.merge_access_level ?? DEFAULT_PROTECTION.merge,
          unprotect_access_level: input.unprotect_access_level ?? DEFAULT_PROTECTION.unprotect,
          allow_force_push: input.allow_force_push ? 1 : 0,
          code_owner_approval_required: input.code_owner_approval_required ? 1 : 0,
        }),
      )
      return presentProtectedBranch({ ...protectedRow(project, input.name), id }, instance)
    },

    unprotect(actor: Actor, projectRef: string, name: string): void {
      const project = maintainer(actor, projectRef)
      protectedRow(project, name)
      store.transaction(() => repo.unprotect(project.id, name))
    },
  }
}
export type BranchService = ReturnType<typeof branchService>
