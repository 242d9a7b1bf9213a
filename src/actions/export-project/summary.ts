import { formatBytes, formatDuration } from '../connection.js'
import { code, heading, join, para, table } from '../summary.js'
import type { Settings } from './inputs.js'
import type { ExportResult } from './result.js'

/** The job summary of export-project: one row per project. Escaped. */
export function renderSummary(s: Settings, projects: string[], results: ExportResult[]): string {
  if (s.listOnly)
    return join(
      heading(`GitLab export: ${projects.length} project(s) listed`),
      table(
        ['Project'],
        projects.map((p) => [code(p)]),
      ),
    )
  const ok = results.filter((r) => r.status === 'finished').length
  const skipped = results.filter((r) => r.status === 'skipped')
  const tried = results.filter((r) => r.status !== 'skipped')
  const verdict = ok === tried.length && results.length > 0 ? '✅' : '❌'
  return join(
    heading(
      `${verdict} GitLab export: ${ok} of ${tried.length} finished${skipped.length ? `, ${skipped.length} skipped` : ''}`,
    ),
    tried.length > 0 &&
      table(
        ['Project', 'Status', 'Size', 'SHA-256', 'Took', 'Archive or error'],
        tried.map((r) => [
          code(r.project),
          r.status,
          r.size === undefined ? '' : formatBytes(r.size),
          r.sha256 ? code(r.sha256.slice(0, 16)) : '',
          formatDuration(r.elapsedMs),
          r.error ?? (r.uploaded ? `uploaded by GitLab; ${r.uploadCheck}` : r.path ? code(r.path) : ''),
        ]),
      ),
    skipped.length > 0 && heading(`Skipped: ${skipped.length}`, 3),
    skipped.length > 0 &&
      table(
        ['Project', 'Last activity', 'Why'],
        skipped.map((r) => [code(r.project), r.lastActivityAt ?? '', r.reason]),
      ),
    results.some((r) => r.plain) &&
      para('Archives are encrypted with age (.age); the SHA-256 is of the stored file.'),
    s.group !== undefined &&
      para('Group', code(s.group), s.includeSubgroups ? 'with subgroups' : 'without subgroups'),
  )
}
