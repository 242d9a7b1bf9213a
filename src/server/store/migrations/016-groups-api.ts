/**
 * Migration 16: groups made, marked for deletion and shared through the API.
 * - `group_deletion_schedules`: a group marked for deletion (`marked_for_deletion_on`, the day it was
 *   marked, and who marked it), as GitLab's `group_deletion_schedules`; a group without a row is not marked.
 * - `group_group_links`: a group shared with another (`POST /groups/:id/share`), as GitLab's table of
 *   the name: the invited group's members reach the shared group up to `group_access`.
 * `IF NOT EXISTS`: a store whose `user_version` was set back (as pipeline-tags.test.ts does) applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS group_deletion_schedules (
    group_id INTEGER PRIMARY KEY REFERENCES namespaces(id) ON DELETE CASCADE,
    marked_for_deletion_on TEXT NOT NULL,
    deleting_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL
  );
  CREATE TABLE IF NOT EXISTS group_group_links (
    shared_group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
    shared_with_group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
    group_access INTEGER NOT NULL,
    expires_at TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (shared_group_id, shared_with_group_id)
  );
  CREATE INDEX IF NOT EXISTS group_group_links_by_invited ON group_group_links(shared_with_group_id);
`
