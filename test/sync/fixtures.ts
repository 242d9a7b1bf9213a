import type { Op, SideComment, SideIssue, SyncOptions } from '../../src/sync/model.js'

/** Settings for plan tests: acme/widgets (id 7) on GitHub, acme/widgets (id 3) on GitLab. */
export const options = (more: Partial<SyncOptions> = {}): SyncOptions => ({
  direction: 'github-to-gitlab',
  places: { github: { repo: 'acme/widgets', id: 7 }, gitlab: { project: 'acme/widgets', id: 3 } },
  comments: true,
  labelMap: {},
  labelPrefix: '',
  userMap: {},
  gitlabUsers: [],
  milestones: { github: [], gitlab: [] },
  identity: { github: 'sync-bot', gitlab: 'sync-bot' },
  includeConfidential: false,
  ...more,
})

export const gh = (number: number, more: Partial<SideIssue> = {}): SideIssue => ({
  side: 'github',
  number,
  title: `Issue #${number}`,
  body: `Body ${number}`,
  state: 'open',
  labels: [],
  assignees: [],
  milestone: null,
  author: 'octocat',
  url: `https://github.com/acme/widgets/issues/${number}`,
  updated_at: '2026-01-01T00:00:00Z',
  comment_count: 0,
  ...more,
})

export const gl = (number: number, more: Partial<SideIssue> = {}): SideIssue => ({
  ...gh(number),
  side: 'gitlab',
  title: `GitLab ${number}`,
  body: `GitLab body ${number}`,
  author: 'alice',
  url: `https://gitlab.example.com/acme/widgets/-/issues/${number}`,
  ...more,
})

export const comment = (
  id: number,
  body: string,
  author = 'octocat',
  at = '2026-01-02T00:00:00Z',
): SideComment => ({
  id,
  body,
  author,
  created_at: at,
  url: `https://example.com/c/${id}`,
})

/**
 * Applies ops to in-memory issues the way the forges would store them (test double of the
 * adapters for plan-level round trips; the real adapters are tested in apply.test.ts).
 */
export function applyInMemory(ops: Op[], github: SideIssue[], gitlab: SideIssue[]) {
  const sides = { github: github.map((i) => ({ ...i })), gitlab: gitlab.map((i) => ({ ...i })) }
  const created = new Map<string, number>()
  let commentId = 1000
  for (const op of ops) {
    const list = sides[op.side]
    if (op.kind === 'create') {
      const number = Math.max(0, ...list.map((i) => i.number)) + 1
      created.set(op.key, number)
      list.push({
        ...(op.side === 'github' ? gh(number) : gl(number)),
        ...op.set,
        author: 'sync-bot',
        updated_at: '2026-02-01T00:00:00Z',
        comments: [],
        comment_count: 0,
      })
    } else {
      const number = op.number ?? created.get(op.key)
      const issue = list.find((i) => i.number === number)
      if (!issue) throw new Error(`no ${op.side}#${number}`)
      if (op.kind === 'update') Object.assign(issue, op.set, { updated_at: '2026-02-01T00:00:00Z' })
      else if (op.kind === 'comment-edit')
        issue.comments = (issue.comments ?? []).map((c) =>
          c.id === op.comment ? { ...c, body: op.body } : c,
        )
      else if (op.kind === 'comment-delete') {
        issue.comments = (issue.comments ?? []).filter((c) => c.id !== op.comment)
        issue.comment_count--
      } else {
        issue.comments = [
          ...(issue.comments ?? []),
          comment(++commentId, op.body, 'sync-bot', '2026-02-01T00:00:00Z'),
        ]
        issue.comment_count++
      }
    }
  }
  return sides
}
