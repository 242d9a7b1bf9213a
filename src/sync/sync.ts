/*
 * One sync run: read both sides (as little as the APIs allow), plan (pure), apply or only report
 * (dry run). The adapters come in from the caller; nothing here knows the Actions runtime.
 */
import { apply, emptyReport, type Progress, type SideWriter } from './apply.js'
import type { Direction, SideComment, SideIssue, SyncOptions, SyncReport } from './model.js'
import { pairIssues } from './pairs.js'
import { needsComments, plan, type Scope } from './plan.js'
import { carriesScope, pairInScope } from './scope.js'
import { parseMarker } from './text.js'

/** What sync reads and writes on a side (githubSide and gitlabSide satisfy it). */
interface SideBase extends SideWriter {
  identity(): Promise<string | undefined>
  milestones(): Promise<string[]>
  issues(): AsyncIterable<SideIssue>
  issue(number: number): Promise<SideIssue | undefined>
  comments(number: number, issueUrl: string): Promise<SideComment[]>
}
export interface GitHubReader extends SideBase {
  repository(): Promise<{ id: number; full_name: string; html_url: string }>
}
export interface GitLabReader extends SideBase {
  project(): Promise<{ id: number; path: string; web_url: string }>
  knownUsers(usernames: string[]): Promise<string[]>
  search(text: string): Promise<SideIssue[]>
}

export interface SyncSettings {
  direction: Direction
  comments: boolean
  labelMap: Record<string, string>
  labelPrefix: string
  userMap: Record<string, string>
  dryRun: boolean
  /** Mirror confidential GitLab issues and internal notes to GitHub (off: they stay on GitLab). */
  includeConfidential: boolean
  /** Mirror only issues carrying one of these labels (either side's spelling); empty: all. */
  onlyLabels?: string[]
  /** Event mode: only this GitHub issue (from GITHUB_EVENT_PATH); undefined: every issue. */
  only?: number
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** Event mode: the GitHub issue and whatever GitLab issue can be its twin (never fewer: no duplicates). */
async function readOne(
  github: GitHubReader,
  gitlab: GitLabReader,
  number: number,
  places: SyncOptions['places'],
) {
  const issue = await github.issue(number)
  if (!issue) return { github: [], gitlab: [] }
  const m = parseMarker(issue.body)
  if (m?.from === 'gitlab' && Number(m.project_id) === places.gitlab.id && m.number) {
    const twin = await gitlab.issue(Number(m.number))
    return { github: [issue], gitlab: twin ? [twin] : [] }
  }
  const claims = (i: SideIssue) => {
    const c = parseMarker(i.body)
    return c?.from === 'github' && c.number === String(number) && Number(c.repo_id) === places.github.id
  }
  const found = (await gitlab.search(`repo_id=${places.github.id} number=${number} `)).filter(claims)
  // Search is an optimisation only: when it finds nothing, read every issue rather than risk a duplicate.
  return { github: [issue], gitlab: found.length > 0 ? found : await all(gitlab.issues()) }
}

/**
 * Runs one sync and reports it. Throws only when a side cannot be read at all (bad token, missing
 * repository or project); a failing write is in the report's `failed`.
 */
export async function syncIssues(
  github: GitHubReader,
  gitlab: GitLabReader,
  settings: SyncSettings,
  progress: Progress = () => undefined,
): Promise<SyncReport> {
  const [repo, project, ghMe, glMe] = await Promise.all([
    github.repository(),
    gitlab.project(),
    github.identity(),
    gitlab.identity(),
  ])
  const places = {
    github: { repo: repo.full_name, id: repo.id },
    gitlab: { project: project.path, id: project.id },
  }
  const read =
    settings.only === undefined
      ? { github: await all(github.issues()), gitlab: await all(gitlab.issues()) }
      : await readOne(github, gitlab, settings.only, places)
  progress(`read ${read.github.length} GitHub and ${read.gitlab.length} GitLab issues`)
  const every = [...read.github, ...read.gitlab]
  const hasMilestone = every.some((i) => i.milestone !== null)
  const wanted = [
    ...new Set(read.github.flatMap((i) => i.assignees).flatMap((u) => settings.userMap[u] ?? [])),
  ]
  const opts: SyncOptions = {
    ...settings,
    places,
    gitlabUsers: wanted.length ? await gitlab.knownUsers(wanted) : [],
    milestones: hasMilestone
      ? { github: await github.milestones(), gitlab: await gitlab.milestones() }
      : { github: [], gitlab: [] },
    identity: { github: ghMe, gitlab: glMe },
    web: { github: repo.html_url, gitlab: project.web_url },
  }
  // Comments only where counts moved since the marker recorded them (or for a new mirror).
  if (settings.comments) {
    const scope = settings.only === undefined ? undefined : new Set([settings.only])
    const { pairs, unpaired } = pairIssues(read.github, read.gitlab, opts, scope !== undefined)
    const load = async (i: SideIssue, side: SideBase) => {
      i.comments = i.comment_count === 0 ? [] : await side.comments(i.number, i.url)
    }
    for (const p of pairs) {
      if (scope && !scope.has(p.github.number)) continue
      if (!pairInScope(p, opts)) continue
      // Event mode reads its one pair's comments always: an edit moves no count.
      if (!needsComments(p.github, p.gitlab, scope ? undefined : p.marker, opts)) continue
      await load(p.github, github)
      await load(p.gitlab, gitlab)
    }
    for (const i of unpaired)
      if (i.comment_count > 0 && carriesScope(i, opts)) await load(i, i.side === 'github' ? github : gitlab)
  }
  const scope: Scope | undefined = settings.only === undefined ? undefined : { github: [settings.only] }
  const planned = plan(read.github, read.gitlab, opts, scope)
  if (settings.dryRun)
    return emptyReport(
      planned.ops,
      planned.skips,
      planned.unchanged,
      true,
      planned.confidential,
      planned.descoped,
    )
  return apply(
    planned.ops,
    { github, gitlab },
    {
      skipped: planned.skips,
      unchanged: planned.unchanged,
      confidential: planned.confidential,
      descoped: planned.descoped,
    },
    progress,
  )
}
