import type { IssueBasic, IssueLink, IssueLinkCreate, RelatedIssue } from '../../../schema/index.js'
import { isoNow } from '../../domain/clock.js'
import { messageError, paramError, recordNotFound } from '../../grape/gitlab-errors.js'
import { rubyToI } from '../../grape/params.js'
import type { Store } from '../../store/index.js'
import type { IssueLinkRow } from '../../store/issue-links.js'
import type { IssueRow } from '../../store/issues.js'
import type { ProjectRow } from '../../store/projects.js'
import { Level, type Actor } from '../access.js'
import { addSystemNote } from '../system-notes.js'
import { issueReference } from './moves.js'
import { requireUser, type IssueDeps } from './lookup.js'
import { presentIssueBatch } from './records.js'

/** `IssuableLink::MAX_LINKS_COUNT`: links an issue may have. */
const MAX_LINKS = 100

/** An issue with its project, as the link rules and notes read them. */
interface Side {
  row: IssueRow
  project: ProjectRow
}

/**
 * Stores a link from `source` to `target` and writes the system notes GitLab writes on both
 * (`IssuableLinks::CreateService#create_notes`; EE's `block_issuable`/`blocked_by_issuable` for
 * `blocks`): "marked this issue as related to #2", "marked this issue as blocking #2" and
 * "marked this issue as blocked by #1". Inside the caller's transaction.
 */
export function writeIssueLink(
  store: Store,
  authorId: number,
  source: Side,
  target: Side,
  linkType: IssueLinkRow['link_type'],
  now: string,
): number {
  const id = store.issueLinks.insert({
    source_id: source.row.id,
    target_id: target.row.id,
    link_type: linkType,
    created_at: now,
    updated_at: now,
  })
  const ref = (of: Side, from: Side) => issueReference(of.row, of.project, from.project)
  const [forSource, forTarget] =
    linkType === 'blocks'
      ? ['marked this issue as blocking', 'marked this issue as blocked by']
      : ['marked this issue as related to', 'marked this issue as related to']
  addSystemNote(store, source.row.id, authorId, `${forSource} ${ref(target, source)}`, now)
  addSystemNote(store, target.row.id, authorId, `${forTarget} ${ref(source, target)}`, now)
  return id
}

/**
 * Issue links (`lib/api/issue_links.rb`, `IssueLinks::CreateService`, `IssuableLinks::DestroyService`):
 * every call authenticates first (401); issues are found as `find_project_issue` finds them
 * (`404 Project Not Found`, then `404 Not found`).
 */
export function issueLinkService(deps: IssueDeps) {
  const { store, access, instance } = deps.ctx
  const ee = instance.edition === 'ee'

  /** The issue `iid` of `project` when the caller may read both (`find_project_issue`). */
  const find = (actor: Actor, project: ProjectRow, iid: number): Side => ({
    row: deps.issues.findIssue(actor, project, iid),
    project,
  })

  const sideOf = (issueId: number): Side | undefined => {
    const row = store.issues.get(issueId)
    const project = row && store.projects.get(row.project_id)
    return row && project ? { row, project } : undefined
  }

  /**
   * A link's write in one transaction, told to the caches as a write to both issues, in their one
   * project or in both (the blocker's `blocking_issues_count`; the system notes count in no
   * `user_notes_count` and no list filters or orders by links).
   */
  const linkWrite = <T>(a: Side, b: Side, fn: () => T): T =>
    store.changes.issueWrite(
      {
        projectId: a.project.id,
        ...(a.project.id === b.project.id ? {} : { otherProjectIds: [b.project.id] }),
        issues: [a.row.id, b.row.id],
        onlyColumns: [],
      },
      () => store.transaction(fn),
    )

  const readable = (actor: Actor, side: Side) =>
    access.canReadProject(actor, side.project) && deps.issues.canReadIssue(actor, side.project, side.row)

  /**
   * `admin_issue_link` on an issue: who may read it and has at least the Guest role in its project
   * (GitLab's message: "You must have at least the Guest role in both projects"), or an administrator.
   */
  const canAdminLink = (actor: Actor, side: Side) =>
    readable(actor, side) && access.atLeast(actor, side.project, Level.guest)

  /**
   * Issue records (without `subscribed`, as lists show them) of `rows`, `references.relative` to
   * the project the call names; `closed_as_duplicate_of` only where the caller may read it.
   */
  const records = (actor: Actor, from: ProjectRow, rows: IssueRow[]) =>
    presentIssueBatch(deps.ctx, rows, {
      userId: actor.id,
      withSubscribed: false,
      withLabelDetails: false,
      from: { project: from.id },
      canReadEpic: (epic) => deps.issues.canReadEpic(actor, epic),
      canReadIssue: (row) => {
        const p = store.projects.get(row.project_id)
        return p !== undefined && readable(actor, { row, project: p })
      },
    })

  const presentLink = (actor: Actor, from: ProjectRow, link: IssueLinkRow): IssueLink => {
    const source = store.issues.get(link.source_id) as IssueRow
    const target = store.issues.get(link.target_id) as IssueRow
    const [s, t] = records(actor, from, [source, target]) as IssueBasic[] as [IssueBasic, IssueBasic]
    return { source_issue: s, target_issue: t, link_type: link.link_type }
  }

  /**
   * The link `rawId` of the issue, then its target found for the caller as the API finds it
   * (`IssueLink.for_source_or_target(issue).find`, then `find_project_issue` on the target).
   */
  const findLink = (actor: Actor, project: ProjectRow, iid: number, rawId: string): IssueLinkRow => {
    requireUser(actor)
    const issue = find(actor, project, iid)
    const link = store.issueLinks.get(rubyToI(rawId))
    if (!link || (link.source_id !== issue.row.id && link.target_id !== issue.row.id)) throw recordNotFound()
    const target = sideOf(link.target_id)
    if (!target) throw recordNotFound()
    find(actor, access.project(actor, String(target.project.id)), target.row.iid)
    return link
  }

  return {
    /**
     * `GET .../links`: the issues linked either way that the caller may read, oldest link first, as
     * `Entities::RelatedIssue`; a `blocks` link reads `is_blocked_by` from its target.
     */
    list(actor: Actor, project: ProjectRow, iid: number): RelatedIssue[] {
      requireUser(actor)
      const issue = find(actor, project, iid)
      const shown: { link: IssueLinkRow; other: Side }[] = []
      for (const link of store.issueLinks.ofIssue(issue.row.id)) {
        const other = sideOf(link.source_id === issue.row.id ? link.target_id : link.source_id)
        if (other && readable(actor, other)) shown.push({ link, other })
      }
      const issues = records(
        actor,
        project,
        shown.map((s) => s.other.row),
      )
      return shown.map(({ link }, i) => ({
        ...issues[i]!,
        issue_link_id: link.id,
        link_type:
          link.link_type === 'blocks' && link.target_id === issue.row.id ? 'is_blocked_by' : link.link_type,
        link_created_at: link.created_at,
        link_updated_at: link.updated_at,
      }))
    },

    /**
     * `POST .../links`: `blocks`/`is_blocked_by` are 400 `link_type does not have a valid value` on
     * CE (Grape's `values:`, before anything is looked up); then the two issues; 409 `Issue(s) already
     * assigned` when they are linked either way; 403 when the caller may read the target but not link
     * it; 422 for a link to itself or past 100 links (`IssuableLink` validations). An `is_blocked_by`
     * link is stored, and answered, as `blocks` from the target (EE's `set_link_type`).
     */
    create(actor: Actor, project: ProjectRow, iid: number, input: IssueLinkCreate): IssueLink {
      const user = requireUser(actor)
      const type = input.link_type ?? 'relates_to'
      if (!ee && type !== 'relates_to') throw paramError('link_type does not have a valid value')
      const source = find(actor, project, iid)
      const target = find(
        actor,
        access.project(actor, input.target_project_id),
        rubyToI(input.target_issue_iid),
      )
      if (store.issueLinks.between(source.row.id, target.row.id))
        throw messageError(409, 'Issue(s) already assigned')
      if (!canAdminLink(actor, target))
        throw messageError(
          403,
          "Couldn't link issues. You must have at least the Guest role in both projects.",
        )
      const errors: string[] = []
      if (source.row.id === target.row.id) errors.push('cannot be related to itself')
      const full = 'This issue would exceed the maximum number of linked issues (100).'
      if (store.issueLinks.count(source.row.id) >= MAX_LINKS) errors.push(full)
      if (store.issueLinks.count(target.row.id) >= MAX_LINKS) errors.push(full)
      if (errors.length > 0) {
        const words =
          errors.length === 1 ? errors[0] : `${errors.slice(0, -1).join(', ')} and ${errors.at(-1)}`
        throw messageError(
          422,
          `${issueReference(target.row, target.project, source.project)} cannot be added: ${words}`,
        )
      }
      const [from, to] = type === 'is_blocked_by' ? [target, source] : [source, target]
      const now = isoNow(deps.ctx.clock)
      const id = linkWrite(from, to, () =>
        writeIssueLink(store, user.id, from, to, type === 'relates_to' ? 'relates_to' : 'blocks', now),
      )
      return presentLink(actor, project, store.issueLinks.get(id) as IssueLinkRow)
    },

    /** `GET .../links/:issue_link_id`: 404 `404 Not found` for a link of another issue or none. */
    get(actor: Actor, project: ProjectRow, iid: number, rawId: string): IssueLink {
      return presentLink(actor, project, findLink(actor, project, iid, rawId))
    },

    /**
     * `DELETE .../links/:issue_link_id`: 404 `No Issue Link found` unless the caller may link both
     * issues; the link goes and both issues note "removed the relation with #2" (200, the link).
     */
    remove(actor: Actor, project: ProjectRow, iid: number, rawId: string): IssueLink {
      const user = requireUser(actor)
      const link = findLink(actor, project, iid, rawId)
      const source = sideOf(link.source_id) as Side
      const target = sideOf(link.target_id) as Side
      if (!canAdminLink(actor, source) || !canAdminLink(actor, target))
        throw messageError(404, 'No Issue Link found')
      const answer = presentLink(actor, project, link)
      const now = isoNow(deps.ctx.clock)
      linkWrite(source, target, () => {
        store.issueLinks.remove(link.id)
        const note = (on: Side, other: Side) =>
          addSystemNote(
            store,
            on.row.id,
            user.id,
            `removed the relation with ${issueReference(other.row, other.project, on.project)}`,
            now,
          )
        note(source, target)
        note(target, source)
      })
      return answer
    },
  }
}
export type IssueLinkService = ReturnType<typeof issueLinkService>
