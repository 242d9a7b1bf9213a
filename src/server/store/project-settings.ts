import type { Db } from './db.js'
import type { ProjectRow } from './projects.js'
import { rowCache } from './row-cache.js'

/** A project's settings row (migration 15); `topics` and `features` are JSON. */
export interface ProjectSettingsRow {
  project_id: number
  topics: string
  features: string
  marked_for_deletion_at: string | null
  deleting_user_id: number | null
  /** 1 when whoever reads the project reads its jobs (`public_jobs`, migration 28). */
  public_builds: number
  /** `none`, or `finished` for a fork whose repository was copied, kept after unlinking (migration 31). */
  import_status: string
  /** 1 when the fork's merge requests target the fork itself (`mr_default_target_self`, migration 31). */
  mr_default_target_self: number
  /** A fork's `import_state.correlation_id`: its fork request's `X-Request-Id` (migration 35). */
  import_correlation_id: string | null
}

/** A share of a project with a group (`ProjectGroupLink`). */
export interface ProjectGroupLinkRow {
  id: number
  project_id: number
  group_id: number
  group_access: number
  expires_at: string | null
  created_at: string
}

const CHANGEABLE = [
  'namespace_id',
  'path',
  'full_path',
  'name',
  'description',
  'visibility',
  'archived',
  'default_branch',
] as const

/** Row changes of `projects` that `PUT /projects/:id`, archive, transfer and deletion make. */
export type ProjectChanges = Partial<Pick<ProjectRow, (typeof CHANGEABLE)[number]>>

const changeable = new Set<string>(CHANGEABLE)

/**
 * What the projects API writes: settings, group shares, row changes and the removal of a project
 * with everything under it (child tables go by `ON DELETE CASCADE`; memberships, which name their
 * source without a foreign key, are deleted here).
 */
export function projectSettingsTable(db: Db, version: () => number) {
  const get = db.prepare('SELECT * FROM project_settings WHERE project_id = ?')
  const put = db.prepare(
    `INSERT OR REPLACE INTO project_settings
       (project_id, topics, features, marked_for_deletion_at, deleting_user_id, public_builds,
        import_status, mr_default_target_self, import_correlation_id)
     VALUES (@project_id, @topics, @features, @marked_for_deletion_at, @deleting_user_id, @public_builds,
        @import_status, @mr_default_target_self, @import_correlation_id)`,
  )
  const setPublicBuilds = db.prepare(
    `INSERT INTO project_settings (project_id, public_builds) VALUES (?, ?)
     ON CONFLICT (project_id) DO UPDATE SET public_builds = excluded.public_builds`,
  )
  const keepLatest = db
    .prepare('SELECT keep_latest_artifact FROM project_ci_cd_settings WHERE project_id = ?')
    .pluck()
  const setKeepLatest = db.prepare(
    `INSERT INTO project_ci_cd_settings (project_id, keep_latest_artifact) VALUES (?, ?)
     ON CONFLICT (project_id) DO UPDATE SET keep_latest_artifact = excluded.keep_latest_artifact`,
  )
  const linksOf = db.prepare('SELECT * FROM project_group_links WHERE project_id = ? ORDER BY id')
  const link = db.prepare(
    `INSERT INTO project_group_links (project_id, group_id, group_access, expires_at, created_at)
     VALUES (@project_id, @group_id, @group_access, @expires_at, @created_at)`,
  )
  const unlink = db.prepare('DELETE FROM project_group_links WHERE project_id = ? AND group_id = ?')
  const sharedTo = db.prepare('SELECT * FROM project_group_links WHERE group_id = ?')
  const named = db.prepare('SELECT 1 FROM projects WHERE namespace_id = ? AND name = ? AND id != ?')
  const dropMembers = db.prepare("DELETE FROM members WHERE source_type = 'project' AND source_id = ?")
  const dropProject = db.prepare('DELETE FROM projects WHERE id = ?')
  const exportFiles = db.prepare('SELECT file FROM project_exports WHERE project_id = ? AND file IS NOT NULL')
  const imageIds = db.prepare(
    'SELECT m.id, m.filename FROM metric_images m JOIN issues i ON i.id = m.issue_id WHERE i.project_id = ?',
  )
  const moveIssuesOf = db.prepare(
    'UPDATE issues SET moved_to_id = NULL WHERE moved_to_id IN (SELECT id FROM issues WHERE project_id = ?)',
  )
  const anyLink = db.prepare('SELECT 1 FROM project_group_links LIMIT 1')
  // Most stores share nothing: one remembered look answers every project's access check then.
  const sharing = rowCache(version, (_: 0) => ({ any: anyLink.get() !== undefined }), 1)
  const shares = rowCache(version, (projectId: number) => ({
    links: linksOf.all(projectId) as ProjectGroupLinkRow[],
  }))
  return {
    get: (projectId: number) => get.get(projectId) as ProjectSettingsRow | undefined,
    /** `links`, remembered while `version` stays: every access check of the project reads them. */
    sharesOf: (projectId: number): readonly ProjectGroupLinkRow[] =>
      sharing(0)?.any ? (shares(projectId)?.links ?? []) : [],
    put: (row: ProjectSettingsRow) => put.run(row),
    /** Sets `public_builds` alone (an import, a seed), the other settings kept or defaulted. */
    setPublicBuilds: (projectId: number, on: boolean) => setPublicBuilds.run(projectId, on ? 1 : 0),
    /** `keep_latest_artifact` (migration 46): true unless turned off. */
    keepLatestArtifact: (projectId: number) => (keepLatest.get(projectId) ?? 1) === 1,
    setKeepLatestArtifact: (projectId: number, on: boolean) => setKeepLatest.run(projectId, on ? 1 : 0),
    /** True when another project of the namespace has this name (`validates :name, uniqueness`). */
    nameTaken: (namespaceId: number, name: string, exceptId: number) =>
      named.get(namespaceId, name, exceptId) !== undefined,
    /** The groups a project is shared with, oldest share first. */
    links: (projectId: number) => linksOf.all(projectId) as ProjectGroupLinkRow[],
    /** The shares of projects with one group (its members' access to them). */
    sharedWith: (groupId: number) => sharedTo.all(groupId) as ProjectGroupLinkRow[],
    link: (row: Omit<ProjectGroupLinkRow, 'id'>) => Number(link.run(row).lastInsertRowid),
    unlink: (projectId: number, groupId: number) => Number(unlink.run(projectId, groupId).changes),
    /** Sets the given columns of a project's row; others stay. */
    update: (projectId: number, changes: ProjectChanges) => {
      const keys = Object.keys(changes).filter((k) => changeable.has(k))
      if (keys.length === 0) return
      const sql = `UPDATE projects SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`
      db.prepare(sql).run({ ...changes, id: projectId })
    },
    /** Files kept for a project outside the database: export archives and incident metric images. */
    filesOf: (projectId: number) => ({
      exports: (exportFiles.all(projectId) as { file: string }[]).map((r) => r.file),
      metricImages: imageIds.all(projectId) as { id: number; filename: string }[],
    }),
    /** Removes the project and every row under it; issues of other projects moved into it forget where. */
    remove: (projectId: number) => {
      moveIssuesOf.run(projectId)
      dropMembers.run(projectId)
      dropProject.run(projectId)
    },
  }
}
