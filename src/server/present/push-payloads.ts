import type { HistoryCommit } from '../git/history.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { projectHookAttrs, type HookProject } from './hook-payloads.js'
import { gitDate } from './repository.js'

/*
 * The payloads of push and tag push webhooks (`lib/gitlab/data_builder/push.rb`), shaped from the
 * commits the caller picked (`Git::BranchHooksService`, `Git::TagHooksService`).
 */

type Json = Record<string, unknown>

/** What `Commit#repo_changes` reports of a commit against its first parent. */
export interface CommitChanges {
  added: string[]
  modified: string[]
  removed: string[]
}

/** `Commit#title`: the first line, cut at a word before 81 characters with `…` when it is 100 or longer. */
export function commitTitle(message: string): string {
  const full = message.trim() === '' ? 'No commit message' : message.split(/[\r\n]/, 1)[0]!
  if (full.length < 100) return full
  const space = full.lastIndexOf(' ', 80)
  return `${full.slice(0, space > 0 ? space : 80)}…`
}

/**
 * `Commit#hook_attrs`: `timestamp` is the committer's date (`xmlschema`); with `changes` what
 * `with_changed_files: true` adds (a push's commits; a note's commit has none).
 */
export function commitHookAttrs(
  instance: Instance,
  projectPath: string,
  c: HistoryCommit,
  changes?: CommitChanges,
): Json {
  return {
    id: c.sha,
    message: c.message,
    title: commitTitle(c.message),
    timestamp: gitDate(c.committer).replace('.000', ''),
    url: `${instance.baseUrl}/${projectPath}/-/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email },
    ...changes,
  }
}

/** One push as `Gitlab::DataBuilder::Push#build` takes it. */
export interface PushData {
  /** `refs/heads/x` or `refs/tags/x`. */
  ref: string
  before: string
  after: string
  refProtected: boolean
  /** The commit checked out (null for a deleted ref): `after`, or the commit a tag points at. */
  checkoutSha: string | null
  /** A tag's message (null for a branch). */
  message: string | null
  user: UserRow
  /** At most 20, oldest first, each with its changed files. */
  commits: Json[]
  totalCommitsCount: number
}

/** `Gitlab::DataBuilder::Push#build`: `push` for a branch, `tag_push` for a tag, in GitLab's key order. */
export function pushPayload(instance: Instance, project: HookProject, d: PushData): Json {
  const kind = d.ref.startsWith('refs/tags/') ? 'tag_push' : 'push'
  const attrs = projectHookAttrs(instance, project)
  return {
    object_kind: kind,
    event_name: kind,
    before: d.before,
    after: d.after,
    ref: d.ref,
    ref_protected: d.refProtected,
    checkout_sha: d.checkoutSha,
    message: d.message,
    user_id: d.user.id,
    user_name: d.user.name,
    user_username: d.user.username,
    // `User#public_email`: the emulator's users never make theirs public.
    user_email: null,
    user_avatar: null,
    project_id: project.row.id,
    project: attrs,
    commits: d.commits,
    total_commits_count: d.totalCommitsCount,
    push_options: {},
    repository: {
      name: attrs.name,
      url: attrs.url,
      description: attrs.description,
      homepage: attrs.homepage,
      git_http_url: attrs.git_http_url,
      git_ssh_url: attrs.git_ssh_url,
      visibility_level: attrs.visibility_level,
    },
  }
}

/** `Gitlab::DataBuilder::Push::SAMPLE_DATA`: what a test sends for an empty repository or a group. */
export const PUSH_SAMPLE = {
  object_kind: 'push',
  event_name: 'push',
  before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
  after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  ref: 'refs/heads/master',
  ref_protected: true,
  checkout_sha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  message: 'Hello World',
  user_id: 4,
  user_name: 'John Smith',
  user_email: 'john@example.com',
  user_avatar:
    'https://s.gravatar.com/avatar/d4c74594d841139328695756648b6bd6?s=8://s.gravatar.com/avatar/d4c74594d841139328695756648b6bd6?s=80',
  project_id: 15,
  project: {
    id: 15,
    name: 'gitlab',
    description: '',
    web_url: 'http://test.example.com/gitlab/gitlab',
    avatar_url:
      'https://s.gravatar.com/avatar/d4c74594d841139328695756648b6bd6?s=8://s.gravatar.com/avatar/d4c74594d841139328695756648b6bd6?s=80',
    git_ssh_url: 'git@test.example.com:gitlab/gitlab.git',
    git_http_url: 'http://test.example.com/gitlab/gitlab.git',
    namespace: 'gitlab',
    visibility_level: 0,
    path_with_namespace: 'gitlab/gitlab',
    default_branch: 'master',
  },
  commits: [
    {
      id: 'c5feabde2d8cd023215af4d2ceeb7a64839fc428',
      message: 'Add simple search to projects in public area\n\ncommit message body',
      title: 'Add simple search to projects in public area',
      timestamp: '2013-05-13T18:18:08+00:00',
      url: 'https://test.example.com/gitlab/gitlab/-/commit/c5feabde2d8cd023215af4d2ceeb7a64839fc428',
      author: { name: 'Test User', email: 'test@example.com' },
    },
  ],
  total_commits_count: 1,
  push_options: { ci: { skip: true } },
}

/** `SAMPLE_TAG_DATA`: what a tag test's fixed sample changes. */
export const TAG_SAMPLE = { object_kind: 'tag_push', event_name: 'tag_push', ref: 'refs/tags/v1.0.0' }
