import type { Migration } from '../migration.js'

/**
 * Migration 19: labels and milestones owned by a group (GitLab's `GroupLabel` and group
 * milestones: `labels.group_id`, `milestones.group_id`), beside the project-owned ones; exactly one
 * owner each. SQLite cannot relax `project_id`'s NOT NULL in place, so both tables are rebuilt as its
 * documentation's 12 steps say (new table, copy, drop, rename), with foreign keys off so that dropping
 * the old tables does not cascade to `issue_labels`, `label_subscriptions` or `issues.milestone_id`.
 * Group milestones number their iids per group. `done` skips a store that has the columns already
 * (one whose `user_version` was set back, as pipeline-tags.test.ts does).
 */
const migration: Migration = {
  foreignKeysOff: true,
  done: `SELECT 1 FROM pragma_table_info('labels') WHERE name = 'group_id'`,
  sql: `
  CREATE TABLE labels_019 (
    id INTEGER PRIMARY KEY,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    color TEXT NOT NULL,
    description TEXT,
    priority INTEGER,
    created_at TEXT NOT NULL,
    CHECK ((project_id IS NULL) <> (group_id IS NULL)),
    UNIQUE (project_id, title),
    UNIQUE (group_id, title)
  );
  INSERT INTO labels_019 (id, project_id, group_id, title, color, description, priority, created_at)
    SELECT id, project_id, NULL, title, color, description, priority, created_at FROM labels;
  DROP TABLE labels;
  ALTER TABLE labels_019 RENAME TO labels;

  CREATE TABLE milestones_019 (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    description TEXT,
    state TEXT NOT NULL DEFAULT 'active',
    start_date TEXT,
    due_date TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK ((project_id IS NULL) <> (group_id IS NULL)),
    UNIQUE (project_id, title),
    UNIQUE (group_id, title)
  );
  INSERT INTO milestones_019 (id, iid, project_id, group_id, title, description, state, start_date, due_date,
      created_at, updated_at)
    SELECT id, iid, project_id, NULL, title, description, state, start_date, due_date, created_at, updated_at
    FROM milestones;
  DROP TABLE milestones;
  ALTER TABLE milestones_019 RENAME TO milestones;
`,
}
export default migration
