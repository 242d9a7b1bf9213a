/*
 * Applies a plan: every op in order, continuing past a failure, and reports each
 * outcome as data. Ops of one issue pair run in order and stop at the pair's first failure (the
 * rest are reported as skipped), so a marker never records work that did not happen.
 */
import type { Confidential, IssueCreate, IssueWrite, Op, Side, Skip, SyncReport } from './model.js'

/** What apply needs of each side (the adapters in github.ts and gitlab.ts). */
export interface SideWriter {
  create(set: IssueCreate): Promise<{ number: number; url: string }>
  update(number: number, set: IssueWrite): Promise<void>
  comment(number: number, body: string): Promise<void>
  /** Rewrites comment `id` of issue `number`. */
  editComment(number: number, id: number, body: string): Promise<void>
  deleteComment(number: number, id: number): Promise<void>
}

/** A one-line progress note per op (the action logs it); never holds a token. */
export type Progress = (line: string) => void

const errorText = (err: unknown) => {
  const e = err as { status?: number; message?: string }
  const text = err instanceof Error ? err.message : String(err)
  return e?.status && !text.includes(String(e.status)) ? `${e.status} ${text}` : text
}

/** One line describing an op, for logs and dry runs. */
export function describe(op: Op): string {
  const from = `${op.from.side}#${op.from.number}`
  if (op.kind === 'create')
    return `create ${op.side} issue from ${from} "${op.set.title}"${op.set.state === 'closed' ? ' (closed)' : ''}`
  if (op.kind === 'comment')
    return `comment on ${op.side}#${op.number ?? '(new)'} from ${from} comment ${op.from.comment}`
  if (op.kind === 'comment-edit' || op.kind === 'comment-delete')
    return `${op.kind === 'comment-edit' ? 'edit' : 'delete'} comment ${op.comment} on ${op.side}#${op.number} (${from} comment ${op.from.comment} was ${op.kind === 'comment-edit' ? 'edited' : 'deleted'})`
  const what = Object.keys(op.set).map((k) => (k === 'body' && !op.changed.includes('body') ? 'marker' : k))
  return `update ${op.side}#${op.number} from ${from}: ${what.join(', ')}`
}

/** An empty report around a plan. */
export const emptyReport = (
  planned: Op[],
  skipped: Skip[],
  unchanged: number,
  dryRun: boolean,
  confidential: Confidential = { issues: 0, notes: 0 },
  descoped: Skip[] = [],
): SyncReport => ({
  created: [],
  updated: [],
  closed: [],
  reopened: [],
  commented: [],
  edited: [],
  deleted: [],
  failed: [],
  unchanged,
  skipped,
  confidential,
  descoped,
  planned,
  dryRun,
})

/** Applies `ops` through the two sides; never throws for a failed write (it is in `failed`). */
export async function apply(
  ops: Op[],
  sides: Record<Side, SideWriter>,
  base: { skipped: Skip[]; unchanged: number; confidential?: Confidential; descoped?: Skip[] },
  progress: Progress = () => undefined,
): Promise<SyncReport> {
  const report = emptyReport(ops, base.skipped, base.unchanged, false, base.confidential, base.descoped)
  const created = new Map<string, number>()
  const broken = new Set<string>()
  for (const op of ops) {
    if (broken.has(op.key)) {
      report.failed.push({ op, error: 'not tried: an earlier write for this issue failed' })
      continue
    }
    try {
      progress(describe(op))
      if (op.kind === 'create') {
        const made = await sides[op.side].create(op.set)
        created.set(op.key, made.number)
        report.created.push(op)
      } else if (op.kind === 'comment') {
        const number = op.number ?? created.get(op.key)
        if (number === undefined) throw new Error('the issue to comment on was not created')
        await sides[op.side].comment(number, op.body)
        report.commented.push(op)
      } else if (op.kind === 'comment-edit') {
        await sides[op.side].editComment(op.number, op.comment, op.body)
        report.edited.push(op)
      } else if (op.kind === 'comment-delete') {
        await sides[op.side].deleteComment(op.number, op.comment)
        report.deleted.push(op)
      } else {
        await sides[op.side].update(op.number, op.set)
        if (op.set.state === 'closed') report.closed.push(op)
        if (op.set.state === 'open') report.reopened.push(op)
        if (Object.keys(op.set).some((k) => k !== 'state')) report.updated.push(op)
      }
    } catch (err) {
      broken.add(op.key)
      report.failed.push({ op, error: errorText(err) })
    }
  }
  return report
}
