/**
 * Migration 27: indexes on foreign key columns that a delete of the parent row otherwise finds by
 * scanning the child table (performance only). SQLite looks up every child table of a deleted row
 * (its `ON DELETE` action, or the check that nothing still refers to it): without an index on the
 * child column that is a full scan per deleted row, so a reset that removes the users, groups,
 * projects, issues and pipelines made through the API scanned `notes`, `subscriptions`, `todos`,
 * `projects`... once for each (`EXPLAIN QUERY PLAN DELETE FROM users WHERE id = ?` listed 20
 * scans). The columns indexed here are those of tables that grow with use; `issues`' own foreign
 * key columns (`milestone_id`, `closed_by_id`, ...) are left out: each index there costs every
 * issue write, and the undo log's updates. `IF NOT EXISTS`, as migration 10.
 */
export default `
  CREATE INDEX IF NOT EXISTS todos_by_issue ON todos(issue_id);
  CREATE INDEX IF NOT EXISTS todos_by_project ON todos(project_id);
  CREATE INDEX IF NOT EXISTS notes_by_author ON notes(author_id);
  CREATE INDEX IF NOT EXISTS subscriptions_by_user ON subscriptions(user_id);
  CREATE INDEX IF NOT EXISTS personal_access_tokens_by_user ON personal_access_tokens(user_id);
  CREATE INDEX IF NOT EXISTS projects_by_namespace ON projects(namespace_id);
  CREATE INDEX IF NOT EXISTS projects_by_creator ON projects(creator_id);
  CREATE INDEX IF NOT EXISTS namespaces_by_parent ON namespaces(parent_id);
  CREATE INDEX IF NOT EXISTS namespaces_by_owner ON namespaces(owner_id);
  CREATE INDEX IF NOT EXISTS pipelines_by_upstream ON pipelines(upstream_pipeline_id);
  CREATE INDEX IF NOT EXISTS pipelines_by_user ON pipelines(user_id);
`
