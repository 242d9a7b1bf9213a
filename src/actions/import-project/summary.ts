import { formatDuration } from '../connection.js'
import { code, facts, heading, join, link, para, table } from '../summary.js'
import type { Settings } from './inputs.js'
import type { ImportResult } from './result.js'

/** The job summary of import-project: the new project, its status, and the failed relations. Escaped. */
export function renderSummary(s: Settings, r: ImportResult, failure: string | undefined): string {
  const p = r.record
  const source = s.archive ?? (s.url !== undefined ? 'a URL' : `s3://${s.s3Bucket}/${s.s3Key}`)
  const web = `${s.gitlabUrl}/${p.path_with_namespace}`
  return join(
    heading(
      `${failure ? '❌' : p.import_status === 'finished' ? '✅' : '⏳'} GitLab import: ${p.path_with_namespace} ${p.import_status}`,
    ),
    facts([
      ['Project', link(p.path_with_namespace, web)],
      ['Id', p.id],
      ['Source', code(source)],
      ['Status', p.import_status],
      ['Error', p.import_error ?? undefined],
      ['Waited', r.waited ? formatDuration(r.elapsedMs) : 'no (wait: false)'],
      ['Failed relations', p.failed_relations.length],
    ]),
    p.failed_relations.length > 0 &&
      table(
        ['Relation', 'Line', 'Exception', 'Source'],
        p.failed_relations.map((f) => [f.relation_name, f.line_number, f.exception_class, f.source]),
      ),
    failure !== undefined && para(failure),
  )
}
