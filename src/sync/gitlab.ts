/*
 * The GitLab side, through the typed client (src/api/). Usernames become ids through
 * `GET /users?username=`, milestone titles through `GET /projects/:id/milestones?title=`; labels
 * are created by GitLab on first use. GitLab's 429s are retried by the client (Retry-After).
 */
import { collect, GitLabApiError, type GitLabClient } from '../api/client.js'
import type { Issue } from '../schema/issue.js'
import type { Milestone } from '../schema/milestone.js'
import type { UserBasic } from '../schema/common.js'
import type { IssueCreate, IssueWrite, SideComment, SideIssue } from './model.js'

const toIssue = (i: Issue): SideIssue => ({
  side: 'gitlab',
  number: i.iid,
  title: i.title,
  body: i.description ?? '',
  state: i.state === 'closed' ? 'closed' : 'open',
  labels: i.labels.map((l) => (typeof l === 'string' ? l : l.name)),
  assignees: i.assignees.map((u) => u.username),
  milestone: i.milestone?.title ?? null,
  author: i.author.username,
  url: i.web_url,
  updated_at: i.updated_at,
  comment_count: i.user_notes_count,
  confidential: i.confidential,
  ...(i.state === 'closed' && i._links.closed_as_duplicate_of
    ? { duplicate_of: i._links.closed_as_duplicate_of }
    : {}),
})

/** The GitLab adapter for one project (id or full path). Methods throw GitLabApiError. */
export function gitlabSide(client: GitLabClient, project: string | number) {
  const userIds = new Map<string, number | undefined>()
  const milestoneIds = new Map<string, number | undefined>()

  async function userId(username: string): Promise<number | undefined> {
    if (!userIds.has(username)) {
      const found = await client.request<UserBasic[]>('GET', '/users', { query: { username } })
      userIds.set(username, found.find((u) => u.username.toLowerCase() === username.toLowerCase())?.id)
    }
    return userIds.get(username)
  }
  async function milestoneId(title: string): Promise<number | undefined> {
    if (!milestoneIds.has(title)) {
      const path = `/projects/${encodeURIComponent(String(project))}/milestones`
      const found = await client.request<Milestone[]>('GET', path, { query: { title } })
      milestoneIds.set(title, found.find((m) => m.title === title)?.id)
    }
    return milestoneIds.get(title)
  }
  async function params(set: IssueWrite) {
    const out: Record<string, unknown> = {}
    if (set.title !== undefined) out.title = set.title
    if (set.body !== undefined) out.description = set.body
    if (set.labels !== undefined) out.labels = set.labels
    if (set.assignees !== undefined)
      out.assignee_ids = (await Promise.all(set.assignees.map(userId))).filter(
        (id): id is number => id !== undefined,
      )
    if (set.milestone !== undefined)
      out.milestone_id = set.milestone === null ? 0 : ((await milestoneId(set.milestone)) ?? 0)
    return out
  }

  return {
    side: 'gitlab' as const,
    /** `GET /projects/:id`: the id and full path markers name, and its web address for links. */
    project: async () => {
      const p = await client.projects.get(project)
      return { id: p.id, path: p.path_with_namespace, web_url: p.web_url }
    },
    /** The token's username (`GET /user`), or undefined for a token without a user (job tokens). */
    identity: async () => {
      try {
        return (await client.users.current()).username
      } catch (err) {
        if (err instanceof GitLabApiError) return undefined
        throw err
      }
    },
    /** Which of `usernames` exist (unknown ones are dropped from assignees rather than retried forever). */
    knownUsers: async (usernames: string[]) => {
      const out: string[] = []
      for (const u of usernames) if ((await userId(u)) !== undefined) out.push(u)
      return out
    },
    /** Milestone titles of the project. */
    milestones: async () => {
      const path = `/projects/${encodeURIComponent(String(project))}/milestones`
      const all = await collect(client.paginate<Milestone>(path))
      for (const m of all) milestoneIds.set(m.title, m.id)
      return all.map((m) => m.title)
    },
    /** Every issue of the project, oldest first. */
    async *issues(): AsyncGenerator<SideIssue> {
      for await (const i of client.issues.list(project, { order_by: 'created_at', sort: 'asc' }))
        yield toIssue(i)
    },
    /** One issue by iid; undefined when it does not exist. */
    async issue(iid: number): Promise<SideIssue | undefined> {
      try {
        return toIssue(await client.issues.get(project, iid))
      } catch (err) {
        if (err instanceof GitLabApiError && err.status === 404) return undefined
        throw err
      }
    },
    /** Issues whose description holds `text` (GitLab's search), for event mode's lookup of one mirror. */
    async search(text: string): Promise<SideIssue[]> {
      const found = await collect(client.issues.list(project, { search: text, in: 'description' }), {
        limit: 100,
      })
      return found.map(toIssue)
    },
    /** User notes (system notes left out), oldest first; `issueUrl` makes each note's link. */
    async comments(iid: number, issueUrl: string): Promise<SideComment[]> {
      const out: SideComment[] = []
      for await (const note of client.notes.list(project, iid, { sort: 'asc' })) {
        if (note.system) continue
        out.push({
          id: note.id,
          body: note.body,
          author: note.author.username,
          created_at: note.created_at,
          url: `${issueUrl}#note_${note.id}`,
          // GitLab before 15.0 says only `confidential` (its old name): either flag keeps it private.
          internal: note.internal === true || note.confidential === true,
        })
      }
      return out
    },
    /** Creates the issue, then closes it when `set.state` is closed (GitLab creates open issues). */
    async create(set: IssueCreate): Promise<{ number: number; url: string }> {
      const { title, ...rest } = await params(set)
      const issue = await client.issues.create(project, { title: title as string, ...rest })
      if (set.state === 'closed') await client.issues.update(project, issue.iid, { state_event: 'close' })
      return { number: issue.iid, url: issue.web_url }
    },
    async update(iid: number, set: IssueWrite): Promise<void> {
      const body = await params(set)
      if (set.state !== undefined) body.state_event = set.state === 'closed' ? 'close' : 'reopen'
      await client.issues.update(project, iid, body)
    },
    async comment(iid: number, body: string): Promise<void> {
      await client.notes.create(project, iid, { body })
    },
    /** `PUT .../notes/:note_id` (the sync wrote the note, so it may edit it). */
    async editComment(iid: number, id: number, body: string): Promise<void> {
      await client.notes.update(project, iid, id, { body })
    },
    /** `DELETE .../notes/:note_id`. */
    async deleteComment(iid: number, id: number): Promise<void> {
      await client.notes.remove(project, iid, id)
    },
  }
}
export type GitLabSide = ReturnType<typeof gitlabSide>
