/**
 * Migration 8: a project's refs are branches or tags (`project.repository.branch_names` and
 * `tag_names`), and one name may be both (GitLab then refuses a pipeline on the short name as
 * `Ref is ambiguous`). Refs stored before are branches, as `refs:` in a seed now means.
 */
export default `
  CREATE TABLE project_refs_by_kind (
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('branch', 'tag')),
    name TEXT NOT NULL,
    sha TEXT NOT NULL,
    PRIMARY KEY (project_id, kind, name)
  );
  INSERT INTO project_refs_by_kind (project_id, kind, name, sha)
    SELECT project_id, 'branch', name, sha FROM project_refs;
  DROP TABLE project_refs;
  ALTER TABLE project_refs_by_kind RENAME TO project_refs;
  CREATE INDEX project_refs_by_name ON project_refs(project_id, name);
`
