/*
 * The GitHub side, over REST through an Octokit-shaped object that src/actions/ injects (only it
 * may import @actions/github). The interface is Octokit's `request(route, params)`, nothing more.
 * Pull requests are left out. Writes are spaced (GitHub's secondary limits on content
 * creation) and a 403/429 rate-limit answer is waited out (`Retry-After`, else
 * `x-ratelimit-reset`) and retried.
 */
import type { Fields, IssueWrite, SideComment, SideIssue } from './model.js'

/** Octokit's response, as far as we read it. */
export interface GitHubResponse {
  status: number
  headers: Record<string, string | number | undefined>
  data: unknown
}
/** The slice of Octokit we use: `octokit.request('GET /repos/{owner}/{repo}/issues', params)`. */
export interface GitHubRequest {
  request(route: string, params?: Record<string, unknown>): Promise<GitHubResponse>
}

interface GhUser {
  login: string
}
interface GhIssue {
  number: number
  title: string
  body?: string | null
  state: string
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

/** Pacing settings; time is injected for tests. */
export interface Pacing {
  /** Gap between two writes (default 1,000 ms; GitHub asks for at least one second). */
  writeGapMs?: number
  /** Retries of one call after a rate-limit answer (default 3). */
  retries?: number
  /** Longest single wait for a limit (default 15 min); a longer one fails the call. */
  maxWaitMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

const header = (h: Record<string, string | number | undefined> | undefined, name: string) =>
  h?.[name] === undefined ? undefined : String(h[name])

/** Whether `err` is a GitHub rate-limit answer, and how long to wait (ms) before retrying. */
export function rateLimitWait(err: unknown, now: number): number | undefined {
  const e = err as {
    status?: number
    message?: string
    response?: { headers?: Record<string, string | number | undefined> }
  }
  if (e?.status !== 403 && e?.status !== 429) return undefined
  const h = e.response?.headers
  const after = header(h, 'retry-after')
  if (after && /^\d+$/.test(after)) return Number(after) * 1000
  if (header(h, 'x-ratelimit-remaining') === '0') {
    const reset = Number(header(h, 'x-ratelimit-reset'))
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) + 1000 : 60_000
  }
  return /secondary rate limit|rate limit/i.test(e.message ?? '') ? 60_000 : undefined
}

/** The GitHub adapter for `owner/repo`. Every method throws Octokit's RequestError on failure. */
export function githubSide(octokit: GitHubRequest, repository: string, pacing: Pacing = {}) {
  const [owner, repo] = repository.split('/') as [string, string]
  const now = pacing.now ?? Date.now
  const sleep = pacing.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const gap = pacing.writeGapMs ?? 1000
  let lastWrite = -Infinity
  let resetAt = 0

  async function call(route: string, params: Record<string, unknown> = {}): Promise<GitHubResponse> {
    const write = !route.startsWith('GET ')
    for (let attempt = 0; ; attempt++) {
      if (resetAt > now()) await sleep(resetAt - now())
      if (write && now() - lastWrite < gap) await sleep(gap - (now() - lastWrite))
      if (write) lastWrite = now()
      try {
        const res = await octokit.request(route, { owner, repo, ...params })
        if (header(res.headers, 'x-ratelimit-remaining') === '0')
          resetAt = Number(header(res.headers, 'x-ratelimit-reset')) * 1000 || 0
        return res
      } catch (err) {
        const wait = rateLimitWait(err, now())
        if (wait === undefined || attempt >= (pacing.retries ?? 3) || wait > (pacing.maxWaitMs ?? 900_000))
          throw err
        await sleep(wait)
      }
    }
  }
  async function* pages<T>(route: string, params: Record<string, unknown> = {}): AsyncGenerator<T> {
    for (let page = 1; ; page++) {
      const res = await call(route, { per_page: 100, ...params, page })
      yield* res.data as T[]
      if (!/rel="next"/.test(header(res.headers, 'link') ?? '')) return
    }
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
    return out
  }

  return {
    side: 'github' as const,
    /** `GET /repos/{owner}/{repo}`: the repository's id (markers match by id, so renames keep pairs). */
    repository: async () =>
      (await call('GET /repos/{owner}/{repo}')).data as { id: number; full_name: string },
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
    async create(set: Fields): Promise<{ number: number; url: string }> {
      const { state, ...rest } = await fields(set)
      const i = (await call('POST /repos/{owner}/{repo}/issues', rest)).data as GhIssue
      if (state === 'closed')
        await call('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { issue_number: i.number, state })
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
  }
}
export type GitHubSide = ReturnType<typeof githubSide>
