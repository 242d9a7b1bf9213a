/*
 * The GitHub side, over REST through an Octokit that src/actions/ injects (only it may import
 * @actions/* and @octokit/*). The interface is Octokit's `request(route, params)` and
 * `paginate.iterator`, nothing more; rate limits and the spacing of writes are the Octokit's
 * (src/actions/sync-issues/octokit.ts: @octokit/plugin-throttling). Pull requests are left out.
 */
import type { IssueCreate, IssueWrite, SideComment, SideIssue } from './model.js'

/** Octokit's response, as far as we read it. */
export interface GitHubResponse {
  status: number
  headers: Record<string, string | number | undefined>
  data: unknown
}
/** The slice of Octokit we use: `request` and `paginate.iterator` (pages of `Link: rel="next"`). */
export interface GitHubRequest {
  request(route: string, params?: Record<string, unknown>): Promise<GitHubResponse>
  paginate: {
    iterator(route: string, params?: Record<string, unknown>): AsyncIterable<GitHubResponse>
  }
}

interface GhUser {
  login: string
}
interface GhIssue {
  number: number
  title: string
  body?: string | null
  state: string
  state_reason?: string | null
  labels: (string | { name?: string })[]
  assignees?: GhUser[] | null
  milestone: { title: string; number: number } | null
  user: GhUser | null
  html_url: string
  updated_at: string
  comments: number
  pull_request?: unknown
}
interface GhComment {
  id: number
  body?: string
  user: GhUser | null
  created_at: string
  html_url: string
}

/** The GitHub adapter for `owner/repo`. Every method throws Octokit's RequestError on failure. */
export function githubSide(octokit: GitHubRequest, repository: string) {
  const [owner, repo] = repository.split('/') as [string, string]

  const call = (route: string, params: Record<string, unknown> = {}): Promise<GitHubResponse> =>
    octokit.request(route, { owner, repo, ...params })
  async function* pages<T>(route: string, params: Record<string, unknown> = {}): AsyncGenerator<T> {
    for await (const res of octokit.paginate.iterator(route, { owner, repo, per_page: 100, ...params }))
      yield* res.data as T[]
  }
  const toIssue = (i: GhIssue): SideIssue => ({
    side: 'github',
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    state: i.state === 'closed' ? 'closed' : 'open',
    labels: i.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    assignees: (i.assignees ?? []).map((u) => u.login),
    milestone: i.milestone?.title ?? null,
    author: i.user?.login ?? 'ghost',
    url: i.html_url,
    updated_at: i.updated_at,
    comment_count: i.comments,
    ...(i.state === 'closed' && ['completed', 'not_planned', 'duplicate'].includes(i.state_reason ?? '')
      ? { close_reason: i.state_reason as SideIssue['close_reason'] }
      : {}),
  })
  let milestones: Map<string, number> | undefined
  const milestoneNumbers = async () => {
    if (!milestones) {
      milestones = new Map()
      for await (const m of pages<{ title: string; number: number }>('GET /repos/{owner}/{repo}/milestones', {
        state: 'all',
      }))
        milestones.set(m.title, m.number)
    }
    return milestones
  }
  /** Octokit parameters of a write (milestone by number; `state` handled by the caller). */
  async function fields(set: IssueWrite): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {}
    if (set.title !== undefined) out.title = set.title
    if (set.body !== undefined) out.body = set.body
    if (set.labels !== undefined) out.labels = set.labels
    if (set.assignees !== undefined) out.assignees = set.assignees
    if (set.milestone !== undefined)
      out.milestone = set.milestone === null ? null : ((await milestoneNumbers()).get(set.milestone) ?? null)
    if (set.state !== undefined) out.state = set.state
    if (set.state_reason !== undefined) out.state_reason = set.state_reason
    return out
  }

  return {
    side: 'github' as const,
    /** `GET /repos/{owner}/{repo}`: the repository's id (markers match by id, so renames keep pairs). */
    repository: async () =>
      (await call('GET /repos/{owner}/{repo}')).data as { id: number; full_name: string; html_url: string },
    /** The token's login, or undefined when GitHub will not say (GITHUB_TOKEN: 403 on `GET /user`). */
    identity: async (): Promise<string | undefined> => {
      try {
        return ((await call('GET /user')).data as GhUser).login
      } catch {
        return undefined
      }
    },
    milestones: async () => [...(await milestoneNumbers()).keys()],
    /** Every issue, oldest first, pull requests left out. */
    async *issues(): AsyncGenerator<SideIssue> {
      for await (const i of pages<GhIssue>('GET /repos/{owner}/{repo}/issues', {
        state: 'all',
        sort: 'created',
        direction: 'asc',
      }))
        if (i.pull_request === undefined) yield toIssue(i)
    },
    /** One issue; undefined for a pull request or a missing issue. */
    async issue(number: number): Promise<SideIssue | undefined> {
      try {
        const i = (await call('GET /repos/{owner}/{repo}/issues/{issue_number}', { issue_number: number }))
          .data as GhIssue
        return i.pull_request === undefined ? toIssue(i) : undefined
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined
        throw err
      }
    },
    async comments(number: number): Promise<SideComment[]> {
      const out: SideComment[] = []
      for await (const c of pages<GhComment>('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        issue_number: number,
      }))
        out.push({
          id: c.id,
          body: c.body ?? '',
          author: c.user?.login ?? 'ghost',
          created_at: c.created_at,
          url: c.html_url,
        })
      return out
    },
    /** Creates an issue, then closes it when `set.state` is closed (GitHub creates open issues). */
    async create(set: IssueCreate): Promise<{ number: number; url: string }> {
      const { state, state_reason, ...rest } = await fields(set)
      const i = (await call('POST /repos/{owner}/{repo}/issues', rest)).data as GhIssue
      if (state === 'closed')
        await call('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
          issue_number: i.number,
          state,
          ...(state_reason ? { state_reason } : {}),
        })
      return { number: i.number, url: i.html_url }
    },
    async update(number: number, set: IssueWrite): Promise<void> {
      await call('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
        issue_number: number,
        ...(await fields(set)),
      })
    },
    async comment(number: number, body: string): Promise<void> {
      await call('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: number, body })
    },
    /** `PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}` (comment ids are the repository's). */
    async editComment(_number: number, id: number, body: string): Promise<void> {
      await call('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { comment_id: id, body })
    },
    /** `DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}` -> 204. */
    async deleteComment(_number: number, id: number): Promise<void> {
      await call('DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}', { comment_id: id })
    },
  }
}
export type GitHubSide = ReturnType<typeof githubSide>
