import type { Issue, IssueMove, IssueReorder } from '../../../schema/index.js'
import { forbidden, messageError, notFound } from '../../grape/gitlab-errors.js'
import type { IssueRow } from '../../store/issues.js'
import type { PositionRow } from '../../store/issue-moves.js'
import type { ProjectRow } from '../../store/projects.js'
import { Actor } from '../access.js'
import { isoNow } from '../../domain/clock.js'
import { canAdminIssues, canUpdateIssue, presentIssue, type IssueDeps } from './lookup.js'
import { addSystemNote } from '../system-notes.js'

const GAP = 1024
/** Issue types GitLab can move (`supports_move_and_clone?`). */
export const MOVABLE = new Set(['issue', 'incident'])
const rootOf = (p: ProjectRow) => (p.full_path.split('/')[0] as string).toLowerCase()
const unprocessable = () => messageError(422, { error: 'Unprocessable Entity' })
const namespaceOf = (p: ProjectRow) =>
  p.full_path.slice(0, p.full_path.length - p.path.length - 1).toLowerCase()

/** `to_reference(from)`: `#1` in the same project, `path#1` in the same namespace, else the full path. */
export const issueReference = (issue: { iid: number }, of: ProjectRow, from: ProjectRow) =>
  of.id === from.id
    ? `#${issue.iid}`
    : namespaceOf(of) === namespaceOf(from)
      ? `${of.path}#${issue.iid}`
      : `${of.full_path}#${issue.iid}`

/** Reorder and move (`lib/api/issues.rb`). */
export function issueMoveService(deps: IssueDeps) {
  const { store, access } = deps.ctx

  /** A position strictly between `lo` and `hi`, or null when there is no room left. */
  const between = (lo: number, hi: number) => (hi - lo >= 2 ? Math.floor((lo + hi) / 2) : null)

  function place(order: PositionRow[], before: PositionRow | null, after: PositionRow | null): number | null {
    if (order.some((r) => r.relative_position === null)) return null
    const pos = (r: PositionRow) => r.relative_position as number
    if (before && after) {
      const [lo, hi] = [pos(before), pos(after)].sort((a, b) => a - b) as [number, number]
      return between(lo, hi)
    }
    if (before) {
      const next = order.find((r) => pos(r) > pos(before))
      return between(pos(before), next ? pos(next) : pos(before) + 2 * GAP)
    }
    const prev = [...order].reverse().find((r) => pos(r) < pos(after as PositionRow))
    return between(prev ? pos(prev) : pos(after as PositionRow) - 2 * GAP, pos(after as PositionRow))
  }

  return {
    /**
     * `PUT .../reorder` (`app/services/issues/reorder_service.rb`): `move_before_id` ends up above the issue,
     * `move_after_id` below it, in the relative order of the root namespace. 404 `Issue Not Found`, 403
     * without `update_issue`, 422 `{"error":"Unprocessable Entity"}` when no given id names an issue of
     * that root namespace. Positions are respread (gaps of 1024) when two neighbours touch.
     */
    reorder(actor: Actor, project: ProjectRow, iid: number, input: IssueReorder): Issue {
      const row = store.issues.byIid(project.id, iid)
      if (!row) throw notFound('Issue')
      if (!canUpdateIssue(deps, actor, project, row)) throw forbidden()
      const wanted = [input.move_before_id, input.move_after_id].map((id) => (id && id > 0 ? id : null))
      if (wanted.every((id) => id === null)) throw unprocessable()
      const scope = store.projects
        .all()
        .filter((p) => rootOf(p) === rootOf(project))
        .map((p) => p.id)
      return store.transaction(() => {
        let order = store.issueMoves.positionsIn(scope).filter((r) => r.id !== row.id)
        const find = (id: number | null) =>
          id === null ? null : (order.find((r) => r.id === id) ?? undefined)
        if (wanted.some((id) => id !== null && find(id) === undefined)) throw unprocessable()
        let position = place(order, find(wanted[0] ?? null) ?? null, find(wanted[1] ?? null) ?? null)
        if (position === null) {
          order.forEach((r, n) => store.issueMoves.setPosition(r.id, (n + 1) * GAP))
          order = store.issueMoves.positionsIn(scope).filter((r) => r.id !== row.id)
          position = place(order, find(wanted[0] ?? null) ?? null, find(wanted[1] ?? null) ?? null) as number
        }
        store.issueMoves.setPosition(row.id, position)
        return presentIssue(deps, actor, store.issues.get(row.id) as IssueRow)
      })
    },

    /**
     * `POST .../move` (`app/services/issues/move_service.rb`): a new issue in the target project (next iid
     * there, labels and milestone matched by title, notes, award emoji, subscriptions and time logs copied),
     * the original closed with `moved_to_id`. 400 texts in GitLab's order: type, permissions, same project. A
     * target the caller cannot see is "insufficient permissions", as GitLab's
     * `Project.find_by(id:)` does; only a missing one is 404 `Project Not Found`.
     */
    move(actor: Actor, project: ProjectRow, iid: number, input: IssueMove): Issue {
      const row = deps.issues.findIssue(actor, project, iid)
      const target = store.projects.get(input.to_project_id)
      if (!target) throw notFound('Project')
      if (!MOVABLE.has(row.issue_type))
        throw messageError(400, `Cannot move issues of '${row.issue_type}' type.`)
      if (
        row.moved_to_id !== null ||
        !canAdminIssues(deps, actor, project) ||
        !access.canReadProject(actor, target) ||
        !canAdminIssues(deps, actor, target)
      )
        throw messageError(400, 'Cannot move issue due to insufficient permissions!')
      if (target.id === project.id)
        throw messageError(400, 'Cannot move issue to project it originates from!')
      const now = isoNow(deps.ctx.clock)
      return store.transaction(() => {
        const milestone = row.milestone_id === null ? undefined : store.milestones.get(row.milestone_id)
        const sameRoot = rootOf(project) === rootOf(target)
        const newIid = store.issues.nextIid(target.id)
        const id = store.issues.insert({
          ...row,
          iid: newIid,
          project_id: target.id,
          milestone_id: milestone
            ? (store.milestones.availableByTitle(target, milestone.title)?.id ?? null)
            : null,
          relative_position: sameRoot
            ? row.relative_position
            : (store.issues.maxPosition(target.id) ?? 0) + GAP,
          user_agent: null,
          ip_address: null,
        })
        const titles = store.labels.ofIssues([row.id]).map((l) => l.title)
        store.issues.setLabels(
          id,
          titles
            .map((t) => store.labels.availableByTitle(target, t)?.id)
            .filter((x): x is number => x !== undefined),
        )
        const assignees = store.issues
          .assigneesOf([row.id])
          .map((a) => a.user_id)
          .filter((uid) => {
            const user = store.users.get(uid)
            return user !== undefined && access.canReadProject(new Actor(user), target)
          })
        store.issues.setAssignees(id, assignees)
        store.issueMoves.copyChildren(row.id, id)
        store.issueLinks.moveTo(row.id, id)
        const note = (issueId: number, body: string) =>
          addSystemNote(store, issueId, actor.id as number, body, now)
        note(id, `moved from ${issueReference(row, project, target)}`)
        note(row.id, `moved to ${issueReference({ iid: newIid }, target, project)}`)
        store.issues.update(row.id, {
          moved_to_id: id,
          updated_at: now,
          ...(row.state === 'opened' ? { state: 'closed', closed_at: now, closed_by_id: actor.id } : {}),
        })
        if (row.state === 'opened') store.resourceEvents.record(row.id, actor.id, { state: 'closed' }, now)
        store.projects.touch(project.id, now)
        store.projects.touch(target.id, now)
        return presentIssue(deps, actor, store.issues.get(id) as IssueRow, project.id)
      })
    },
  }
}
export type IssueMoveService = ReturnType<typeof issueMoveService>
