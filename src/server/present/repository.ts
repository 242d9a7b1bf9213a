import type { ProtectedTag } from '../../schema/protected-tag.js'
import type { BlameRange } from '../../schema/repository-blame.js'
import type { Commit, ProtectedBranch } from '../../schema/repository.js'
import type { ProtectedBranchRow, ProtectedTagRow } from '../store/repository.js'
import type { Signature } from '../git/trees.js'
import type { HistoryCommit } from '../git/history.js'
import type { BlameResult } from '../git/blame.js'
import type { Instance } from './context.js'

/**
 * A git date as GitLab's API writes it: the commit's own offset kept (`Gitlab::Git::Commit`
 * reads Gitaly's timezone), milliseconds always `.000`.
 */
export function gitDate(s: Signature): string {
  const sign = s.offset.startsWith('-') ? -1 : 1
  const minutes = sign * (Number(s.offset.slice(1, 3)) * 60 + Number(s.offset.slice(3, 5)))
  const local = new Date((s.seconds + minutes * 60) * 1000).toISOString().slice(0, 19)
  return `${local}.000${s.offset.slice(0, 3)}:${s.offset.slice(3, 5)}`
}

/** Git trailers (`Key: value` lines) of the message's last paragraph, as Gitaly parses them. */
function trailersOf(message: string): Record<string, string[]> {
  const paragraphs = message.trimEnd().split(/\n\s*\n/)
  if (paragraphs.length < 2) return {}
  const lines = paragraphs.at(-1)!.split('\n')
  const parsed = lines.map((l) => /^([A-Za-z0-9-]+): (.+)$/.exec(l))
  if (parsed.some((m) => m === null)) return {}
  const out: Record<string, string[]> = {}
  for (const m of parsed) (out[m![1]!] ??= []).push(m![2]!)
  return out
}

/**
 * `Entities::Commit` (`lib/api/entities/commit.rb`): `short_id` is 11 characters
 * (`Gitlab::Git::Commit#short_id`, `id[0..10]`), `title` the first line (`full_title`),
 * `created_at` the committer's date; `trailers` keeps each key's last value.
 */
export function presentCommit(c: HistoryCommit, projectFullPath: string, instance: Instance): Commit {
  const extended = trailersOf(c.message)
  return {
    id: c.sha,
    short_id: c.sha.slice(0, 11),
    created_at: gitDate(c.committer),
    parent_ids: c.parents,
    title: c.message.split('\n', 1)[0]!,
    message: c.message,
    author_name: c.author.name,
    author_email: c.author.email,
    authored_date: gitDate(c.author),
    committer_name: c.committer.name,
    committer_email: c.committer.email,
    committed_date: gitDate(c.committer),
    trailers: Object.fromEntries(Object.entries(extended).map(([k, v]) => [k, v.at(-1)!])),
    extended_trailers: extended,
    web_url: `${instance.baseUrl}/${projectFullPath}/-/commit/${c.sha}`,
  }
}

/**
 * A blame as `Gitlab::Blame#groups` hands it to `Entities::BlameRange`: consecutive lines of one
 * commit make one range (two runs of a commit apart from each other make two).
 */
export function presentBlame(b: BlameResult): BlameRange[] {
  const ranges: BlameRange[] = []
  b.commits.forEach((c, i) => {
    const last = ranges.at(-1)
    if (last?.commit.id === c.sha) last.lines.push(b.lines[i]!)
    else
      ranges.push({
        commit: {
          id: c.sha,
          parent_ids: c.parents,
          message: c.message,
          authored_date: gitDate(c.author),
          author_name: c.author.name,
          author_email: c.author.email,
          committed_date: gitDate(c.committer),
          committer_name: c.committer.name,
          committer_email: c.committer.email,
        },
        lines: [b.lines[i]!],
      })
  })
  return ranges
}

const LEVEL_NAMES: Record<number, string> = {
  0: 'No one',
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Administrators',
}

/**
 * `Entities::ProtectedBranch` (`lib/api/entities/protected_branch.rb`) of one row: one access level
 * each for push, merge and (EE) unprotect, ids derived from the row's (`id * 10 + 1..3`: this
 * server keeps no table of access levels). `user_id`/`group_id` are always null here.
 */
export function presentProtectedBranch(row: ProtectedBranchRow, instance: Instance): ProtectedBranch {
  const level = (k: number, access_level: number, push: boolean) => ({
    id: row.id * 10 + k,
    access_level,
    access_level_description: LEVEL_NAMES[access_level] ?? String(access_level),
    ...(push ? { deploy_key_id: null } : {}),
    user_id: null,
    group_id: null,
  })
  return {
    id: row.id,
    name: row.name,
    push_access_levels: [level(1, row.push_access_level, true)],
    merge_access_levels: [level(2, row.merge_access_level, false)],
    allow_force_push: row.allow_force_push === 1,
    ...(instance.edition === 'ee'
      ? {
          unprotect_access_levels: [level(3, row.unprotect_access_level, false)],
          code_owner_approval_required: row.code_owner_approval_required === 1,
          inherited: false,
        }
      : {}),
  }
}

/**
 * `Entities::ProtectedTag`: the name and its create level (`Entities::ProtectedRefAccess`, with
 * `deploy_key_id` as a tag's create levels have that column; `user_id` and `group_id` as for branches).
 */
export const presentProtectedTag = (row: ProtectedTagRow): ProtectedTag => ({
  name: row.name,
  create_access_levels: [
    {
      id: row.id,
      access_level: row.create_access_level,
      access_level_description: LEVEL_NAMES[row.create_access_level] ?? String(row.create_access_level),
      deploy_key_id: null,
      user_id: null,
      group_id: null,
    },
  ],
})
