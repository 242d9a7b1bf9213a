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
  return join(
    heading(
      `${ok === results.length && ok > 0 ? '✅' : '❌'} GitLab export: ${ok} of ${results.length} finished`,
    ),
    table(
      ['Project', 'Status', 'Size', 'SHA-256', 'Took', 'Archive or error'],
      results.map((r) => [
        code(r.project),
        r.status,
        r.size === undefined ? '' : formatBytes(r.size),
        r.sha256 ? code(r.sha256.slice(0, 16)) : '',
        formatDuration(r.elapsedMs),
        r.error ?? (r.uploaded ? `uploaded by GitLab; ${r.uploadCheck}` : r.path ? code(r.path) : ''),
      ]),
    ),
    s.group !== undefined &&
      para('Group', code(s.group), s.includeSubgroups ? 'with subgroups' : 'without subgroups'),
  )
}
