import { formatDuration } from '../connection.js'
import { code, facts, heading, join, link, para, table } from '../summary.js'
import type { Settings } from './inputs.js'
import type { ImportResult } from './result.js'
import { differs, type VerifyReport } from './verify.js'

/** Items listed per cell of the verify table; the rest are counted. */
const LISTED = 5
const some = (items: string[]) =>
  items.length === 0
    ? ''
    : items.slice(0, LISTED).join('; ') +
      (items.length > LISTED ? ` (and ${items.length - LISTED} more)` : '')

type Part = Parameters<typeof join>[number]

function retrySection(r: ImportResult): Part[] {
  if (!r.retry) return []
  return [
    heading('Relation retries (retry-failed-relations)', 3),
    r.retry.unavailable !== undefined && para(`Not retried: ${r.retry.unavailable}.`),
    r.retry.retries.length > 0 &&
      table(
        ['Relation', 'Outcome', 'Detail', 'Took'],
        r.retry.retries.map((x) => [x.relation, x.outcome, x.detail, formatDuration(x.elapsedMs)]),
      ),
  ]
}

function verifySection(v: VerifyReport | { error: string } | undefined): Part[] {
  if (!v) return []
  if ('error' in v) return [heading('Verify', 3), para(`Not verified: ${v.error}.`)]
  return [
    heading(
      `Verify: ${v.differences ? `${v.differences} kind(s) differ` : 'the project matches the archive'}`,
      3,
    ),
    table(
      ['Kind', 'Archive', 'Project', 'Result', 'Missing', 'Extra'],
      v.rows.map((row) => [
        row.what,
        row.archive,
        row.project ?? '',
        row.unchecked ? `not checked: ${row.unchecked}` : differs(row) ? 'differs' : 'matches',
        some(row.missing),
        some(row.extra),
      ]),
    ),
  ]
}

/** The job summary of import-project: the new project, its status, the failed relations, retries and verify. Escaped. */
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
    ...retrySection(r),
    ...verifySection(r.verify),
    failure !== undefined && para(failure),
  )
}
