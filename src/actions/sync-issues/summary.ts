import type { Op, SyncReport } from '../../sync/model.js'
import { code, facts, heading, join, link, para, table, type Cell } from '../summary.js'
import type { Settings } from './inputs.js'

const MAX_ROWS = 200
const FORGE = { github: 'GitHub', gitlab: 'GitLab' } as const

const what = (op: Op): Cell => {
  if (op.kind === 'create') return `create${op.set.state === 'closed' ? ' (closed)' : ''}`
  if (op.kind === 'comment') return 'comment'
  if (op.kind === 'comment-edit') return 'comment edit'
  if (op.kind === 'comment-delete') return 'comment delete'
  const fields = Object.keys(op.set).map((k) => (k === 'body' && !op.changed.includes('body') ? 'marker' : k))
  return `update: ${fields.join(', ')}`
}
const target = (op: Op): Cell =>
  op.kind === 'create' ? `${FORGE[op.side]} (new)` : `${FORGE[op.side]} #${op.number ?? '(new)'}`
const source = (op: Op): Cell =>
  link(
    `${FORGE[op.from.side]} #${op.from.number}${op.kind.startsWith('comment') ? ' comment' : ''}`,
    op.from.url,
  )

/** The job summary of sync-issues: counts, then the plan (dry run) or what was written, then failures. Escaped. */
export function renderSummary(s: Settings, mode: string, r: SyncReport): string {
  const rows = r.planned.slice(0, MAX_ROWS).map((op) => [what(op), target(op), source(op)])
  return join(
    heading(`${r.failed.length ? '⚠️' : '✅'} sync-issues${r.dryRun ? ' (dry run: nothing written)' : ''}`),
    facts([
      ['GitHub', code(s.repository)],
      ['GitLab', link(s.project, `${s.gitlabUrl}/${s.project}`)],
      ['Direction', s.direction],
      ['Mode', mode],
    ]),
    table(
      ['created', 'updated', 'closed', 'reopened', 'commented', 'unchanged', 'failed'],
      [
        [
          r.created.length,
          r.updated.length,
          r.closed.length,
          r.reopened.length,
          r.commented.length,
          r.unchanged,
          r.failed.length,
        ],
      ],
    ),
    r.edited.length + r.deleted.length > 0 &&
      para(`Mirrored comments: ${r.edited.length} rewritten after an edit, ${r.deleted.length} deleted.`),
    r.confidential.issues + r.confidential.notes > 0 &&
      para(
        `Kept on GitLab: ${r.confidential.issues} confidential issue(s) and ${r.confidential.notes} internal note(s) (include-confidential is off).`,
      ),
    rows.length > 0 && table([r.dryRun ? 'Planned' : 'Write', 'On', 'From'], rows),
    r.planned.length > MAX_ROWS && para(`… and ${r.planned.length - MAX_ROWS} more`),
    r.failed.length > 0 &&
      table(
        ['Failed', 'On', 'Error'],
        r.failed.map((f) => [what(f.op), target(f.op), f.error]),
      ),
    r.descoped.length > 0 &&
      table(
        ['No longer synced', 'Why'],
        r.descoped.map((k) => [k.key, k.reason]),
      ),
    r.skipped.length > 0 &&
      table(
        ['Left alone', 'Why'],
        r.skipped.map((k) => [k.key, k.reason]),
      ),
  )
}
