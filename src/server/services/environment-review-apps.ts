import type { ReviewAppsDeleteQuery, ReviewAppsDeletion } from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { messageError } from '../grape/gitlab-errors.js'
import { presentEnvironmentBasic } from '../present/environments.js'
import type { ProjectRow } from '../store/projects.js'
import type { ServiceContext } from './context.js'

/** `30.days.ago`, `before`'s default. */
const THIRTY_DAYS_MS = 30 * 86_400_000
/** `Environment.schedule_to_delete`'s `1.week.from_now`. */
const DELETE_AFTER_MS = 7 * 86_400_000
const NOT_ALLOWED = 'You do not have permission to destroy environments in this project'
/**
 * The 400's text as GitLab's releases we found send it. Newer ones say `No environments found for scheduled
 * deletion. ...` (gitlab-org/gitlab#364639); the stored history does not show which release changed it, so
 * it is not gated by release (no RELEASE_RULES entry) until it is known.
 */
const NONE_DELETABLE =
  'Failed to authorize deletions for some or all of the environments. Ask someone with more permissions to delete the environments.'

/** The service's refusal as the API renders it: `render_api_error!` of both lists and the message. */
const refusal = (status: number, message: string) =>
  messageError(status, { scheduled_entries: [], unprocessable_entries: [], message })

/**
 * `DELETE /projects/:id/environments/review_apps` (`Environments::ScheduleToDeleteReviewAppsService`,
 * `lib/api/environments.rb`), once the caller may read the project's environments. Without
 * `destroy_environment` on the project (`mayDestroy`: Developer, never in an archived project) 401 with
 * GitLab's message. The stopped review apps made before `before` (the clock's 30 days ago unless given)
 * and not yet scheduled for deletion, the oldest first, at most `limit`, are `scheduled_entries`; none is
 * a 400 (GitLab asks that some be deletable, and every stopped one is). A dry run (the default) changes
 * nothing. Otherwise their `auto_delete_at` is set a week after the clock's time (`updated_at` stays, as
 * `update_all` leaves it), and the clock move that passes it deletes those still stopped (`deleteDue`).
 *
 * No 409: GitLab takes an exclusive lease per project around the marking (`in_lock`, two minutes, one
 * retry) and answers 409 `Another process is already processing a delete request. Please retry later.`
 * when another request holds it. Here the selection and the marking run in one synchronous call on the
 * event loop, so no other request runs while they do and none can meet a lease held.
 */
export function deleteReviewApps(
  ctx: ServiceContext,
  p: ProjectRow,
  mayDestroy: boolean,
  q: ReviewAppsDeleteQuery,
): ReviewAppsDeletion {
  if (!mayDestroy) throw refusal(401, NOT_ALLOWED)
  const now = ctx.clock.now().getTime()
  const before = q.before === undefined ? now - THIRTY_DAYS_MS : Date.parse(q.before)
  const table = ctx.store.environments
  const rows = table.stoppedReviewApps(p.id, new Date(before).toISOString(), q.limit ?? 100)
  if (rows.length === 0) throw refusal(400, NONE_DELETABLE)
  if (q.dry_run === false) {
    const at = new Date(now + DELETE_AFTER_MS).toISOString()
    ctx.store.transaction(() => rows.forEach((row) => table.scheduleDeletion(row.id, at)))
  }
  return { scheduled_entries: rows.map(presentEnvironmentBasic), unprocessable_entries: [] }
}

/**
 * `Environments::AutoDeleteCronWorker` at the clock's time: every stopped environment whose `auto_delete_at`
 * has passed is deleted (`Environment.auto_deletable`), its deployments with it; one started again since
 * it was scheduled stays while it is available. The number deleted.
 */
export function deleteDueEnvironments(ctx: ServiceContext): number {
  const table = ctx.store.environments
  const due = table.autoDeletable(isoNow(ctx.clock))
  if (due.length > 0) ctx.store.transaction(() => due.forEach((row) => table.remove(row.id)))
  return due.length
}
