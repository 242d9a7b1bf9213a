/**
 * Migration 2: what hangs off an issue: notes, to-dos, timelogs, incident metric images,
 * and the epic an issue was promoted to. Every child row goes with its issue (ON DELETE CASCADE),
 * so deleting an issue or resetting the store leaves nothing behind.
 */
export default `
  ALTER TABLE issues ADD COLUMN promoted_to_epic_id INTEGER REFERENCES epics(id) ON DELETE SET NULL;
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    author_id INTEGER NOT NULL REFERENCES users(id),
    body TEXT NOT NULL,
    system INTEGER NOT NULL DEFAULT 0,
    internal INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX notes_by_issue ON notes(issue_id, created_at, id);
  CREATE TABLE todos (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    author_id INTEGER NOT NULL REFERENCES users(id),
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX todos_by_user ON todos(user_id, issue_id, state);
  CREATE TABLE timelogs (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    time_spent INTEGER NOT NULL,
    summary TEXT,
    spent_at TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX timelogs_by_issue ON timelogs(issue_id);
  CREATE TABLE metric_images (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    url TEXT,
    url_text TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX metric_images_by_issue ON metric_images(issue_id, created_at, id);
  `
