import type { Db, Statement } from './db.js'

/**
 * SQL for the issue lists (reference §4.3 filters, §4.2 orders). The service decides who may see
 * what and hands over plain data; this module only turns it into one parameterised query.
 */
export interface IssueQuery {
  /** Projects the caller can read; `null` means every project (administrators). */
  projectIds: number[] | null
  /** Confidential issues visible: `all`, or only in these projects plus authored/assigned ones. */
  confidential: { all: true } | { projectIds: number[]; userId: number | null }
  where: Condition[]
  order: { by: string; dir: 'asc' | 'desc' }
}

export interface Condition {
  sql: string
  args: unknown[]
}

const cond = (sql: string, ...args: unknown[]): Condition => ({ sql, args })
const list = (n: number) => Array(n).fill('?').join(',')
const hasLabel = (ids: number[]) =>
  `EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id IN (${list(ids.length) || 'NULL'}))`

/** Filter building blocks, each a self-contained SQL condition over `issues i`. */
export const where = {
  raw: cond,
  none: () => cond('0'),
  state: (state: string) => cond('i.state = ?', state),
  /** The issue has every one of these label groups (each group: label ids sharing one title). */
  allLabels: (groups: number[][]) => groups.map((ids) => cond(hasLabel(ids), ...ids)),
  anyLabelOf: (ids: number[]) => cond(hasLabel(ids), ...ids),
  noLabelOf: (ids: number[]) => cond(`NOT ${hasLabel(ids)}`, ...ids),
  noLabels: () => cond('NOT EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)'),
  someLabel: () => cond('EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)'),
  assignedTo: (userId: number) =>
    cond('EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?)', userId),
  notAssignedTo: (userId: number) =>
    cond('NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?)', userId),
  unassigned: () => cond('NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)'),
  assigned: () => cond('EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)'),
  reacted: (userId: number, name?: string) =>
    name === undefined
      ? cond('EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = ?)', userId)
      : cond(
          'EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = ? AND e.name = ?)',
          userId,
          name,
        ),
  notReacted: (userId: number, name?: string) =>
    name === undefined
      ? cond('NOT EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = ?)', userId)
      : cond(
          'NOT EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = ? AND e.name = ?)',
          userId,
          name,
        ),
  milestoneTitle: (title: string, negate = false) =>
    negate
      ? cond(
          '(i.milestone_id IS NULL OR i.milestone_id NOT IN (SELECT id FROM milestones WHERE title = ?))',
          title,
        )
      : cond('i.milestone_id IN (SELECT id FROM milestones WHERE title = ?)', title),
  /** The nearest milestone with a future due date, per project. */
  milestoneUpcoming: (today: string, negate = false) =>
    cond(
      `${negate ? '(i.milestone_id IS NULL OR i.milestone_id NOT IN' : 'i.milestone_id IN'} (SELECT m.id FROM milestones m
        WHERE m.state = 'active' AND m.due_date > ? AND m.due_date = (SELECT MIN(m2.due_date) FROM milestones m2
          WHERE m2.project_id = m.project_id AND m2.state = 'active' AND m2.due_date > ?))${negate ? ')' : ''}`,
      today,
      today,
    ),
  milestoneStarted: (today: string, negate = false) =>
    cond(
      `${negate ? '(i.milestone_id IS NULL OR i.milestone_id NOT IN' : 'i.milestone_id IN'} (SELECT id FROM milestones
        WHERE state = 'active' AND start_date <= ?)${negate ? ')' : ''}`,
      today,
    ),
  /** Every word matches in one of `columns`, case-insensitively (LIKE on ASCII, as GitLab's ILIKE). */
  search: (words: string[], columns: string[], negate = false) => {
    const esc = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const one = `(${columns.map((c) => `COALESCE(i.${c}, '') LIKE ? ESCAPE '\\'`).join(' OR ')})`
    const sql = words.map(() => one).join(' AND ') || '1'
    const args = words.flatMap((w) => columns.map(() => esc(w)))
    return cond(negate ? `NOT (${sql})` : sql, ...args)
  },
  inList: (column: string, values: unknown[], negate = false) =>
    cond(`i.${column} ${negate ? 'NOT IN' : 'IN'} (${list(values.length) || 'NULL'})`, ...values),
  compare: (column: string, op: '=' | '<' | '<=' | '>' | '>=' | '!=', value: unknown) =>
    cond(`i.${column} ${op} ?`, value),
  isNull: (column: string, negate = false) => cond(`i.${column} IS ${negate ? 'NOT ' : ''}NULL`),
  between: (column: string, from: string, to: string) => cond(`i.${column} BETWEEN ? AND ?`, from, to),
  projectNotArchived: () => cond('i.project_id IN (SELECT id FROM projects WHERE archived = 0)'),
}

const labelPriority =
  '(SELECT MIN(l.priority) FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id)'
const milestoneDue = '(SELECT m.due_date FROM milestones m WHERE m.id = i.milestone_id)'

/** ORDER BY for each `order_by` (reference §4.2): NULLs last where GitLab puts them last, id DESC to break ties. */
function orderSql(by: string, dir: 'asc' | 'desc'): string {
  const d = dir.toUpperCase()
  const nullsLast = (expr: string) => `${expr} IS NULL, ${expr} ${d}`
  switch (by) {
    case 'updated_at':
    case 'title':
      return `i.${by} ${d}, i.id DESC`
    case 'due_date':
    case 'relative_position':
    case 'weight':
      return `${nullsLast(`i.${by}`)}, i.id DESC`
    case 'popularity':
      return `(i.upvotes - i.downvotes) ${d}, i.id DESC`
    case 'milestone_due':
      return `${nullsLast(milestoneDue)}, i.id DESC`
    case 'label_priority':
      return `${nullsLast(labelPriority)}, i.id DESC`
    case 'priority':
      return `${milestoneDue} IS NULL, ${milestoneDue} ASC, ${labelPriority} IS NULL, ${labelPriority} ASC, i.id DESC`
    default:
      return `i.created_at ${d}, i.id DESC`
  }
}

/** Orders that keyset pagination supports, with the column the cursor carries. */
export const KEYSET_ORDERS = new Set(['created_at', 'updated_at', 'title'])

export interface Cursor {
  value: string
  id: number
}

/** Compiles and runs issue list queries; statements are cached by SQL text. */
export function issueQueries(db: Db) {
  const cache = new Map<string, Statement>()
  const prepare = (sql: string) => {
    let stmt = cache.get(sql)
    if (!stmt) {
      if (cache.size > 500) cache.clear()
      cache.set(sql, (stmt = db.prepare(sql)))
    }
    return stmt
  }
  const filter = (q: IssueQuery): Condition => {
    const parts: Condition[] = [...q.where]
    if (q.projectIds !== null) parts.unshift(where.inList('project_id', q.projectIds))
    if (!('all' in q.confidential)) {
      const c = q.confidential
      const ors = ['i.confidential = 0']
      const args: unknown[] = []
      if (c.projectIds.length > 0) {
        ors.push(`i.project_id IN (${list(c.projectIds.length)})`)
        args.push(...c.projectIds)
      }
      if (c.userId !== null) {
        ors.push(
          'i.author_id = ?',
          'EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?)',
        )
        args.push(c.userId, c.userId)
      }
      parts.push(cond(`(${ors.join(' OR ')})`, ...args))
    }
    return { sql: parts.map((p) => `(${p.sql})`).join(' AND ') || '1', args: parts.flatMap((p) => p.args) }
  }
  return {
    /** Counts matching rows, stopping at `cap` + 1 so that huge lists stay cheap. */
    count(q: IssueQuery, cap: number): number {
      const f = filter(q)
      const row = prepare(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM issues i WHERE ${f.sql} LIMIT ${cap + 1})`,
      ).get(...f.args) as { n: number }
      return row.n
    },
    /** Ids of one offset page. */
    page(q: IssueQuery, limit: number, offset: number): number[] {
      const f = filter(q)
      const sql = `SELECT i.id FROM issues i WHERE ${f.sql} ORDER BY ${orderSql(q.order.by, q.order.dir)} LIMIT ? OFFSET ?`
      return (prepare(sql).all(...f.args, limit, offset) as { id: number }[]).map((r) => r.id)
    },
    /** Ids of one keyset page after `after`, plus the key of the last row. */
    keysetPage(q: IssueQuery, limit: number, after: Cursor | null): { id: number; key: string }[] {
      const f = filter(q)
      const col = `i.${q.order.by}`
      const op = q.order.dir === 'asc' ? '>' : '<'
      const seek = after ? ` AND (${col} ${op} ? OR (${col} = ? AND i.id < ?))` : ''
      const sql = `SELECT i.id, ${col} AS key FROM issues i WHERE ${f.sql}${seek}
        ORDER BY ${col} ${q.order.dir.toUpperCase()}, i.id DESC LIMIT ?`
      const args = after ? [...f.args, after.value, after.value, after.id, limit] : [...f.args, limit]
      return prepare(sql).all(...args) as { id: number; key: string }[]
    },
  }
}
