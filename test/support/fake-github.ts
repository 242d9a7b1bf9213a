/*
 * A small in-process GitHub REST server for the sync tests (GitHub cannot run here). Only the
 * routes sync-issues calls, with GitHub's published shapes (@octokit/openapi-types `issue`,
 * `issue-comment`, `milestone`, `repository`): pull requests in the issues list carry a
 * `pull_request` key, lists paginate with `Link`, every answer has `x-ratelimit-*` headers, and a
 * secondary rate limit answers 403 with `Retry-After`. Test support, not product.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { octokit, type GitHubOptions } from '../../src/actions/sync-issues/octokit.js'

type Json = Record<string, unknown>
export interface FakeIssue {
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  state_reason: string | null
  labels: string[]
  assignees: string[]
  milestone: number | null
  user: string
  pull_request?: boolean
  comments: { id: number; body: string; user: string; created_at: string; updated_at: string }[]
  created_at: string
  updated_at: string
  closed_at: string | null
}

export interface FakeGitHub {
  url: string
  owner: string
  repo: string
  issues: FakeIssue[]
  milestones: { number: number; title: string; state: 'open' | 'closed' }[]
  labels: Set<string>
  /** Requests by method (`GET`, `POST`, `PATCH`), since the last `resetCounts`. */
  counts: Record<string, number>
  /** Every `authorization` value seen (to check where tokens went). */
  tokens: Set<string>
  resetCounts(): void
  /** Answers 403 secondary-rate-limit with `Retry-After: seconds` to the next `times` writes. */
  limitNextWrites(times: number, seconds?: number): void
  /** Answers `status` to every write that touches issue `number` (a failing issue). */
  failIssue(number: number, status?: number): void
  addIssue(issue: Partial<FakeIssue> & { title: string }): FakeIssue
  comment(number: number, body: string, user?: string): void
  close(): Promise<void>
}

/** Starts the fake on 127.0.0.1:0 for `owner/repo`, answering as `login` (token type `ghp_`/`ghs_`). */
export async function startFakeGitHub(
  owner = 'acme',
  repo = 'widgets',
  login = 'sync-bot',
): Promise<FakeGitHub> {
  let seq = 1
  let tick = Date.parse('2026-01-01T00:00:00Z')
  const now = () => new Date((tick += 1000)).toISOString()
  const limited = { times: 0, seconds: 1 }
  const failing = new Map<number, number>()
  let base = ''
  const fake: FakeGitHub = {
    url: '',
    owner,
    repo,
    issues: [],
    milestones: [],
    labels: new Set(),
    counts: {},
    tokens: new Set(),
    resetCounts: () => void (fake.counts = {}),
    limitNextWrites: (times, seconds = 1) => Object.assign(limited, { times, seconds }),
    failIssue: (number, status = 500) => void failing.set(number, status),
    addIssue(more) {
      const at = now()
      const issue: FakeIssue = {
        number: seq++,
        body: null,
        state: 'open',
        state_reason: null,
        labels: [],
        assignees: [],
        milestone: null,
        user: 'octocat',
        comments: [],
        created_at: at,
        updated_at: at,
        closed_at: null,
        ...more,
      }
      for (const l of issue.labels) fake.labels.add(l)
      fake.issues.push(issue)
      return issue
    },
    comment(number, body, user = 'octocat') {
      const issue = fake.issues.find((i) => i.number === number)
      if (!issue) throw new Error(`no issue ${number}`)
      const at = now()
      issue.comments.push({ id: 9000 + seq++ * 10, body, user, created_at: at, updated_at: at })
      issue.updated_at = at
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }

  const user = (name: string) => ({
    login: name,
    id: name.length * 1000,
    type: name.endsWith('[bot]') ? 'Bot' : 'User',
    html_url: `https://github.com/${name}`,
  })
  const repoPath = `/repos/${owner}/${repo}`
  const html = `https://github.com/${owner}/${repo}`
  const milestoneOf = (n: number | null) => {
    const m = fake.milestones.find((x) => x.number === n)
    return m
      ? {
          id: 500 + m.number,
          number: m.number,
          title: m.title,
          state: m.state,
          html_url: `${html}/milestone/${m.number}`,
        }
      : null
  }
  const present = (i: FakeIssue): Json => ({
    id: 100_000 + i.number,
    node_id: `I_${i.number}`,
    url: `${base}${repoPath}/issues/${i.number}`,
    html_url: `${html}/${i.pull_request ? 'pull' : 'issues'}/${i.number}`,
    number: i.number,
    state: i.state,
    state_reason: i.state_reason,
    title: i.title,
    body: i.body,
    user: user(i.user),
    labels: i.labels.map((name, k) => ({
      id: k + 1,
      name,
      color: 'ededed',
      default: false,
      description: null,
    })),
    assignee: i.assignees[0] ? user(i.assignees[0]) : null,
    assignees: i.assignees.map(user),
    milestone: milestoneOf(i.milestone),
    locked: false,
    comments: i.comments.length,
    ...(i.pull_request
      ? {
          pull_request: { url: `${base}${repoPath}/pulls/${i.number}`, html_url: `${html}/pull/${i.number}` },
        }
      : {}),
    closed_at: i.closed_at,
    created_at: i.created_at,
    updated_at: i.updated_at,
    author_association: 'OWNER',
  })
  const presentComment = (i: FakeIssue, c: FakeIssue['comments'][number]): Json => ({
    id: c.id,
    html_url: `${html}/issues/${i.number}#issuecomment-${c.id}`,
    body: c.body,
    user: user(c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: 'OWNER',
  })

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-used': '1',
      'x-ratelimit-resource': 'core',
      ...headers,
    })
    res.end(body === undefined ? '' : JSON.stringify(body))
  }
  /** One page of `items` with GitHub's Link header (next, last, first, prev as they apply). */
  function page(res: ServerResponse, url: URL, items: unknown[]) {
    const per = Math.min(Number(url.searchParams.get('per_page') ?? 30) || 30, 100)
    const n = Math.max(Number(url.searchParams.get('page') ?? 1) || 1, 1)
    const last = Math.max(1, Math.ceil(items.length / per))
    const at = (p: number) => {
      const u = new URL(url.toString(), base)
      u.searchParams.set('page', String(p))
      return `<${base}${u.pathname}${u.search}>`
    }
    const links = [
      ...(n > 1 ? [`${at(n - 1)}; rel="prev"`] : []),
      ...(n < last ? [`${at(n + 1)}; rel="next"`, `${at(last)}; rel="last"`] : []),
      ...(n > 1 ? [`${at(1)}; rel="first"`] : []),
    ]
    send(res, 200, items.slice((n - 1) * per, n * per), links.length ? { link: links.join(', ') } : {})
  }
  const readJson = async (req: IncomingMessage): Promise<Json> => {
    let text = ''
    for await (const chunk of req) text += String(chunk)
    return text ? (JSON.parse(text) as Json) : {}
  }
  function applyFields(i: FakeIssue, b: Json) {
    if (typeof b.title === 'string') i.title = b.title
    if ('body' in b) i.body = (b.body as string | null) ?? null
    if (Array.isArray(b.labels)) {
      i.labels = (b.labels as unknown[]).map((l) => (typeof l === 'string' ? l : String((l as Json).name)))
      for (const l of i.labels) fake.labels.add(l) // GitHub creates labels named on an issue
    }
    if (Array.isArray(b.assignees)) i.assignees = b.assignees as string[]
    if ('milestone' in b) i.milestone = (b.milestone as number | null) ?? null
    if (b.state === 'closed' && i.state !== 'closed') {
      i.state = 'closed'
      i.state_reason = (b.state_reason as string | undefined) ?? 'completed'
      i.closed_at = now()
    } else if (b.state === 'open' && i.state !== 'open')
      Object.assign(i, { state: 'open', state_reason: 'reopened', closed_at: null })
    i.updated_at = now()
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? 'GET'
    fake.counts[method] = (fake.counts[method] ?? 0) + 1
    const auth = req.headers.authorization
    if (!auth)
      return send(res, 401, {
        message: 'Requires authentication',
        documentation_url: 'https://docs.github.com/rest',
      })
    fake.tokens.add(auth)
    const url = new URL(req.url ?? '/', base)
    const p = url.pathname
    const write = method !== 'GET'
    if (write && limited.times > 0) {
      limited.times--
      return send(
        res,
        403,
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          documentation_url:
            'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        },
        { 'retry-after': String(limited.seconds) },
      )
    }
    if (p === '/user' && method === 'GET') {
      if (/ghs_/.test(auth)) return send(res, 403, { message: 'Resource not accessible by integration' })
      return send(res, 200, user(login))
    }
    if (p === repoPath && method === 'GET')
      return send(res, 200, { id: 4242, name: repo, full_name: `${owner}/${repo}`, html_url: html })
    if (p === `${repoPath}/milestones` && method === 'GET')
      return page(
        res,
        url,
        fake.milestones.map((m) => milestoneOf(m.number)),
      )
    if (p === `${repoPath}/issues` && method === 'GET') {
      const dir = url.searchParams.get('direction') === 'asc' ? 1 : -1
      const list = [...fake.issues].sort((a, b) => (a.number - b.number) * dir).map(present)
      return page(res, url, list)
    }
    if (p === `${repoPath}/issues` && method === 'POST') {
      const b = await readJson(req)
      if (typeof b.title !== 'string' || !b.title)
        return send(res, 422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
        })
      const issue = fake.addIssue({ title: b.title, user: login })
      applyFields(issue, b)
      return send(res, 201, present(issue))
    }
    const c = new RegExp(`^${repoPath}/issues/comments/(\\d+)$`).exec(p)
    if (c && (method === 'PATCH' || method === 'DELETE')) {
      const owner = fake.issues.find((i) => i.comments.some((x) => x.id === Number(c[1])))
      if (!owner) return send(res, 404, { message: 'Not Found' })
      const at = owner.comments.findIndex((x) => x.id === Number(c[1]))
      if (method === 'DELETE') {
        owner.comments.splice(at, 1)
        return send(res, 204, undefined)
      }
      const edited = owner.comments[at] as FakeIssue['comments'][number]
      Object.assign(edited, { body: String((await readJson(req)).body), updated_at: now() })
      return send(res, 200, presentComment(owner, edited))
    }
    const m = new RegExp(`^${repoPath}/issues/(\\d+)(/comments)?$`).exec(p)
    const issue = m ? fake.issues.find((i) => i.number === Number(m[1])) : undefined
    if (!m || !issue)
      return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' })
    if (write && failing.has(issue.number))
      return send(res, failing.get(issue.number) as number, { message: 'Server Error' })
    if (!m[2] && method === 'GET') return send(res, 200, present(issue))
    if (!m[2] && method === 'PATCH') {
      applyFields(issue, await readJson(req))
      return send(res, 200, present(issue))
    }
    if (m[2] && method === 'GET')
      return page(
        res,
        url,
        issue.comments.map((c) => presentComment(issue, c)),
      )
    if (m[2] && method === 'POST') {
      const b = await readJson(req)
      fake.comment(issue.number, String(b.body), login)
      return send(res, 201, presentComment(issue, issue.comments.at(-1) as FakeIssue['comments'][number]))
    }
    return send(res, 404, { message: 'Not Found' })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { message: String(err) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fake.url = base
  return fake
}

/**
 * The product's Octokit (@octokit/core with @octokit/plugin-throttling) pointed at the fake, with
 * no gap between writes and rate-limit waits of a millisecond per second asked.
 */
export function octokitFor(baseUrl: string, token: string, more: GitHubOptions = {}) {
  return octokit(token, { baseUrl, writeGapMs: 0, msPerSecond: 1, ...more })
}
