import type { SpentTimeInput, TimeEstimateInput, TimeStats } from '../../schema/index.js'
import { badRequest, forbidden, validationError } from '../grape/gitlab-errors.js'
import { formatDuration, parseDuration } from '../domain/chronic-duration.js'
import type { IssueRow } from '../store/issues.js'
import type { ProjectRow } from '../store/projects.js'
import type { Actor } from './access.js'
import { isoNow, today } from '../domain/clock.js'
import { canAdminIssues, requireUser, type IssueDeps } from './issues/lookup.js'
import { addSystemNote, systemNoteBody } from './system-notes.js'

/** GitLab stores seconds in 32-bit integer columns. */
const MAX_INT = 2_147_483_647
/** `Timelog`: the total may not pass four 365.25-day years (`app/models/timelog.rb`). */
const MAX_TOTAL = 4 * 31_557_600
const MAX_SUMMARY = 255

/**
 * What an estimate and a timelog change of the issue's row (besides a system note and the timelog):
 * lists that neither filter nor order by them need not look for the issue moving.
 */
const ESTIMATE_COLUMNS = ['time_estimate', 'updated_at'] as const
const SPENT_COLUMNS = ['total_time_spent', 'updated_at'] as const

const human = (seconds: number) => (seconds === 0 ? null : formatDuration(seconds))

/** GitLab's doc/api/issues.md: the time stats of an issue row. */
export const timeStatsOf = (row: Pick<IssueRow, 'time_estimate' | 'total_time_spent'>): TimeStats => ({
  time_estimate: row.time_estimate,
  total_time_spent: row.total_time_spent,
  human_time_estimate: human(row.time_estimate),
  human_total_time_spent: human(row.total_time_spent),
})

/**
 * Time tracking on issues (`lib/api/time_tracking_endpoints.rb`); every change needs `admin_issue` (403
 * otherwise).
 */
export function timeTrackingService(deps: IssueDeps) {
  const { store } = deps.ctx

  /** The issue, readable (404) and administrable (403) by a signed-in caller. */
  const writable = (actor: Actor, project: ProjectRow, iid: number) => {
    requireUser(actor)
    const row = deps.issues.findIssue(actor, project, iid)
    if (!canAdminIssues(deps, actor, project)) throw forbidden()
    return row
  }
  /** Writes the new time columns (inside the caller's transaction) and answers with them. */
  const save = (
    row: IssueRow,
    changes: Pick<IssueRow, 'time_estimate'> | Pick<IssueRow, 'total_time_spent'>,
  ) => {
    store.issues.update(row.id, { ...changes, updated_at: isoNow(deps.ctx.clock) })
    return timeStatsOf({ ...row, ...changes })
  }
  /** A new estimate with GitLab's system note; an unchanged one changes nothing (no note, same `updated_at`). */
  const estimate = (actor: Actor, row: IssueRow, seconds: number) => {
    if (seconds === row.time_estimate) return timeStatsOf(row)
    const written = { projectId: row.project_id, issues: [row.id], onlyColumns: ESTIMATE_COLUMNS }
    return store.changes.issueWrite(written, () =>
      store.transaction(() => {
        addSystemNote(
          store,
          row.id,
          actor.id as number,
          systemNoteBody.timeEstimate(seconds),
          isoNow(deps.ctx.clock),
        )
        return save(row, { time_estimate: seconds })
      }),
    )
  }

  return {
    /** `GET .../time_stats`: anyone who can read the issue. */
    stats(actor: Actor, project: ProjectRow, iid: number): TimeStats {
      return timeStatsOf(deps.issues.findReadable(actor, project, iid))
    },

    /**
     * `POST .../time_estimate`: 0 is allowed; a negative or unreadable duration is GitLab's 400
     * `400 Bad request - {:reason=>"Time estimate must have ..."}` (`lib/api/time_tracking_endpoints.rb`,
     * Ruby 3.3 inspect). Chosen: an estimate past 2^31-1 seconds, which GitLab's column cannot hold, is
     * refused the same way.
     */
    setEstimate(actor: Actor, project: ProjectRow, iid: number, input: TimeEstimateInput): TimeStats {
      const row = writable(actor, project, iid)
      const parsed = parseDuration(input.duration, { keepZero: true })
      const seconds = parsed === null ? null : Math.trunc(parsed)
      if (seconds === null || seconds < 0 || seconds > MAX_INT)
        throw badRequest(
          '{:reason=>"Time estimate must have a valid format and be greater than or equal to zero."}',
        )
      return estimate(actor, row, seconds)
    },

    resetEstimate(actor: Actor, project: ProjectRow, iid: number): TimeStats {
      return estimate(actor, writable(actor, project, iid), 0)
    },

    /**
     * `POST .../add_spent_time`: adds a timelog (negative subtracts). Errors as GitLab's model
     * validation renders them: `{"base":["Time to subtract exceeds the total time spent"]}`; an
     * unreadable or zero duration, or a summary over 255 characters, makes the timelog invalid
     * (`{"timelogs":["is invalid"]}`, `app/models/timelog.rb`). Chosen: a total past four years is
     * `{"base":["Total time spent cannot exceed 4 years."]}`.
     */
    addSpent(actor: Actor, project: ProjectRow, iid: number, input: SpentTimeInput): TimeStats {
      const row = writable(actor, project, iid)
      const parsed = parseDuration(input.duration)
      const seconds = parsed === null ? 0 : Math.trunc(parsed)
      if (seconds === 0 || [...(input.summary ?? '')].length > MAX_SUMMARY)
        throw validationError({ timelogs: ['is invalid'] })
      return this.spend(actor, row, seconds, input.summary ?? null)
    },

    /**
     * A timelog of `seconds` on a writable issue, checked as GitLab's `Timelog` validates it;
     * `spentAt` (ISO) dates it, as `/spend 1h 2024-01-31` does, and its day is named in the system
     * note unless it is today (`SystemNotes::TimeTrackingService#change_time_spent`).
     */
    spend(actor: Actor, row: IssueRow, seconds: number, summary: string | null, spentAt?: string): TimeStats {
      if (seconds < 0 && -seconds > row.total_time_spent)
        throw validationError({ base: ['Time to subtract exceeds the total time spent'] })
      if (row.total_time_spent + seconds > MAX_TOTAL)
        throw validationError({ base: ['Total time spent cannot exceed 4 years.'] })
      const day = spentAt?.slice(0, 10)
      const dated = day !== undefined && day !== today(deps.ctx.clock)
      const note = `${systemNoteBody.timeSpent(seconds)}${dated ? ` at ${day}` : ''}`
      return this.log(actor, row, seconds, summary, note, spentAt)
    },

    /** A new estimate (no change, no note) for a caller already allowed to set it. */
    estimate(actor: Actor, row: IssueRow, seconds: number): TimeStats {
      return estimate(actor, row, seconds)
    },

    /** `POST .../reset_spent_time`: a negative timelog of the whole total (none when it is 0). */
    resetSpent(actor: Actor, project: ProjectRow, iid: number): TimeStats {
      const row = writable(actor, project, iid)
      if (row.total_time_spent === 0) return timeStatsOf(row)
      return this.log(actor, row, -row.total_time_spent, null, systemNoteBody.timeSpent('reset'))
    },

    /** Records a timelog, moves the issue's total with it, and leaves GitLab's system note `note`. */
    log(
      actor: Actor,
      row: IssueRow,
      seconds: number,
      summary: string | null,
      note: string,
      spentAt?: string,
    ): TimeStats {
      const now = isoNow(deps.ctx.clock)
      const written = { projectId: row.project_id, issues: [row.id], onlyColumns: SPENT_COLUMNS }
      return store.changes.issueWrite(written, () =>
        store.transaction(() => {
          addSystemNote(store, row.id, actor.id as number, note, now)
          store.timelogs.insert({
            issue_id: row.id,
            user_id: actor.id as number,
            time_spent: seconds,
            summary,
            spent_at: spentAt ?? now,
            created_at: now,
          })
          return save(row, { total_time_spent: row.total_time_spent + seconds })
        }),
      )
    },
  }
}
export type TimeTrackingService = ReturnType<typeof timeTrackingService>
