import type { Db } from './db.js'
import { rowCache } from './row-cache.js'

export interface LabelRow {
  id: number
  /** The owner: a project, or (migration 19) a group; exactly one is set. */
  project_id: number | null
  group_id: number | null
  title: string
  color: string
  description: string | null
  priority: number | null
  created_at: string
}

/**
 * The groups a project or group sees labels and milestones of: its own namespace (a group, or the
 * user namespace, which owns none) and every ancestor. `?` is a namespace id.
 */
export const ANCESTOR_GROUPS = `WITH RECURSIVE chain(id) AS (SELECT ? UNION ALL
  SELECT n.parent_id FROM namespaces n JOIN chain c ON n.id = c.id WHERE n.parent_id IS NOT NULL)`

/**
 * Project and group labels; titles are unique per owner and matched exactly. "Available" labels
 * are a project's own and those of its groups (`Project#available_labels`, `LabelsFinder` with
 * `include_ancestor_groups`). `version`: changes.ts `structureVersion`; a label found by title is
 * remembered while it stays (label writes move it; the only one inside issue writes, a label made
 * for a title no label had, is a miss, which is never remembered).
 */
export function labelTable(db: Db, version: () => number) {
  const byId = db.prepare('SELECT * FROM labels WHERE id = ?')
  const update = db.prepare(
    'UPDATE labels SET title = @title, color = @color, description = @description WHERE id = @id',
  )
  const setPriority = db.prepare('UPDATE labels SET priority = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM labels WHERE id = ?')
  const subscribed = db.prepare('SELECT 1 FROM label_subscriptions WHERE label_id = ? AND user_id = ?')
  const subscribe = db.prepare('INSERT OR IGNORE INTO label_subscriptions (label_id, user_id) VALUES (?, ?)')
  const unsubscribe = db.prepare('DELETE FROM label_subscriptions WHERE label_id = ? AND user_id = ?')
  const subscribedBy = db.prepare('SELECT label_id FROM label_subscriptions WHERE user_id = ?')
  const insert = db.prepare(
    'INSERT INTO labels (project_id, title, color, description, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const byTitle = db.prepare('SELECT * FROM labels WHERE project_id = ? AND title = ?')
  const ofProject = db.prepare('SELECT * FROM labels WHERE project_id = ?')
  const insertInGroup = db.prepare(
    'INSERT INTO labels (group_id, title, color, description, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const groupByTitle = db.prepare('SELECT * FROM labels WHERE group_id = ? AND title = ?')
  const ofGroups = db.prepare(
    `${ANCESTOR_GROUPS} SELECT * FROM labels WHERE group_id IN (SELECT id FROM chain) ORDER BY title, id`,
  )
  // A project's own label first when a group has one of the same title (GitLab allows both).
  const available = db.prepare(
    `${ANCESTOR_GROUPS} SELECT * FROM labels WHERE project_id = ? OR group_id IN (SELECT id FROM chain)
     ORDER BY title, project_id IS NULL, id`,
  )
  const availableByTitle = db.prepare(
    `${ANCESTOR_GROUPS} SELECT * FROM labels WHERE title = ? AND (project_id = ? OR group_id IN (SELECT id FROM chain))
     ORDER BY project_id IS NULL, id LIMIT 1`,
  )
  // Each create and label edit looks its titles up: the group chain's walk cost more than the write.
  const availableLabel = rowCache(version, (key: string) => {
    const [projectId, namespaceId, title] = JSON.parse(key) as [number, number, string]
    return availableByTitle.get(namespaceId, title, projectId) as LabelRow | undefined
  })
  const moveIssues = db.prepare(
    `INSERT OR IGNORE INTO issue_labels (issue_id, label_id) SELECT issue_id, ? FROM issue_labels WHERE label_id = ?`,
  )
  const moveSubscriptions = db.prepare(
    'INSERT OR IGNORE INTO label_subscriptions (label_id, user_id) SELECT ?, user_id FROM label_subscriptions WHERE label_id = ?',
  )
  const moveEvents = db.prepare('UPDATE resource_label_events SET label_id = ? WHERE label_id = ?')
  const toGroup = db.prepare(
    'UPDATE labels SET project_id = NULL, group_id = ?, priority = NULL WHERE id = ?',
  )
  const ofIssues = (n: number) =>
    db.prepare(
      `SELECT il.issue_id, l.* FROM issue_labels il JOIN labels l ON l.id = il.label_id
       WHERE il.issue_id IN (${Array(n).fill('?').join(',')}) ORDER BY l.title`,
    )
  const cache = new Map<number, ReturnType<typeof ofIssues>>()
  const groupLabelsOnIssues = db.prepare(
    `SELECT DISTINCT l.* FROM labels l JOIN issue_labels il ON il.label_id = l.id JOIN issues i ON i.id = il.issue_id
     WHERE i.project_id = ? AND l.group_id IS NOT NULL ORDER BY l.id`,
  )
  const PROJECT_ISSUES = 'issue_id IN (SELECT id FROM issues WHERE project_id = @project)'
  const relabel = db.prepare(
    `INSERT OR IGNORE INTO issue_labels (issue_id, label_id)
     SELECT issue_id, @to FROM issue_labels WHERE label_id = @from AND ${PROJECT_ISSUES}`,
  )
  const unlabel = db.prepare(`DELETE FROM issue_labels WHERE label_id = @from AND ${PROJECT_ISSUES}`)
  return {
    /** The group labels on a project's issues (`Labels::TransferService#labels_to_transfer`). */
    groupLabelsOnIssues: (projectId: number) => groupLabelsOnIssues.all(projectId) as LabelRow[],
    /** Puts label `to` where `from` is on one project's issues. */
    relabelIssues: (projectId: number, from: number, to: number) => {
      relabel.run({ project: projectId, from, to })
      unlabel.run({ project: projectId, from })
    },
    insert: (projectId: number, title: string, color: string, description: string | null, now: string) =>
      Number(insert.run(projectId, title, color, description, now).lastInsertRowid),
    /** The project's own label of this title (not its groups'). */
    byTitle: (projectId: number, title: string) => byTitle.get(projectId, title) as LabelRow | undefined,
    insertInGroup: (groupId: number, title: string, color: string, description: string | null, now: string) =>
      Number(insertInGroup.run(groupId, title, color, description, now).lastInsertRowid),
    /** The group's own label of this title. */
    groupByTitle: (groupId: number, title: string) =>
      groupByTitle.get(groupId, title) as LabelRow | undefined,
    /** The labels of a group and its ancestors (`namespaceId`: the group), by title. */
    ofGroups: (namespaceId: number) => ofGroups.all(namespaceId) as LabelRow[],
    /** A project's own labels and its groups', by title (the project's first on a tie). */
    available: (project: { id: number; namespace_id: number }) =>
      available.all(project.namespace_id, project.id) as LabelRow[],
    /** The label of this title a project may use: its own, else its nearest group's. */
    availableByTitle: (project: { id: number; namespace_id: number }, title: string) =>
      availableLabel(JSON.stringify([project.id, project.namespace_id, title])),
    /**
     * Hands one label's issues, subscribers and events to another (`Labels::PromoteService`), before
     * the first is deleted.
     */
    /** Hands a project label to a group, keeping its id (`Labels::PromoteService`). */
    moveToGroup: (id: number, groupId: number) => toGroup.run(groupId, id),
    merge: (fromId: number, toId: number) => {
      moveIssues.run(toId, fromId)
      moveSubscriptions.run(toId, fromId)
      moveEvents.run(toId, fromId)
    },
    get: (id: number) => byId.get(id) as LabelRow | undefined,
    update: (id: number, l: Pick<LabelRow, 'title' | 'color' | 'description'>) => update.run({ id, ...l }),
    setPriority: (id: number, priority: number | null) => setPriority.run(priority, id),
    remove: (id: number) => remove.run(id),
    subscribed: (labelId: number, userId: number) => subscribed.get(labelId, userId) !== undefined,
    subscribe: (labelId: number, userId: number) => subscribe.run(labelId, userId),
    unsubscribe: (labelId: number, userId: number) => unsubscribe.run(labelId, userId),
    /** Ids of the labels the user subscribed to (project and group labels alike). */
    subscribedBy: (userId: number) =>
      new Set((subscribedBy.all(userId) as { label_id: number }[]).map((r) => r.label_id)),
    /** The project's own labels. */
    ofProject: (projectId: number) => ofProject.all(projectId) as LabelRow[],
    /** Labels of many issues at once, sorted by title (GitLab sorts issue labels alphabetically). */
    ofIssues: (issueIds: number[]) => {
      if (issueIds.length === 0) return [] as (LabelRow & { issue_id: number })[]
      let stmt = cache.get(issueIds.length)
      if (!stmt) cache.set(issueIds.length, (stmt = ofIssues(issueIds.length)))
      return stmt.all(...issueIds) as (LabelRow & { issue_id: number })[]
    },
  }
}
