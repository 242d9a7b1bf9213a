import type { Issue, IssueUpdate } from '../../../schema/index.js'
import { unauthorized } from '../../grape/gitlab-errors.js'
import type { EpicRow } from '../../store/epics.js'
import type { IssueAccessRow, IssueRow } from '../../store/issues.js'
import type { ProjectRow } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { Level, writable, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { presentIssueBatch } from './records.js'

/**
 * What the sub-resource services use of the issue service (issues.ts). Declared here, not imported:
 * issues.ts runs the quick actions, which use these helpers.
 */
export interface IssueAccess {
  findIssue(actor: Actor, project: ProjectRow, iid: number): IssueRow
  /** As `findIssue`, with only the columns of `IssueAccessRow`. */
  findReadable(actor: Actor, project: ProjectRow, iid: number): IssueAccessRow
  canReadIssue(actor: Actor, project: ProjectRow, row: IssueAccessRow): boolean
  canReadEpic(actor: Actor, epic: EpicRow): boolean
  update(actor: Actor, project: ProjectRow, iid: number, input: IssueUpdate): Issue
}

/** What the issue sub-resource services share: the service context and the issue service. */
export interface IssueDeps {
  ctx: ServiceContext
  issues: IssueAccess
}

/** The caller's user; 401 `401 Unauthorized` for anonymous callers. */
export function requireUser(actor: Actor): UserRow {
  if (!actor.user) throw unauthorized()
  return actor.user
}

/**
 * GitLab's `admin_issue`: Planner, Reporter and up, and administrators (`app/policies/issue_policy.rb`), in a
 * project not archived.
 */
export const canAdminIssues = (deps: IssueDeps, actor: Actor, project: ProjectRow) =>
  writable(project) && deps.ctx.access.atLeast(actor, project, Level.planner)

/** GitLab's `read_internal_note`: Planner, Reporter and up, and administrators (`app/policies/project_policy.rb`). */
export const canReadInternalNotes = (deps: IssueDeps, actor: Actor, project: ProjectRow) =>
  deps.ctx.access.atLeast(actor, project, Level.planner)

/**
 * GitLab's `update_issue`: `admin_issue`, or the author of a readable issue (`app/policies/issue_policy.rb`), in a
 * project not archived.
 */
export const canUpdateIssue = (deps: IssueDeps, actor: Actor, project: ProjectRow, row: IssueRow) =>
  writable(project) &&
  deps.issues.canReadIssue(actor, project, row) &&
  (canAdminIssues(deps, actor, project) || (actor.id !== null && row.author_id === actor.id))

/** The single-issue record (with `subscribed`), `references.relative` relative to `fromProject`. */
export function presentIssue(
  deps: IssueDeps,
  actor: Actor,
  row: IssueRow,
  fromProject = row.project_id,
): Issue {
  const [issue] = presentIssueBatch(deps.ctx, [row], {
    userId: actor.id,
    withSubscribed: true,
    withLabelDetails: false,
    from: { project: fromProject },
    canReadEpic: (epic) => deps.issues.canReadEpic(actor, epic),
    canReadIssue: (canonical) => {
      const project = deps.ctx.store.projects.get(canonical.project_id)
      return (
        project !== undefined &&
        deps.ctx.access.canReadProject(actor, project) &&
        deps.issues.canReadIssue(actor, project, canonical)
      )
    },
  })
  return issue as Issue
}
