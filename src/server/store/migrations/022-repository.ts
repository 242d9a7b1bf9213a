import type { Migration } from '../migration.js'

/**
 * Migration 22: the repository API. `git_objects` now holds files too: blobs, the trees of commits
 * made through the API and annotated tags (a rebuild, as SQLite cannot change a CHECK; nothing
 * references the table). `protected_branches` is GitLab's table of the same name with its access
 * levels folded in (one level each for push, merge and unprotect, as the API's
 * `push_access_level`/`merge_access_level`/`unprotect_access_level` set them). `annotated_tags`
 * names the tag object of a tag created with a `message`; `project_refs` keeps the commit it peels
 * to, which pipelines read. `project_commits` lists the commits made in (or imported into) each
 * project: the pool is shared, and a SHA resolves only in the project that has it. `done` finds the rebuilt CHECK, so a store whose `user_version` was set
 * back skips it.
 */
const repository: Migration = {
  foreignKeysOff: true,
  done: "SELECT 1 FROM sqlite_master WHERE name = 'git_objects' AND sql LIKE '%''blob''%'",
  sql: `
    CREATE TABLE git_objects_022 (
      sha TEXT PRIMARY KEY,
      type TEXT NOT NULL CHECK (type IN ('commit', 'tree', 'blob', 'tag')),
      body BLOB NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO git_objects_022 (sha, type, body) SELECT sha, type, body FROM git_objects;
    DROP TABLE git_objects;
    ALTER TABLE git_objects_022 RENAME TO git_objects;
    CREATE TABLE IF NOT EXISTS protected_branches (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      push_access_level INTEGER NOT NULL,
      merge_access_level INTEGER NOT NULL,
      unprotect_access_level INTEGER NOT NULL,
      allow_force_push INTEGER NOT NULL DEFAULT 0,
      code_owner_approval_required INTEGER NOT NULL DEFAULT 0,
      UNIQUE (project_id, name)
    );
    CREATE TABLE IF NOT EXISTS project_commits (
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      sha TEXT NOT NULL,
      PRIMARY KEY (project_id, sha)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS annotated_tags (
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      tag_sha TEXT NOT NULL,
      PRIMARY KEY (project_id, name)
    );
  `,
}
export default repository
