import { filesOf, treeOfCommit, writeTree } from '../../git/commit-files.js'
import { history, readCommit, type HistoryCommit } from '../../git/history.js'
import { commitObject, signatureAt } from '../../git/trees.js'
import { treeChanges } from '../../git/tree-diff.js'
import { isoNow } from '../../domain/clock.js'
import { validRefName } from '../../domain/git-ref-names.js'
import { lineStats } from '../../domain/line-stats.js'
import { messageError } from '../../grape/gitlab-errors.js'
import type { ProjectRow, RefKind } from '../../store/projects.js'
import { branchProtection, tagProtections } from '../../store/ref-protection.js'
import type { UserRow } from '../../store/users.js'
import { Level, writable, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { repositoryReads } from './reads.js'
import { applyActions, type CheckedAction } from './commit-actions.js'

/** `Gitlab::Git::SHA1_BLANK_SHA`: the `before` of a ref created, the `after` of one deleted. */
export const BLANK_SHA = '0'.repeat(40)

/**
 * A ref moved through the API (a commit, a branch or tag created or deleted), as GitLab's
 * post-receive sees it (`Git::BranchPushService`, `Git::TagPushService`): `before` is `BLANK_SHA`
 * for a new ref, `after` is for a deleted one. Listeners run after the change is stored.
 */
export interface PushEvent {
  project: ProjectRow
  kind: RefKind
  /** The branch or tag name (not `refs/heads/...`). */
  ref: string
  before: string
  after: string
  user: UserRow
}
export type PushListener = (event: PushEvent) => void

/** `POST /repository/commits` and the files API as `Commits::CreateService` takes them. */
export interface CommitRequest {
  branch: string
  commit_message: string
  actions: CheckedAction[]
  start_branch?: string | undefined
  start_sha?: string | undefined
  author_email?: string | undefined
  author_name?: string | undefined
  force?: boolean | undefined
  /** The files API's `last_commit_id` of an update, refused with `Files::UpdateService`'s message. */
  last_commit_id?: string | undefined
}

const fail = (message: string) => messageError(400, message)
const SHA = /^[0-9a-f]{40}$/
const HEX = /^[0-9a-f]{4,40}$/

/** The default protection of a default branch (`default_branch_protection_defaults`: fully protected). */
export const DEFAULT_PROTECTION = {
  push: Level.maintainer,
  merge: Level.maintainer,
  unprotect: Level.maintainer,
}

/** The protection GitLab gives a new project's default branch, as a row. */
export const defaultBranchProtection = (projectId: number, name: string) => ({
  project_id: projectId,
  name,
  push_access_level: DEFAULT_PROTECTION.push,
  merge_access_level: DEFAULT_PROTECTION.merge,
  unprotect_access_level: DEFAULT_PROTECTION.unprotect,
  allow_force_push: 0,
  code_owner_approval_required: 0,
})

/**
 * What every part of the repository API shares: resolving refs and SHAs in a project, the
 * protection of branches, who may push, writing a commit of `actions[]`, and the push listeners.
 */
export function repositoryCore(ctx: ServiceContext) {
  const { store, access, clock } = ctx
  const repo = store.repository
  const objects = store.gitObjects
  const listeners = new Set<PushListener>()
  const { pushCode } = repositoryReads(ctx)

  const branchSha = (project: ProjectRow, name: string) => repo.ref(project.id, 'branch', name)?.sha

  /**
   * The commit `ref` names in the project (`project.commit(ref)`, git's rev-parse): a full SHA the
   * project has, a tag, a branch (git looks up `refs/tags/x` before `refs/heads/x`), `HEAD` (the
   * default branch), or an unambiguous SHA prefix of 4 or more.
   */
  function resolveCommit(project: ProjectRow, ref: string): string | undefined {
    const name = ref.replace(/^refs\/(heads|tags)\//, '')
    const kinds: RefKind[] = ref.startsWith('refs/heads/')
      ? ['branch']
      : ref.startsWith('refs/tags/')
        ? ['tag']
        : ['tag', 'branch']
    if (SHA.test(ref) && hasCommit(project, ref)) return ref
    for (const kind of kinds) {
      const found = repo.ref(project.id, kind, name)
      if (found) return found.sha
    }
    if (ref === 'HEAD' && project.default_branch) return branchSha(project, project.default_branch)
    if (HEX.test(ref)) {
      const found = repo.commitsStartingWith(project.id, ref)
      if (found.length === 1) return found[0]
    }
    return undefined
  }

  /** The project has this commit: made, seeded or imported in it, or the tip of one of its refs. */
  const hasCommit = (project: ProjectRow, sha: string) =>
    repo.hasCommit(project.id, sha) || repo.refsAt(project.id, sha).length > 0

  const protection = (project: ProjectRow, branch: string) => branchProtection(repo, project.id, branch)

  /**
   * `ProtectedRefAccess#check_access`: 0 lets no one, 60 administrators only; a role level also asks
   * `push_code` (`role_access_allowed?`), which an archived project refuses to everyone.
   */
  const allows = (actor: Actor, project: ProjectRow, level: number) =>
    level !== 0 &&
    (level === 60 ? actor.admin : writable(project) && (actor.admin || access.atLeast(actor, project, level)))

  /**
   * `Gitlab::UserAccess#can_create_tag?`: a protected tag's create level (any matching protection
   * that lets the caller in), else `admin_tag` (`push_code`: Developer, a project not archived).
   */
  function canCreateTag(actor: Actor, project: ProjectRow, tag: string): boolean {
    const matching = tagProtections(repo, project.id, tag)
    if (matching.length === 0) return pushCode(actor, project)
    return matching.some((p) => allows(actor, project, p.create_access_level))
  }

  /** `push_code` (Developer, a project not archived) and, on a protected branch, its push level. */
  function canPush(actor: Actor, project: ProjectRow, branch: string): boolean {
    if (!pushCode(actor, project)) return false
    const p = protection(project, branch)
    return !p || allows(actor, project, p.push_access_level)
  }

  /** `allowed_to_write_ref?`: a tag the caller may create, or a branch the caller may update. */
  const canWriteRef = (actor: Actor, project: ProjectRow, ref: string, tag: boolean): boolean =>
    tag ? canCreateTag(actor, project, ref) : canUpdateBranch(actor, project, ref)

  /**
   * `Gitlab::UserAccess#can_update_branch?`: push (`canPush`) or merge there, a protected branch's merge
   * level standing in for `push_code` as its push level does.
   */
  function canUpdateBranch(actor: Actor, project: ProjectRow, branch: string): boolean {
    if (canPush(actor, project, branch)) return true
    const p = protection(project, branch)
    return p !== undefined && allows(actor, project, p.merge_access_level)
  }

  /** The last commit from `sha` back that changed `path` (`last_commit_id_for_path`). */
  const lastCommitFor = (sha: string, path: string): string | undefined =>
    history(objects, sha, { path }).next().value?.sha

  const protectDefault = (project: ProjectRow, branch: string) => {
    if (branch !== project.default_branch || repo.protectedBranch(project.id, branch)) return
    repo.protect(defaultBranchProtection(project.id, branch))
  }

  /** Tells the listeners, one by one; a listener that throws does not undo the push or stop the others. */
  function pushed(event: PushEvent): void {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch (err) {
        process.emitWarning(`push listener failed: ${(err as Error).message}`)
      }
    }
  }

  /** Checks as `Commits::CreateService#validate!` (app/services/commits/create_service.rb). */
  function validate(actor: Actor, project: ProjectRow, r: CommitRequest, empty: boolean): string | undefined {
    const startBranch = r.start_branch ?? (r.start_sha === undefined ? r.branch : undefined)
    const different = startBranch !== r.branch || r.start_sha !== undefined
    if (!canPush(actor, project, r.branch)) throw fail('You are not allowed to push into this branch')
    if (r.start_sha !== undefined) {
      if (r.start_branch !== undefined) throw fail("You can't pass both start_branch and start_sha")
      if (!SHA.test(r.start_sha)) throw fail(`Invalid start_sha '${r.start_sha}'`)
      if (!hasCommit(project, r.start_sha)) throw fail(`Cannot find start_sha '${r.start_sha}'`)
    }
    if (startBranch !== undefined && !empty && branchSha(project, startBranch) === undefined)
      throw fail('You can only create or edit files when you are on a branch')
    const exists = branchSha(project, r.branch) !== undefined
    if (!empty && different && exists && !r.force)
      throw fail(
        `A branch called '${r.branch}' already exists. Switch to that branch in order to make changes`,
      )
    if (different && !validRefName(r.branch))
      throw fail(`Something went wrong when we tried to create '${r.branch}' for you: Branch name is invalid`)
    return r.start_sha ?? (startBranch === undefined ? undefined : branchSha(project, startBranch))
  }

  /**
   * Commits `actions` on `branch` (`Files::MultiService`, app/services/files/multi_service.rb):
   * checked as `Commits::CreateService` checks them, each `last_commit_id` against the file's last
   * commit, then applied to the start commit's files; author from `author_name`/`author_email` or
   * the caller, committer the caller, dated by the server's clock. The branch moves (or is made),
   * the first branch of an empty repository is protected when it is the default one, and the push
   * listeners hear of it. Returns the new commit's SHA.
   */
  function commit(actor: Actor, project: ProjectRow, r: CommitRequest): string {
    const user = actor.user!
    const before = branchSha(project, r.branch)
    const event = store.transaction(() => {
      const empty = repo.isEmpty(project.id)
      const parent = validate(actor, project, r, empty)
      if (
        r.last_commit_id !== undefined &&
        parent &&
        lastCommitFor(parent, r.actions[0]!.file_path) !== r.last_commit_id
      )
        throw fail('You are attempting to update a file that has changed since you started editing it.')
      for (const a of r.actions) {
        if (a.last_commit_id === undefined || a.action === 'create') continue
        const path = a.previous_path ?? a.file_path
        if (!parent || lastCommitFor(parent, path) !== a.last_commit_id)
          throw fail(`The file has changed since you started editing it: ${a.file_path}`)
      }
      const tree = parent === undefined ? undefined : treeOfCommit(objects, parent)
      const files = applyActions(tree ? filesOf(objects, tree) : new Map(), r.actions, (o) => objects.put(o))
      const now = isoNow(clock)
      const committer = signatureAt(user.name, user.email ?? '', now)
      const author = signatureAt(r.author_name ?? user.name, r.author_email ?? user.email ?? '', now)
      const c = commitObject({
        tree: writeTree(objects, files),
        parents: parent ? [parent] : [],
        author,
        committer,
        message: r.commit_message,
      })
      objects.put(c)
      repo.addCommit(project.id, c.sha)
      repo.setRef(project.id, 'branch', r.branch, c.sha)
      if (empty) protectDefault(project, r.branch)
      store.projects.touch(project.id, now)
      return {
        project,
        kind: 'branch' as const,
        ref: r.branch,
        before: before ?? BLANK_SHA,
        after: c.sha,
        user,
      }
    })
    pushed(event)
    return event.after
  }

  /**
   * Lines added and removed by a commit against its first parent (`Entities::CommitStats`), file
   * by file as `git diff --numstat` pairs them: a renamed file counts only the lines it changed.
   */
  function stats(c: HistoryCommit) {
    const parent = c.parents[0] === undefined ? undefined : readCommit(objects, c.parents[0])
    let additions = 0
    let deletions = 0
    const blob = (sha: string | undefined) => (sha === undefined ? undefined : objects.get(sha)?.body)
    for (const change of treeChanges(objects, parent?.tree, c.tree)) {
      if (change.old_sha === change.new_sha) continue
      const s = lineStats(blob(change.old_sha), blob(change.new_sha))
      additions += s.additions
      deletions += s.deletions
    }
    return { additions, deletions, total: additions + deletions }
  }

  return {
    resolveCommit,
    branchSha,
    protection,
    canPush,
    canUpdateBranch,
    canWriteRef,
    tagProtections: (project: ProjectRow, tag: string) => tagProtections(repo, project.id, tag),
    canCreateTag,
    lastCommitFor,
    protectDefault,
    commit,
    stats,
    pushed,
    /**
     * Subscribes to pushes made through the API (commits, files, branches and tags created or
     * deleted): the CI engine creates its `push` pipelines here. Returns the unsubscribe.
     */
    onPush(listener: PushListener): () => void {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
export type RepositoryCore = ReturnType<typeof repositoryCore>
