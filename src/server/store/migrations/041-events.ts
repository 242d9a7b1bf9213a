/**
 * Migration 41: `events`, what people did in projects as the Events API lists it (GitLab's `events`
 * and `push_event_payloads`). `action` is `Event.actions`' number; `target_type` the target's class
 * (`Issue`, `Note`, `DiscussionNote`, `Milestone`), null with `target_id` for a project created, joined
 * or left. No foreign key on the target: GitLab keeps an event whose target is gone (it is then shown
 * to nobody). A project's or an author's removal takes their events along. Indexes for the three
 * lists: an author's, a project's, newest first. `IF NOT EXISTS`: a store whose `user_version` was
 * set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    action INTEGER NOT NULL,
    target_type TEXT,
    target_id INTEGER,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS events_by_author ON events(author_id, id);
  CREATE INDEX IF NOT EXISTS events_by_project ON events(project_id, id);
  CREATE TABLE IF NOT EXISTS push_event_payloads (
    event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
    commit_count INTEGER NOT NULL,
    action TEXT NOT NULL,
    ref_type TEXT NOT NULL,
    commit_from TEXT,
    commit_to TEXT,
    ref TEXT,
    commit_title TEXT,
    ref_count INTEGER
  );
  `
