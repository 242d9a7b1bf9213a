import type { Db } from './db.js'
import type { NamespaceRow } from './namespaces.js'
import { rowCache } from './row-cache.js'

/** A group shared with another (`group_group_links`), with what the invited group shows of itself. */
export interface GroupLinkRow {
  shared_group_id: number
  shared_with_group_id: number
  group_access: number
  expires_at: string | null
  name: string
  full_path: string
}

/**
 * Writes to groups beyond their insert (namespaces.ts): edits, moves of a subtree's paths, the
 * deletion schedule, removal of a subtree with everything in it, and group-to-group shares.
 * `version`: changes.ts `structureVersion`; the shares of a group are remembered while it stays.
 */
export function groupWriteTable(db: Db, version: () => number) {
  const update = db.prepare(
    'UPDATE namespaces SET name = @name, description = @description, visibility = @visibility WHERE id = @id',
  )
  const setParent = db.prepare('UPDATE namespaces SET parent_id = ? WHERE id = ?')
  const setPath = db.prepare('UPDATE namespaces SET path = ? WHERE id = ?')
  // A prefix compared without case, as `full_path` is COLLATE NOCASE.
  const underPrefix = `lower(substr(full_path, 1, length(@old) + 1)) = lower(@old || '/')`
  const moveNamespaces = db.prepare(
    `UPDATE namespaces SET full_path = @new || substr(full_path, length(@old) + 1)
     WHERE full_path = @old OR ${underPrefix}`,
  )
  const moveProjects = db.prepare(
    `UPDATE projects SET full_path = @new || substr(full_path, length(@old) + 1) WHERE ${underPrefix}`,
  )
  const subtree = db.prepare(
    `WITH RECURSIVE tree(id, depth) AS (
       SELECT id, 0 FROM namespaces WHERE id = ?
       UNION ALL SELECT n.id, tree.depth + 1 FROM namespaces n JOIN tree ON n.parent_id = tree.id
     )
     SELECT n.* FROM tree JOIN namespaces n ON n.id = tree.id ORDER BY tree.depth, n.id`,
  )
  const capGroups = db.prepare(
    `UPDATE namespaces SET visibility = @to
     WHERE id IN (SELECT value FROM json_each(@ids)) AND visibility IN (SELECT value FROM json_each(@above))`,
  )
  const capProjects = db.prepare(
    `UPDATE projects SET visibility = @to
     WHERE namespace_id IN (SELECT value FROM json_each(@ids)) AND visibility IN (SELECT value FROM json_each(@above))`,
  )
  const siblingNamed = db.prepare('SELECT 1 FROM namespaces WHERE parent_id = ? AND name = ? AND id != ?')
  const projectIn = db.prepare(
    `SELECT 1 FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))
       AND visibility IN (SELECT value FROM json_each(?)) LIMIT 1`,
  )
  const mark = db.prepare(
    `INSERT OR REPLACE INTO group_deletion_schedules (group_id, marked_for_deletion_on, deleting_user_id)
     VALUES (?, ?, ?)`,
  )
  const markOf = db
    .prepare('SELECT marked_for_deletion_on FROM group_deletion_schedules WHERE group_id = ?')
    .pluck()
  const removeProjectMembers = db.prepare(
    "DELETE FROM members WHERE source_type = 'project' AND source_id IN (SELECT id FROM projects WHERE namespace_id = ?)",
  )
  const removeProjects = db.prepare('DELETE FROM projects WHERE namespace_id = ?')
  const removeMembers = db.prepare("DELETE FROM members WHERE source_type = 'namespace' AND source_id = ?")
  const removeEpics = db.prepare('DELETE FROM epics WHERE group_id = ?')
  const removeNamespace = db.prepare('DELETE FROM namespaces WHERE id = ?')
  const share = db.prepare(
    `INSERT INTO group_group_links (shared_group_id, shared_with_group_id, group_access, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  )
  const unshare = db.prepare(
    'DELETE FROM group_group_links WHERE shared_group_id = ? AND shared_with_group_id = ?',
  )
  const linksOf = db.prepare(
    `SELECT l.shared_group_id, l.shared_with_group_id, l.group_access, l.expires_at, n.name, n.full_path
     FROM group_group_links l JOIN namespaces n ON n.id = l.shared_with_group_id
     WHERE l.shared_group_id = ? ORDER BY l.created_at, l.shared_with_group_id`,
  )
  const invited = db.prepare(
    'SELECT shared_with_group_id AS group_id, group_access, expires_at FROM group_group_links WHERE shared_group_id = ?',
  )
  const invitedOf = rowCache(version, (groupId: number) => ({
    links: invited.all(groupId) as { group_id: number; group_access: number; expires_at: string | null }[],
  }))
  return {
    update: (g: { id: number; name: string; description: string; visibility: string }) => update.run(g),
    setParent: (id: number, parentId: number | null) => setParent.run(parentId, id),
    /** Gives a group a new path and `full_path`, and every group and project below it the new prefix. */
    move: (id: number, path: string, oldFullPath: string, newFullPath: string) => {
      setPath.run(path, id)
      moveProjects.run({ old: oldFullPath, new: newFullPath })
      moveNamespaces.run({ old: oldFullPath, new: newFullPath })
    },
    /** The group and every group below it, shallowest first. */
    subtree: (id: number) => subtree.all(id) as NamespaceRow[],
    /** Sets `to` on the groups `ids` and their projects whose visibility is one of `above`. */
    capVisibility: (ids: readonly number[], to: string, above: readonly string[]) => {
      const args = { ids: JSON.stringify(ids), to, above: JSON.stringify(above) }
      capGroups.run(args)
      capProjects.run(args)
    },
    /** True when another group under `parentId` has this name. */
    siblingNamed: (parentId: number, name: string, exceptId = 0) =>
      siblingNamed.get(parentId, name, exceptId) !== undefined,
    /** True when a project in one of the groups `ids` has one of these visibilities. */
    projectWithVisibility: (ids: readonly number[], visibilities: readonly string[]) =>
      projectIn.get(JSON.stringify(ids), JSON.stringify(visibilities)) !== undefined,
    mark: (id: number, on: string, userId: number | null) => mark.run(id, on, userId),
    /** The day the group was marked for deletion, or null. */
    markOf: (id: number) => (markOf.get(id) as string | undefined) ?? null,
    /**
     * Removes the group, the groups below it, their projects (whose rows cascade), memberships and
     * epics; shares and deletion schedules cascade. Inside the caller's transaction.
     */
    removeSubtree: (id: number) => {
      const groups = subtree.all(id) as NamespaceRow[]
      for (const g of groups.reverse()) {
        removeProjectMembers.run(g.id)
        removeProjects.run(g.id)
        removeMembers.run(g.id)
        removeEpics.run(g.id)
        removeNamespace.run(g.id)
      }
    },
    share: (groupId: number, withId: number, access: number, expiresAt: string | null, now: string) =>
      share.run(groupId, withId, access, expiresAt, now),
    /** True when a share was there to remove. */
    unshare: (groupId: number, withId: number) => Number(unshare.run(groupId, withId).changes) > 0,
    /** The groups a group is shared with, oldest share first. */
    linksOf: (groupId: number) => linksOf.all(groupId) as GroupLinkRow[],
    /** The groups a group is shared with and up to which level: what access checks read. */
    invitedGroups: (groupId: number) => invitedOf(groupId)?.links ?? [],
  }
}
export type GroupWriteTable = ReturnType<typeof groupWriteTable>
