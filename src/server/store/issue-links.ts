import type { Db } from './db.js'
import { rowCache } from './row-cache.js'

export interface IssueLinkRow {
  id: number
  source_id: number
  target_id: number
  link_type: 'relates_to' | 'blocks'
  created_at: string
  updated_at: string
}

/**
 * Links between issues (`issue_links`); both directions are read as one relation. `version`:
 * changes.ts `structureVersion`, which a link's write leaves (an issue write to both sides' projects,
 * services/issues/links.ts): each write forgets what was remembered; a move's changes move it.
 */
export function issueLinkTable(db: Db, version: () => number) {
  const insert = db.prepare(
    `INSERT INTO issue_links (source_id, target_id, link_type, created_at, updated_at)
     VALUES (@source_id, @target_id, @link_type, @created_at, @updated_at)`,
  )
  const byId = db.prepare('SELECT * FROM issue_links WHERE id = ?')
  const ofIssue = db.prepare(
    'SELECT * FROM issue_links WHERE source_id = ? OR target_id = ? ORDER BY created_at, id',
  )
  const between = db.prepare(
    `SELECT * FROM issue_links
     WHERE (source_id = @a AND target_id = @b) OR (source_id = @b AND target_id = @a)`,
  )
  const count = db.prepare('SELECT COUNT(*) AS n FROM issue_links WHERE source_id = ? OR target_id = ?')
  const blockers = db.prepare(
    `SELECT DISTINCT source_id FROM issue_links
     WHERE link_type = 'blocks' AND source_id IN (SELECT value FROM json_each(?))`,
  )
  const remove = db.prepare('DELETE FROM issue_links WHERE id = ?')
  const moveSource = db.prepare('UPDATE issue_links SET source_id = ? WHERE source_id = ?')
  const moveTarget = db.prepare('UPDATE issue_links SET target_id = ? WHERE target_id = ?')
  const blocking = db.prepare(
    `SELECT l.source_id AS issue_id, COUNT(*) AS n FROM issue_links l JOIN issues t ON t.id = l.target_id
     WHERE l.link_type = 'blocks' AND t.state = 'opened' AND l.source_id IN (SELECT value FROM json_each(?))
     GROUP BY l.source_id`,
  )
  const blockersOf = db.prepare(
    `SELECT l.source_id AS id, s.project_id FROM issue_links l JOIN issues s ON s.id = l.source_id
     WHERE l.link_type = 'blocks' AND l.target_id = ?`,
  )
  const anyBlock = db.prepare("SELECT 1 FROM issue_links WHERE link_type = 'blocks' LIMIT 1")
  // Every issue presented asks whether it blocks another; most stores have no such link at all.
  const blockLinks = rowCache(version, (_: 0) => ({ any: anyBlock.get() !== undefined }), 1)
  const noBlocks = () => blockLinks(0)?.any !== true
  const forgetBlocks = () => blockLinks.forget(() => true)
  return {
    insert(link: Omit<IssueLinkRow, 'id'>): number {
      const id = Number(insert.run(link).lastInsertRowid)
      forgetBlocks()
      return id
    },
    get: (id: number) => byId.get(id) as IssueLinkRow | undefined,
    /** Every link of an issue, from either side, oldest first. */
    ofIssue: (issueId: number) => ofIssue.all(issueId, issueId) as IssueLinkRow[],
    /** The link between two issues, whichever side made it. */
    between: (a: number, b: number) => between.get({ a, b }) as IssueLinkRow | undefined,
    /** How many links an issue has (GitLab's `linked_items_count`). */
    count: (issueId: number) => (count.get(issueId, issueId) as { n: number }).n,
    remove(id: number): void {
      remove.run(id)
      forgetBlocks()
    },
    /** Hands an issue's links to the issue it moved to (`Issues::MoveService#rewrite_related_issues`). */
    moveTo(fromId: number, toId: number): void {
      moveSource.run(toId, fromId)
      moveTarget.run(toId, fromId)
    },
    /** Which of `issueIds` block another issue (their `blocking_issues_count` moves with that issue's state). */
    blockers(issueIds: number[]): Set<number> {
      if (issueIds.length === 0 || noBlocks()) return new Set()
      return new Set(
        (blockers.all(JSON.stringify(issueIds)) as { source_id: number }[]).map((r) => r.source_id),
      )
    },
    /** The issues that block `issueId`, with their projects: their `blocking_issues_count` moves with its state. */
    blockersOf(issueId: number): { id: number; project_id: number }[] {
      if (noBlocks()) return []
      return blockersOf.all(issueId) as { id: number; project_id: number }[]
    },
    /**
     * Per issue, the open issues it blocks (EE's `blocking_issues_count`, "count of issues this issue
     * is blocking", `IssueLink.blocking_issuables_for_collection`); issues that block none are absent.
     */
    blockingCounts(issueIds: number[]): Map<number, number> {
      if (issueIds.length === 0 || noBlocks()) return new Map()
      const rows = blocking.all(JSON.stringify(issueIds)) as { issue_id: number; n: number }[]
      return new Map(rows.map((r) => [r.issue_id, r.n]))
    },
  }
}
