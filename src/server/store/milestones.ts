import type { Db } from './db.js'
import { rowCache } from './row-cache.js'
import { ANCESTOR_GROUPS } from './labels.js'

export interface MilestoneRow {
  id: number
  iid: number
  /** The owner: a project, or (migration 19) a group; exactly one is set. */
  project_id: number | null
  group_id: number | null
  /** The owner's full path (read with the row, for `web_url`). */
  owner_path: string
  title: string
  description: string | null
  state: 'active' | 'closed'
  start_date: string | null
  due_date: string | null
  created_at: string
  updated_at: string
}

/** A milestone row with its owner's path. */
const ROW = `SELECT m.*, COALESCE(p.full_path, n.full_path) AS owner_path FROM milestones m
  LEFT JOIN projects p ON p.id = m.project_id LEFT JOIN namespaces n ON n.id = m.group_id`

/** The fields a new milestone is given; `group_id` instead of `project_id` for a group's. */
export type MilestoneInsert = Omit<MilestoneRow, 'id' | 'iid' | 'group_id' | 'owner_path'> & {
  group_id?: number | null
}

/**
 * Project and group milestones; iids count per owner. A project's "available" milestones are its
 * own and its groups' (`Project#ancestors_milestones`, `MilestonesFinder` with `include_ancestors`).
 * `version`: changes.ts `structureVersion`; a milestone by id (every issue record with one shows
 * it) is remembered while it stays: no issue write changes a milestone or its owner's path.
 */
export function milestoneTable(db: Db, version: () => number) {
  const insert = db.prepare(
    `INSERT INTO milestones (iid, project_id, group_id, title, description, state, start_date, due_date, created_at, updated_at)
     VALUES (@iid, @project_id, @group_id, @title, @description, @state, @start_date, @due_date, @created_at, @updated_at)`,
  )
  const nextIid = db.prepare('SELECT COALESCE(MAX(iid), 0) + 1 AS iid FROM milestones WHERE project_id = ?')
  const nextGroupIid = db.prepare(
    'SELECT COALESCE(MAX(iid), 0) + 1 AS iid FROM milestones WHERE group_id = ?',
  )
  const byId = db.prepare(`${ROW} WHERE m.id = ?`)
  const byTitle = db.prepare(`${ROW} WHERE m.project_id = ? AND m.title = ?`)
  const groupByTitle = db.prepare(`${ROW} WHERE m.group_id = ? AND m.title = ?`)
  const ofProject = db.prepare(`${ROW} WHERE m.project_id = ? ORDER BY m.id`)
  const ofGroups = db.prepare(
    `${ANCESTOR_GROUPS} ${ROW} WHERE m.group_id IN (SELECT id FROM chain) ORDER BY m.id`,
  )
  const ofGroup = db.prepare(`${ROW} WHERE m.group_id = ? ORDER BY m.id`)
  const available = db.prepare(
    `${ANCESTOR_GROUPS} ${ROW} WHERE m.project_id = ? OR m.group_id IN (SELECT id FROM chain) ORDER BY m.id`,
  )
  const availableByTitle = db.prepare(
    `${ANCESTOR_GROUPS} ${ROW} WHERE m.title = ? AND (m.project_id = ? OR m.group_id IN (SELECT id FROM chain))
     ORDER BY m.project_id IS NULL, m.id LIMIT 1`,
  )
  const moveIssues = db.prepare('UPDATE issues SET milestone_id = ? WHERE milestone_id = ?')
  const toGroup = db.prepare(
    `UPDATE milestones SET project_id = NULL, group_id = @group_id, iid = (SELECT COALESCE(MAX(iid), 0) + 1
       FROM milestones WHERE group_id = @group_id) WHERE id = @id`,
  )
  const moveEvents = db.prepare(
    'UPDATE resource_milestone_events SET milestone_id = ? WHERE milestone_id = ?',
  )
  const update = db.prepare(
    `UPDATE milestones SET title = @title, description = @description, state = @state, start_date = @start_date,
       due_date = @due_date, updated_at = @updated_at WHERE id = @id`,
  )
  const remove = db.prepare('DELETE FROM milestones WHERE id = ?')
  const groupMilestonesOnIssues = db.prepare(
    `${ANCESTOR_GROUPS} ${ROW} WHERE m.group_id IN (SELECT id FROM chain)
       AND m.id IN (SELECT milestone_id FROM issues WHERE project_id = ?) ORDER BY m.id`,
  )
  const moveProjectIssues = db.prepare(
    'UPDATE issues SET milestone_id = ? WHERE project_id = ? AND milestone_id = ?',
  )
  return {
    /** A project's milestones, oldest first. */
    ofProject: (projectId: number) => ofProject.all(projectId) as MilestoneRow[],
    /** A group's own milestones, oldest first. */
    ofGroup: (groupId: number) => ofGroup.all(groupId) as MilestoneRow[],
    /** The milestones of a group and its ancestors (`namespaceId`: the group), oldest first. */
    ofGroups: (namespaceId: number) => ofGroups.all(namespaceId) as MilestoneRow[],
    /** A project's own milestones and its groups', oldest first. */
    available: (project: { id: number; namespace_id: number }) =>
      available.all(project.namespace_id, project.id) as MilestoneRow[],
    /** The milestone of this title a project may use: its own, else a group's. */
    availableByTitle: (project: { id: number; namespace_id: number }, title: string) =>
      availableByTitle.get(project.namespace_id, title, project.id) as MilestoneRow | undefined,
    /** Inserts a milestone with the owner's next iid. */
    insert: (m: MilestoneInsert) => {
      const group = m.group_id ?? null
      const next = group === null ? nextIid.get(m.project_id) : nextGroupIid.get(group)
      return Number(insert.run({ ...m, group_id: group, iid: (next as { iid: number }).iid }).lastInsertRowid)
    },
    get: rowCache(version, (id: number) => byId.get(id) as MilestoneRow | undefined),
    /** The project's own milestone of this title. */
    byTitle: (projectId: number, title: string) => byTitle.get(projectId, title) as MilestoneRow | undefined,
    /** The group's own milestone of this title. */
    groupByTitle: (groupId: number, title: string) =>
      groupByTitle.get(groupId, title) as MilestoneRow | undefined,
    /** Hands one milestone's issues and events to another (`Milestones::PromoteService`), before it goes. */
    /** Hands a project milestone to a group with the group's next iid. */
    moveToGroup: (id: number, groupId: number) => toGroup.run({ id, group_id: groupId }),
    merge: (fromId: number, toId: number) => {
      moveIssues.run(toId, fromId)
      moveEvents.run(toId, fromId)
    },
    update: (m: Omit<MilestoneRow, 'iid' | 'project_id' | 'group_id' | 'owner_path' | 'created_at'>) =>
      update.run(m),
    /** Deletes the milestone; its issues keep no milestone (the foreign key sets theirs to null). */
    remove: (id: number) => remove.run(id),
    /**
     * The milestones of a group and the groups above it on a project's issues
     * (`Milestones::TransferService#milestones_to_transfer`).
     */
    groupMilestonesOnIssues: (groupId: number, projectId: number) =>
      groupMilestonesOnIssues.all(groupId, projectId) as MilestoneRow[],
    /** Gives one project's issues with milestone `from` the milestone `to` (or none). */
    moveProjectIssues: (projectId: number, from: number, to: number | null) =>
      moveProjectIssues.run(to, projectId, from),
  }
}
