import type { IssueRow } from '../../store/issues.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import { isoNow } from '../../domain/clock.js'
import { canAdminIssues, type IssueDeps } from '../issues/lookup.js'
import { addSystemNote } from '../system-notes.js'

/* An incident's severity as `/severity` reads and sets it (`app/models/issuable_severity.rb`). */

/** `SEVERITY_QUICK_ACTION_PARAMS` (the words that name each severity) and `SEVERITY_LABELS`. */
const SEVERITIES: Record<string, { params: string[]; label: string }> = {
  unknown: { params: ['unknown', '0'], label: 'Unknown' },
  low: { params: ['low', 's4', '4'], label: 'Low - S4' },
  medium: { params: ['medium', 's3', '3'], label: 'Medium - S3' },
  high: { params: ['high', 's2', '2'], label: 'High - S2' },
  critical: { params: ['critical', 's1', '1'], label: 'Critical - S1' },
}

/** `find_severity`: the severity a parameter names, case-insensitively (`1`, `S1`, `Critical`). */
export const findSeverity = (param: string) =>
  Object.keys(SEVERITIES).find((s) => SEVERITIES[s]?.params.includes(param.toLowerCase()))

/**
 * `IssuableBaseService#filter_severity`: incidents only, `admin_issue` only, and a change only
 * when it differs, noted "changed the severity to **Critical - S1**"
 * (`SystemNotes::IncidentService#change_incident_severity`). Stored upper case, as the API shows it.
 */
export function changeSeverity(
  deps: IssueDeps,
  actor: Actor,
  project: ProjectRow,
  row: IssueRow,
  severity: string,
) {
  const { store } = deps.ctx
  const stored = severity.toUpperCase()
  if (row.issue_type !== 'incident' || row.severity === stored) return
  if (!canAdminIssues(deps, actor, project)) return
  const now = isoNow(deps.ctx.clock)
  store.issues.update(row.id, { severity: stored })
  const label = SEVERITIES[severity]?.label ?? severity
  addSystemNote(store, row.id, actor.id as number, `changed the severity to **${label}**`, now)
}
