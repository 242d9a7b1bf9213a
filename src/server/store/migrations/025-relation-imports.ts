/**
 * Migration 25: the trackers of single relation imports (`project_relation_import_trackers` in GitLab,
 * app/models/projects/import_export/relation_import_tracker.rb): one row per `POST /projects/import-relation`,
 * its relation and status. `IF NOT EXISTS` so that a store whose `user_version` was set back applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS relation_import_trackers (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    relation TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'created',
    correlation_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS relation_import_trackers_project ON relation_import_trackers (project_id, id);
`
