/** Migration 1: users, tokens, namespaces, projects, members, labels, milestones, issues and their links. */
export default `
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    email TEXT,
    state TEXT NOT NULL DEFAULT 'active',
    admin INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE TABLE personal_access_tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_digest TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0,
    expires_at TEXT,
    created_at TEXT NOT NULL
  );
  CREATE TABLE namespaces (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('group', 'user')),
    path TEXT NOT NULL,
    full_path TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    parent_id INTEGER REFERENCES namespaces(id),
    owner_id INTEGER REFERENCES users(id),
    visibility TEXT NOT NULL DEFAULT 'private',
    created_at TEXT NOT NULL
  );
  CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
    path TEXT NOT NULL,
    full_path TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    description TEXT,
    visibility TEXT NOT NULL DEFAULT 'private',
    archived INTEGER NOT NULL DEFAULT 0,
    default_branch TEXT,
    creator_id INTEGER REFERENCES users(id),
    ci_config INTEGER NOT NULL DEFAULT 0,
    ci_jobs TEXT NOT NULL DEFAULT '["build"]',
    ci_outcome TEXT NOT NULL DEFAULT 'success',
    ci_job_duration_ms INTEGER NOT NULL DEFAULT 2000,
    created_at TEXT NOT NULL,
    last_activity_at TEXT NOT NULL
  );
  CREATE TABLE project_refs (
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    sha TEXT NOT NULL,
    PRIMARY KEY (project_id, name)
  );
  CREATE TABLE members (
    source_type TEXT NOT NULL CHECK (source_type IN ('namespace', 'project')),
    source_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    access_level INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (source_type, source_id, user_id)
  );
  CREATE INDEX members_by_user ON members(user_id);
  CREATE TABLE labels (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    color TEXT NOT NULL,
    description TEXT,
    priority INTEGER,
    created_at TEXT NOT NULL,
    UNIQUE (project_id, title)
  );
  CREATE TABLE milestones (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    description TEXT,
    state TEXT NOT NULL DEFAULT 'active',
    start_date TEXT,
    due_date TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_id, title)
  );
  CREATE TABLE epics (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    group_id INTEGER NOT NULL REFERENCES namespaces(id),
    title TEXT NOT NULL,
    description TEXT,
    author_id INTEGER REFERENCES users(id),
    created_at TEXT NOT NULL,
    UNIQUE (group_id, iid)
  );
  CREATE TABLE issues (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    description TEXT,
    state TEXT NOT NULL DEFAULT 'opened',
    author_id INTEGER NOT NULL REFERENCES users(id),
    closed_by_id INTEGER REFERENCES users(id),
    closed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
    epic_id INTEGER REFERENCES epics(id) ON DELETE SET NULL,
    confidential INTEGER NOT NULL DEFAULT 0,
    discussion_locked INTEGER,
    issue_type TEXT NOT NULL DEFAULT 'issue',
    due_date TEXT,
    time_estimate INTEGER NOT NULL DEFAULT 0,
    total_time_spent INTEGER NOT NULL DEFAULT 0,
    relative_position INTEGER,
    moved_to_id INTEGER,
    upvotes INTEGER NOT NULL DEFAULT 0,
    downvotes INTEGER NOT NULL DEFAULT 0,
    user_notes_count INTEGER NOT NULL DEFAULT 0,
    weight INTEGER,
    health_status TEXT,
    severity TEXT NOT NULL DEFAULT 'UNKNOWN',
    tasks_total INTEGER NOT NULL DEFAULT 0,
    tasks_done INTEGER NOT NULL DEFAULT 0,
    imported_from TEXT NOT NULL DEFAULT 'none',
    service_desk_reply_to TEXT,
    user_agent TEXT,
    ip_address TEXT,
    UNIQUE (project_id, iid)
  );
  CREATE INDEX issues_by_project_created ON issues(project_id, created_at, id);
  CREATE INDEX issues_by_author ON issues(author_id);
  CREATE TABLE issue_assignees (
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (issue_id, user_id)
  );
  CREATE INDEX issue_assignees_by_user ON issue_assignees(user_id);
  CREATE TABLE issue_labels (
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
    PRIMARY KEY (issue_id, label_id)
  );
  CREATE INDEX issue_labels_by_label ON issue_labels(label_id, issue_id);
  CREATE TABLE subscriptions (
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    subscribed INTEGER NOT NULL,
    PRIMARY KEY (issue_id, user_id)
  );
  CREATE TABLE award_emoji (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (issue_id, user_id, name)
  );
  CREATE TABLE merge_requests (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    description TEXT,
    state TEXT NOT NULL DEFAULT 'opened',
    author_id INTEGER NOT NULL REFERENCES users(id),
    source_branch TEXT NOT NULL,
    target_branch TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    merged_at TEXT,
    closed_at TEXT,
    UNIQUE (project_id, iid)
  );
  CREATE TABLE merge_request_issues (
    merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    closes INTEGER NOT NULL,
    PRIMARY KEY (merge_request_id, issue_id)
  );
  CREATE INDEX merge_request_issues_by_issue ON merge_request_issues(issue_id);
  CREATE TABLE triggers (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    owner_id INTEGER REFERENCES users(id),
    description TEXT NOT NULL,
    token_digest TEXT NOT NULL UNIQUE,
    token_hint TEXT NOT NULL,
    token_encrypted TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expires_at TEXT
  );
  CREATE TABLE project_aliases (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL UNIQUE
  );
  CREATE TABLE emulator_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `
