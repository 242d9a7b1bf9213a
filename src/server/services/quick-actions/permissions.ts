import { canAdminIssues, canUpdateIssue } from '../issues/lookup.js'
import type { QuickActionContext } from './definition.js'

/*
 * The abilities the command conditions ask for (`app/policies/issue_policy.rb`), mapped onto
 * this server's rules as the issue API applies them: `update_issue`, `admin_issue`, and
 * `set_issue_metadata` = `set_confidentiality` (Planner and up). Chosen: GitLab also lets Guest
 * members set metadata on an issue they create; this server's create keeps that to Planners,
 * and the commands follow it, so the effect is always that of the API call.
 */

/** `update_issue` on an issue that exists. */
export const canUpdate = (ctx: QuickActionContext) =>
  ctx.issue !== null && canUpdateIssue(ctx.deps, ctx.actor, ctx.project, ctx.issue)

/** `admin_issue`. */
export const canAdmin = (ctx: QuickActionContext) => canAdminIssues(ctx.deps, ctx.actor, ctx.project)

/** `set_issue_metadata`. */
export const canSetMetadata = canAdmin
