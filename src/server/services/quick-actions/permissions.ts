import { canAdminIssues, canUpdateIssue } from '../issue-lookup.js'
import type { QuickActionContext } from './definition.js'

/*
 * The abilities the command conditions ask for, mapped onto this server's rules as the issue
 * API applies them: `update_issue`, `admin_issue`, and `set_issue_metadata` (Planner and up,
 * the same rule the API uses for labels, assignees, milestones and due dates).
 */

/** `update_issue` on an issue that exists. */
export const canUpdate = (ctx: QuickActionContext) =>
  ctx.issue !== null && canUpdateIssue(ctx.deps, ctx.actor, ctx.project, ctx.issue)

/** `admin_issue`. */
export const canAdmin = (ctx: QuickActionContext) => canAdminIssues(ctx.deps, ctx.actor, ctx.project)

/** `set_issue_metadata`. */
export const canSetMetadata = canAdmin
