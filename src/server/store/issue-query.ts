import type { Cursor } from '../grape/pagination.js'
import { writesToAny, type IssueWrite } from './changes.js'
import type { Db, Statement } from './db.js'

/**
 * SQL for the issue lists (filters of `app/finders/issues_finder.rb`, orders of `app/models/issue.rb`). The
 * service decides who may see what and hands over plain data; this module only turns it into one
 * parameterised query.
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

/** Lists up to this long are inlined as `?` placeholders, where the planner sees every value. */
const INLINE_MAX = 50
/**
 * `expr IN (values)` for a list of any length: short lists inline, longer ones bound as one JSON
 * array read with `json_each`, so thousands of values stay within SQLite's limits on variables
 * and expression size (GitLab caps none of its list filters).
 */
const inSet = (expr: string, values: unknown[], negate = false): Condition => {
  const op = negate ? 'NOT IN' : 'IN'
  if (values.length > INLINE_MAX)
    return cond(`${expr} ${op} (SELECT value FROM json_each(?))`, JSON.stringify(values))
  return cond(`${expr} ${op} (${list(values.length) || 'NULL'})`, ...values)
}
/** Every value of the list passes `test` (SQL over `v.value`): one condition, whatever the length. */
const everyOf = (values: unknown[], test: string): Condition =>
  cond(`NOT EXISTS (SELECT 1 FROM json_each(?) v WHERE NOT (${test}))`, JSON.stringify(values))

const labelTitled = (title: string) =>
  `EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id AND l.title = ${title})`
const assignee = (user: string) =>
  `EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ${user})`

/** Filter building blocks, each a self-contained SQL condition over `issues i`. */
export const where = {
  none: () => cond('0'),
  state: (state: string) => cond('i.state = ?', state),
  /**
   * The issue has a label of each of these titles. A short list is one EXISTS per title, which
   * SQLite runs as one index probe per row; the json_each form costs about twice as much per row.
   */
  allLabels: (titles: string[]): Condition => {
    if (titles.length > INLINE_MAX) return everyOf(titles, labelTitled('v.value'))
    return cond(titles.map(() => labelTitled('?')).join(' AND ') || '1', ...titles)
  },
  /** The issue has no label of any of these titles. */
  noLabelOf: (titles: string[]) => {
    const titled = inSet('l.title', titles)
    return cond(
      `NOT EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id AND ${titled.sql})`,
      ...titled.args,
    )
  },
  noLabels: () => cond('NOT EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)'),
  someLabel: () => cond('EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)'),
  assignedTo: (userId: number) => cond(assignee('?'), userId),
  notAssignedTo: (userId: number) => cond(`NOT ${assignee('?')}`, userId),
  /** Assigned to every one of these users. */
  assignedToAll: (userIds: number[]) => everyOf(userIds, assignee('v.value')),
  /** Assigned to none of these users. */
  assignedToNone: (userIds: number[]) => {
    const among = inSet('a.user_id', userIds)
    return cond(
      `NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND ${among.sql})`,
      ...among.args,
    )
  },
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
  inList: (column: string, values: unknown[], negate = false) => inSet(`i.${column}`, values, negate),
  compare: (column: string, op: '=' | '<' | '<=' | '>' | '>=' | '!=', value: unknown) =>
    cond(`i.${column} ${op} ?`, value),
  isNull: (column: string, negate = false) => cond(`i.${column} IS ${negate ? 'NOT ' : ''}NULL`),
  /** The column is NULL or holds another value (GitLab's `not[weight]=3` keeps issues without one). */
  differs: (column: string, value: unknown) => cond(`(i.${column} IS NULL OR i.${column} != ?)`, value),
  between: (column: string, from: string, to: string) => cond(`i.${column} BETWEEN ? AND ?`, from, to),
  projectNotArchived: () => cond('i.project_id IN (SELECT id FROM projects WHERE archived = 0)'),
}

const labelPriority =
  '(SELECT MIN(l.priority) FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id)'
const milestoneDue = '(SELECT m.due_date FROM milestones m WHERE m.id = i.milestone_id)'

/**
 * The terms of the ORDER BY for each `order_by` (`Issue.sort_by_attribute`, `app/models/issue.rb`):
 * NULLs last where GitLab puts them last, id DESC to break ties.
 */
function orderTerms(by: string, dir: 'asc' | 'desc'): string[] {
  const d = dir.toUpperCase()
  const nullsLast = (expr: string) => [`${expr} IS NULL`, `${expr} ${d}`]
  switch (by) {
    case 'updated_at':
    case 'title':
      return [`i.${by} ${d}`, 'i.id DESC']
    case 'due_date':
    case 'relative_position':
    case 'weight':
      return [...nullsLast(`i.${by}`), 'i.id DESC']
    case 'popularity':
      return [`(i.upvotes - i.downvotes) ${d}`, 'i.id DESC']
    case 'milestone_due':
      return [...nullsLast(milestoneDue), 'i.id DESC']
    case 'label_priority':
      return [...nullsLast(labelPriority), 'i.id DESC']
    case 'priority':
      return [
        `${milestoneDue} IS NULL`,
        `${milestoneDue} ASC`,
        `${labelPriority} IS NULL`,
        `${labelPriority} ASC`,
        'i.id DESC',
      ]
    default:
      return [`i.created_at ${d}`, 'i.id DESC']
  }
}
const orderSql = (by: string, dir: 'asc' | 'desc') => orderTerms(by, dir).join(', ')
/** What an issue's place in the order is made of, as one SQL value (the terms without their directions). */
const orderKeySql = (by: string, dir: 'asc' | 'desc') =>
  `json_array(${orderTerms(by, dir)
    .map((term) => term.replace(/ (ASC|DESC)$/, ''))
    .join(', ')})`

/** Orders that keyset pagination supports, with the column the cursor carries. */
export const KEYSET_ORDERS = new Set(['created_at', 'updated_at', 'title'])

/** Compiles and runs issue list queries; statements are cached by SQL text. */
export function issueQueries(db: Db) {
  const cache = new Map<string, Statement>()
  /** `plucked`: rows as their first column (the SQL text is the statement's alone). */
  const prepare = (sql: string, plucked = false) => {
    let stmt = cache.get(sql)
    if (!stmt) {
      if (cache.size > 500) cache.clear()
      stmt = db.prepare(sql)
      cache.set(sql, plucked ? stmt.pluck() : stmt)
    }
    return stmt
  }
  /**
   * Per query object, its filter and the SQL texts made from it, built once: kept lists and counts
   * run theirs for every write, and the statement cache finds a text it has hashed before at once.
   */
  const compiled = new WeakMap<
    IssueQuery,
    Condition & { texts: Map<string, string>; reads: Map<readonly string[], boolean> }
  >()
  const filter = (q: IssueQuery) => {
    let f = compiled.get(q)
    if (!f) compiled.set(q, (f = { ...buildFilter(q), texts: new Map(), reads: new Map() }))
    return f
  }
  /** `make`: one function per text, not a closure per call (positions are read on every write). */
  const text = (q: IssueQuery, name: string, make: (f: Condition, q: IssueQuery) => string) => {
    const f = filter(q)
    let sql = f.texts.get(name)
    if (sql === undefined) f.texts.set(name, (sql = make(f, q)))
    return sql
  }
  /**
   * Places read since the store last changed, by query and issue: the caches that follow writes
   * (kept counts, watched pages, kept orders) each read the same ones before and after a write.
   * A rollback, which `db.writes` does not count, forgets them. By the query's place text, kept per
   * query object, so that its hash is computed once (V8 keeps it in the string), then by issue.
   */
  const places = new Map<string, Map<number, string | undefined>>()
  let placesAt = -1
  db.onRollback(() => places.clear())
  /**
   * Where the issue `id` stands in the query's list: its order key as text, equal before and after a
   * write that did not move it; undefined when it does not pass the filter.
   */
  const position = (q: IssueQuery, id: number): string | undefined => {
    if (db.writes !== placesAt) {
      places.clear()
      placesAt = db.writes
    }
    const sql = text(q, 'position', positionSql)
    const placeText = text(q, 'place', placeSql)
    let byId = places.get(placeText)
    if (!byId) places.set(placeText, (byId = new Map()))
    if (byId.has(id)) return byId.get(id)
    const place = (prepare(sql).get(id, ...filter(q).args) as { k: string } | undefined)?.k
    byId.set(id, place)
    return place
  }
  /** The SQL of an issue's place in the list: its order key, when it passes the filter. */
  const positionSql = (f: Condition, q: IssueQuery) =>
    `SELECT ${orderKeySql(q.order.by, q.order.dir)} AS k FROM issues i WHERE i.id = ? AND ${f.sql}`
  /** `places`' key: the position's SQL and its arguments. */
  const placeSql = (f: Condition, q: IssueQuery) =>
    `${text(q, 'position', positionSql)}\n${JSON.stringify(f.args)}`
  const filterKeyText = (f: Condition) => `${f.sql}\n${JSON.stringify(f.args)}`
  const buildFilter = (q: IssueQuery): Condition => {
    const parts: Condition[] = [...q.where]
    if (q.projectIds !== null) parts.unshift(where.inList('project_id', q.projectIds))
    if (!('all' in q.confidential)) {
      const c = q.confidential
      const ors = ['i.confidential = 0']
      const args: unknown[] = []
      if (c.projectIds.length > 0) {
        const mine = inSet('i.project_id', c.projectIds)
        ors.push(mine.sql)
        args.push(...mine.args)
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
  /**
   * The query's filter or order reads one of these columns of `issues i`; answered once per list
   * of columns (writes name theirs with the same array every time, time-tracking.ts).
   */
  const readsColumn = (q: IssueQuery, columns: readonly string[]) => {
    const { reads } = filter(q)
    let answer = reads.get(columns)
    if (answer === undefined) {
      const sql = text(q, 'position', positionSql)
      answer = columns.some((c) => new RegExp(`\\bi\\.${c}\\b`).test(sql))
      if (reads.size >= 16) reads.clear()
      reads.set(columns, answer)
    }
    return answer
  }
  return {
    /**
     * Whether `write` may change which of its issues the query's list holds, or where: the list
     * covers the write's project, and the write does not say it leaves every column the list reads.
     */
    affects(q: IssueQuery, write: IssueWrite): boolean {
      if (q.projectIds !== null && !writesToAny(write, q.projectIds)) return false
      return write.onlyColumns === undefined || readsColumn(q, write.onlyColumns)
    },
    /** The query's filter as text: equal for two queries that match the same rows. */
    filterKey(q: IssueQuery): string {
      return text(q, 'key', filterKeyText)
    },
    /** Whether the issue `id` passes the query's filter (one row, looked up by id). */
    matches: (q: IssueQuery, id: number): boolean => position(q, id) !== undefined,
    position,
    /** Counts matching rows, stopping at `cap` + 1 so that huge lists stay cheap. */
    count(q: IssueQuery, cap: number): number {
      const f = filter(q)
      const row = prepare(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM issues i WHERE ${f.sql} LIMIT ${cap + 1})`,
      ).get(...f.args) as { n: number }
      return row.n
    },
    /**
     * Ids of one offset page, in order. Ids only: the index answers them without reading the rows
     * (a third of the cost of whole rows), and a list presents most issues from kept JSON
     * (services/issues/fragments.ts), reading only the other rows by id.
     */
    pageIds(q: IssueQuery, limit: number, offset: number): number[] {
      const f = filter(q)
      const sql = `SELECT i.id FROM issues i WHERE ${f.sql} ORDER BY ${orderSql(q.order.by, q.order.dir)} LIMIT ? OFFSET ?`
      return prepare(sql, true).all(...f.args, limit, offset) as number[]
    },
    /** Ids of one keyset page after `after`, plus the key of the last row. */
    keysetPage(q: IssueQuery, limit: number, after: Cursor | null): { id: number; key: string }[] {
      const f = filter(q)
      const col = `i.${q.order.by}`
      const op = q.order.dir === 'asc' ? '>' : '<'
      const seek = after ? ` AND (${col} ${op} ? OR (${col} = ? AND i.id < ?))` : ''
      const sql = `SELECT i.id, ${col} AS key FROM issues i WHERE ${f.sql}${seek}
        ORDER BY ${col} ${q.order.dir.toUpperCase()}, i.id DESC LIMIT ?`
      const value = after?.values[0]
      const args = after ? [...f.args, value, value, after.id, limit] : [...f.args, limit]
      return prepare(sql).all(...args) as { id: number; key: string }[]
    },
  }
}
