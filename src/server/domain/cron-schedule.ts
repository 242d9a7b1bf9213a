import { CronExpressionParser } from 'cron-parser'
import { tzinfoIdentifier } from './rails-time-zones.js'

/**
 * The cron of `PipelineScheduleWorker`, GitLab's default (`config/initializers/1_settings.rb`): it runs
 * at minute 3, 13, 23... of each hour (UTC), and a schedule runs at the first of its runs at or after the
 * schedule's own time.
 */
export const SCHEDULE_WORKER_CRON = '3-59/10 * * * *'

/**
 * Fugit's syntax as we support it (GitLab parses `"#{cron} #{cron_timezone}"` with `Fugit::Cron.parse`):
 * five fields (or six, seconds first), numbers, `*`, ranges, steps, lists, month and day names, `L` and
 * `day#n`, or one of `@yearly @annually @monthly @weekly @daily @midnight @hourly`. Anything else (four
 * fields, `W`, `?`, `H`) is refused as GitLab refuses what Fugit cannot read.
 */
const FIELD = /^[0-9A-Za-z*/,#-]+$/
const KEYWORDS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'])

function parse(cron: string, zone: string, from: Date) {
  return CronExpressionParser.parse(cron, { currentDate: from, tz: tzinfoIdentifier(zone), strict: false })
}

/** True when GitLab's `CronValidator` accepts `cron` (stripped, as `strip_attributes! :cron`). */
export function cronValid(cron: string): boolean {
  const text = cron.trim()
  if (KEYWORDS.has(text)) return true
  const fields = text.split(/\s+/)
  if (fields.length < 5 || fields.length > 6) return false
  if (!fields.every((f) => FIELD.test(f) && !/[HW]/.test(f))) return false
  try {
    // A time it can find, too: some lines parse but name none.
    parse(text, 'UTC', new Date(0)).next()
    return true
  } catch {
    return false
  }
}

/**
 * True when `CronTimezoneValidator` accepts the zone: one of ActiveSupport's names (`Pacific Time (US &
 * Canada)`, looked up as `Gitlab::Ci::CronParser#timezone_name` does), or a TZInfo (IANA) identifier as
 * the platform's time zone data knows it, spelt with its case (`Europe/Paris`, `UTC`, `Etc/UTC`).
 * Offsets (`+01:00`) are refused.
 */
export function cronTimezoneValid(name: string): boolean {
  const zone = tzinfoIdentifier(name)
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
    // The same name in another case (`utc`): TZInfo's identifiers are case-sensitive.
    return resolved === zone || resolved.toLowerCase() !== zone.toLowerCase()
  } catch {
    return false
  }
}

/** The first time strictly after `from` that `cron` names in `zone` (`Gitlab::Ci::CronParser#next_time_from`). */
export function nextTimeFrom(cron: string, zone: string, from: Date): Date {
  return parse(cron.trim(), zone, from).next().toDate()
}

/**
 * `next_run_at` of a schedule saved at `now` (`CronSchedulable`'s calculation, which
 * `Ci::PipelineSchedules::CalculateNextRunService` falls back to without a daily plan limit, the default):
 * the schedule's next time when the worker also runs then, else the worker's first run after it.
 */
export function nextRunAt(cron: string, zone: string, now: Date): Date {
  const ideal = nextTimeFrom(cron, zone, now)
  const worker = nextTimeFrom(SCHEDULE_WORKER_CRON, 'UTC', now)
  return ideal.getTime() === worker.getTime() ? ideal : nextTimeFrom(SCHEDULE_WORKER_CRON, 'UTC', ideal)
}
