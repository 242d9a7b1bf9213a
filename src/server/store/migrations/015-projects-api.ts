/**
 * Migration 15: projects made and changed through the API.
 * - `project_settings`: what `POST`/`PUT /projects` set besides the `projects` row: `topics` (a JSON
 *   array), the feature access levels (`features`, a JSON object of `issues_access_level` and the
 *   like; a level not named is `enabled`), and the delayed deletion (`marked_for_deletion_at`, who
 *   asked). A project without a row has GitLab's defaults.
 * - `project_group_links`: the groups a project is shared with (`POST /projects/:id/share`).
 * `IF NOT EXISTS`: a store whose `user_version` was set back (as pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS project_settings (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    topics TEXT NOT NULL DEFAULT '[]',
    features TEXT NOT NULL DEFAULT '{}',
    marked_for_deletion_at TEXT,
    deleting_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL
  );
  CREATE TABLE IF NOT EXISTS project_group_links (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
    group_access INTEGER NOT NULL,
    expires_at TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (project_id, group_id)
  );
  CREATE INDEX IF NOT EXISTS project_group_links_by_group ON project_group_links(group_id);
`
