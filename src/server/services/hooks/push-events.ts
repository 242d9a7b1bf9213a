import { filesOf } from '../../git/commit-files.js'
import { history, readCommit, type HistoryCommit } from '../../git/history.js'
import { parseTag } from '../../git/trees.js'
import { branchFilterMatches } from '../../domain/branch-filter.js'
import type { HookDelivery } from '../../jobs/hook-delivery.js'
import {
  commitHookAttrs,
  PUSH_SAMPLE,
  pushPayload,
  TAG_SAMPLE,
  type CommitChanges,
  type PushData,
} from '../../present/push-payloads.js'
import type { ProjectRow } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import type { ServiceContext } from '../context.js'
import { hookProject } from './hook-project.js'
import { branchProtection } from '../../store/ref-protection.js'
import { BLANK_SHA, type PushEvent } from '../repository/core.js'
import type { RepositoryService } from '../repository/repository.js'

/** `Gitlab::DataBuilder::Push`: the newest commits a payload lists. */
const PAYLOAD_COMMITS = 20
/** `TestHooks::ProjectService` / `build_sample`: the default branch's newest commits a test sends. */
const SAMPLE_COMMITS = 3
/** `Gitlab::DataBuilder::Push::DEFAULT_TAG_NAME`: a tag test's ref in a project without tags. */
const DEFAULT_TAG_NAME = 'v1.0.0'

/**
 * The push and tag push webhooks of the repository API (`Git::BranchHooksService`,
 * `Git::TagHooksService` -> `Project#execute_hooks(push_data, :push_hooks | :tag_push_hooks)`): for every
 * branch or tag the API creates, moves or deletes, the project's hooks (and, on EE, its groups') that
 * take the event, a push hook only when `push_events_branch_filter` lets the branch through.
 */
export function withPushHooks(
  repository: RepositoryService,
  ctx: ServiceContext,
  delivery: HookDelivery,
): RepositoryService {
  const { store } = ctx
  repository.onPush((event) => {
    if (!store.webHooks.any()) return
    const tag = event.kind === 'tag'
    const hooks = store.webHooks
      .forProject(event.project.id)
      .filter((h) =>
        tag
          ? h.tag_push_events === 1
          : h.push_events === 1 &&
            branchFilterMatches(h.push_events_branch_filter, h.branch_filter_strategy, event.ref),
      )
    if (hooks.length === 0) return
    const payload = pushPayload(ctx.instance, hookProject(ctx.store, event.project), pushData(ctx, event))
    delivery.enqueue(hooks, tag ? 'tag_push_hooks' : 'push_hooks', payload)
  })
  return repository
}

/** `Commit#repo_changes`: the paths a commit added, changed and removed against its first parent. */
function changesOf(ctx: ServiceContext, c: HistoryCommit): CommitChanges {
  const objects = ctx.store.gitObjects
  const parent = c.parents[0] === undefined ? undefined : readCommit(objects, c.parents[0])
  const before = parent ? filesOf(objects, parent.tree) : new Map<string, { sha: string; mode: string }>()
  const after = filesOf(objects, c.tree)
  const changes: CommitChanges = { added: [], modified: [], removed: [] }
  for (const [path, entry] of after) {
    const was = before.get(path)
    if (!was) changes.added.push(path)
    else if (was.sha !== entry.sha || was.mode !== entry.mode) changes.modified.push(path)
  }
  for (const path of before.keys()) if (!after.has(path)) changes.removed.push(path)
  for (const list of Object.values(changes)) list.sort()
  return changes
}

/**
 * The commits reachable from `head` and not from `base` (all of them without one), newest first:
 * the newest 20 and how many there are (`commits_between`, `count_commits_between`).
 */
function commitsBetween(ctx: ServiceContext, base: string | undefined, head: string) {
  const objects = ctx.store.gitObjects
  const reachable = new Set<string>()
  if (base !== undefined) for (const c of history(objects, base)) reachable.add(c.sha)
  const newest: HistoryCommit[] = []
  let total = 0
  for (const c of history(objects, head)) {
    if (reachable.has(c.sha)) continue
    total++
    if (newest.length < PAYLOAD_COMMITS) newest.push(c)
  }
  return { newest, total }
}

/** The payload's parts for commits listed newest first: the newest 20, oldest first, with their files. */
function listed(ctx: ServiceContext, project: ProjectRow, newest: HistoryCommit[]) {
  return newest
    .slice(0, PAYLOAD_COMMITS)
    .reverse()
    .map((c) => commitHookAttrs(ctx.instance, project.full_path, c, changesOf(ctx, c)))
}

/**
 * The commits a push of one ref brings, newest first: the newest 20 and how many. A branch created
 * brings the commits the default branch does not have (all of its history when it is the default
 * branch), a branch moved those since `before`, a ref deleted none; a tag its commit.
 */
export function pushedCommits(
  ctx: ServiceContext,
  event: PushEvent,
): { newest: HistoryCommit[]; total: number } {
  const { store } = ctx
  const { project, ref, before, after } = event
  if (after === BLANK_SHA) return { newest: [], total: 0 }
  if (event.kind === 'tag') {
    const commit = readCommit(store.gitObjects, after)
    return commit ? { newest: [commit], total: 1 } : { newest: [], total: 0 }
  }
  // A commit made on the branch (the commits and files APIs): itself, without walking the history.
  if (before !== BLANK_SHA) {
    const commit = readCommit(store.gitObjects, after)
    if (commit && commit.parents.length === 1 && commit.parents[0] === before)
      return { newest: [commit], total: 1 }
  }
  const def = project.default_branch
  const base =
    before !== BLANK_SHA
      ? before
      : def === null || def === ref
        ? undefined
        : store.repository.ref(project.id, 'branch', def)?.sha
  return commitsBetween(ctx, base, after)
}

/** `push_data` of one ref moved: the commits `pushedCommits` finds; a tag names its annotated tag object as `after`. */
function pushData(ctx: ServiceContext, event: PushEvent): PushData {
  const { store } = ctx
  const { project, ref, before, after, user } = event
  const removing = after === BLANK_SHA
  if (event.kind === 'tag') {
    const tagObject = removing ? undefined : store.repository.tagObject(project.id, ref)
    const body = tagObject === undefined ? undefined : store.gitObjects.get(tagObject)?.body
    const { newest, total } = pushedCommits(ctx, event)
    return {
      ref: `refs/tags/${ref}`,
      before,
      after: tagObject ?? after,
      // The emulator has no protected tags.
      refProtected: false,
      checkoutSha: removing ? null : after,
      // `Gitlab::Git::Tag#message`, as the tags API shows it: no final newline, empty for a lightweight tag.
      message: removing ? null : body ? parseTag(body).message.replace(/\n$/, '') : '',
      user,
      commits: listed(ctx, project, newest),
      totalCommitsCount: total,
    }
  }
  const commits = pushedCommits(ctx, event)
  return {
    ref: `refs/heads/${ref}`,
    before,
    after,
    refProtected: branchProtection(store.repository, project.id, ref) !== undefined,
    checkoutSha: removing ? null : after,
    message: null,
    user,
    commits: listed(ctx, project, commits.newest),
    totalCommitsCount: commits.total,
  }
}

/**
 * `Gitlab::DataBuilder::Push.build_sample` (a hook's test of `push_events` or `tag_push_events`): the
 * default branch's newest three commits, newest first, `before` the oldest of them; a tag's test names
 * the last tag by name (or `v1.0.0`). GitLab's fixed sample for an empty repository or a group's hook
 * (`Integrations::GroupTestData`).
 */
export function pushSample(
  ctx: ServiceContext,
  project: ProjectRow | undefined,
  user: UserRow,
  tag: boolean,
): unknown {
  const def = project?.default_branch ?? null
  const head = project && def !== null ? ctx.store.repository.ref(project.id, 'branch', def)?.sha : undefined
  if (!project || def === null || head === undefined)
    return tag ? { ...PUSH_SAMPLE, ...TAG_SAMPLE } : PUSH_SAMPLE
  const newest = [...takeN(history(ctx.store.gitObjects, head), SAMPLE_COMMITS)]
  const tagName = tag ? (lastTag(ctx, project)?.name ?? DEFAULT_TAG_NAME) : undefined
  const tagSha = tagName === undefined ? undefined : ctx.store.repository.ref(project.id, 'tag', tagName)?.sha
  return pushPayload(ctx.instance, hookProject(ctx.store, project), {
    ref: tagName === undefined ? `refs/heads/${def}` : `refs/tags/${tagName}`,
    before: newest.at(-1)!.sha,
    after: newest[0]!.sha,
    refProtected:
      tagName === undefined && branchProtection(ctx.store.repository, project.id, def) !== undefined,
    checkoutSha: tagName === undefined ? newest[0]!.sha : (tagSha ?? null),
    message: null,
    user,
    commits: newest.map((c) => commitHookAttrs(ctx.instance, project.full_path, c, changesOf(ctx, c))),
    totalCommitsCount: newest.length,
  })
}

/** `tags_sorted_by(:name_desc, limit: 1)`: the project's last tag by name. */
function lastTag(ctx: ServiceContext, project: ProjectRow) {
  const count = ctx.store.repository.countRefs(project.id, 'tag')
  return count === 0 ? undefined : ctx.store.repository.refs(project.id, 'tag', undefined, 1, count - 1)[0]
}

function* takeN<T>(items: Iterable<T>, n: number): Generator<T> {
  let i = 0
  for (const item of items) {
    if (i++ >= n) return
    yield item
  }
}
