import { GitLabApiError, type GitLabClient } from '../../api/client.js'
import { readArchiveContents } from './archive-contents.js'

/** One row of the comparison: what the archive holds, what the project holds, and what differs. */
export interface VerifyRow {
  what: 'issues' | 'notes' | 'labels' | 'milestones' | 'merge requests' | 'members'
  archive: number
  project: number | undefined
  /** In the archive, not in the project (an iid with another title counts here too). */
  missing: string[]
  /** In the project, not in the archive (counted only for issues and merge requests, keyed by iid). */
  extra: string[]
  /** Why the row was not compared (e.g. no merge request list on this server). */
  unchecked?: string
}

export interface VerifyReport {
  rows: VerifyRow[]
  /** Rows that differ (missing or extra items, or a count that is off). */
  differences: number
}

/** A row differs by what is missing or extra; the notes row, which lists nothing, by its counts. */
export const differs = (r: VerifyRow) =>
  r.unchecked === undefined &&
  (r.what === 'notes' ? r.archive !== r.project : r.missing.length > 0 || r.extra.length > 0)

/** Items keyed by iid: those missing (or retitled) and those extra, as `#iid title`. */
function byIid(archive: Map<number, string>, project: Map<number, string>) {
  const missing: string[] = []
  for (const [iid, title] of archive) if (project.get(iid) !== title) missing.push(`#${iid} ${title}`)
  const extra = [...project].filter(([iid]) => !archive.has(iid)).map(([iid, title]) => `#${iid} ${title}`)
  return { missing, extra }
}
const missingFrom = (archive: Set<string>, project: Set<string>) =>
  [...archive].filter((x) => !project.has(x))

/**
 * `verify`: the archive read again as a stream (readArchiveContents) and compared with what the
 * imported `project` holds through the API, page by page: issues by iid and title, their notes
 * people wrote (the archive's non-system notes against the sum of `user_notes_count`), labels,
 * milestones and members by title or username (the project may hold more of these: its groups'
 * labels, milestones made for its issues, the importer as a member), merge requests by iid and title.
 * A server without a merge request list (this project's reference server) leaves that row unchecked.
 */
export async function verifyImport(
  gitlab: GitLabClient,
  archive: string,
  project: number | string,
  signal?: AbortSignal,
): Promise<VerifyReport> {
  const a = await readArchiveContents(archive)
  const issues = new Map<number, string>()
  let notes = 0
  for await (const i of gitlab.issues.list(project, {}, { signal })) {
    issues.set(i.iid, i.title)
    notes += i.user_notes_count
  }
  const labels = new Set<string>()
  for await (const l of gitlab.labels.list(project, { signal })) labels.add(l.name)
  const milestones = new Set<string>()
  for await (const m of gitlab.milestones.list(project, { signal })) milestones.add(m.title)
  const members = new Set<string>()
  for await (const m of gitlab.projectMembers.listAll(project, { signal })) members.add(m.username)
  const mrs = new Map<number, string>()
  let mrsUnchecked: string | undefined
  try {
    for await (const m of gitlab.paginate<{ iid: number; title: string }>(
      `/projects/${encodeURIComponent(String(project))}/merge_requests`,
      { signal, query: { state: 'all' } },
    ))
      mrs.set(m.iid, m.title)
  } catch (err) {
    if (!(err instanceof GitLabApiError) || err.status !== 404) throw err
    mrsUnchecked = 'this GitLab lists no merge requests (404)'
  }
  const rows: VerifyRow[] = [
    { what: 'issues', archive: a.issues.size, project: issues.size, ...byIid(a.issues, issues) },
    { what: 'notes', archive: a.notes, project: notes, missing: [], extra: [] },
    {
      what: 'labels',
      archive: a.labels.size,
      project: labels.size,
      missing: missingFrom(a.labels, labels),
      extra: [],
    },
    {
      what: 'milestones',
      archive: a.milestones.size,
      project: milestones.size,
      missing: missingFrom(a.milestones, milestones),
      extra: [],
    },
    mrsUnchecked === undefined
      ? {
          what: 'merge requests',
          archive: a.mergeRequests.size,
          project: mrs.size,
          ...byIid(a.mergeRequests, mrs),
        }
      : {
          what: 'merge requests',
          archive: a.mergeRequests.size,
          project: undefined,
          missing: [],
          extra: [],
          unchecked: mrsUnchecked,
        },
    {
      what: 'members',
      archive: a.members.size,
      project: members.size,
      missing: missingFrom(a.members, members),
      extra: [],
    },
  ]
  return { rows, differences: rows.filter(differs).length }
}
