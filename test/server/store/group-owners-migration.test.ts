import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { openDb } from '../../../src/server/store/db.js'
import { applyMigration } from '../../../src/server/store/migration.js'
import { migrations } from '../../../src/server/store/migrations.js'
import groupOwners from '../../../src/server/store/migrations/019-group-labels-milestones.js'
import { Connection } from '../../../src/server/store/sqlite.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 19 rebuilds `labels` and `milestones` so that a group may own them: a store made before
 * it keeps its labels, milestones and what points at them (issue labels, subscriptions, issue
 * milestones, events); applied again it changes nothing; and the runner's foreign-keys-off form
 * rolls back a migration that breaks a foreign key.
 */

const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
groups:
  - { path: acme, visibility: private }
projects:
  - path: acme/app
    visibility: private
    labels:
      - { name: bug, color: "#d9534f" }
      - { name: ux, color: "#000000" }
    milestones:
      - { title: v1.0, due_date: 2026-06-30 }
    issues:
      - { title: First, author: root, labels: [bug, ux], milestone: v1.0 }
`
const VERSION = migrations.indexOf(groupOwners) + 1
const file = (dir: string) => join(dir, 'gitlab.sqlite3')
const snapshot = (db: DatabaseSync | Connection) => ({
  labels: db
    .prepare('SELECT id, project_id, title, color, description, priority, created_at FROM labels ORDER BY id')
    .all(),
  milestones: db
    .prepare(
      'SELECT id, iid, project_id, title, state, due_date, created_at, updated_at FROM milestones ORDER BY id',
    )
    .all(),
  issueLabels: db.prepare('SELECT issue_id, label_id FROM issue_labels ORDER BY issue_id, label_id').all(),
  subscriptions: db.prepare('SELECT label_id, user_id FROM label_subscriptions ORDER BY label_id').all(),
  issueMilestones: db.prepare('SELECT id, milestone_id FROM issues ORDER BY id').all(),
})

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-owners-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A store as the server kept it before migration 19: migration 1's tables and `user_version`. */
async function storeBeforeMigration19(): Promise<ReturnType<typeof snapshot>> {
  const t = await startServer(seed, { data: dir })
  const made = await t.http('POST', '/api/v4/projects/acme%2Fapp/labels/bug/subscribe', {
    token: 'glpat-root-token',
  })
  expect(made.status).toBe(201)
  await t.close()
  const db = new DatabaseSync(file(dir))
  db.exec(`
    PRAGMA foreign_keys = OFF;
    BEGIN;
    CREATE TABLE old_labels (id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE, title TEXT NOT NULL,
      color TEXT NOT NULL, description TEXT, priority INTEGER, created_at TEXT NOT NULL, UNIQUE (project_id, title));
    INSERT INTO old_labels SELECT id, project_id, title, color, description, priority, created_at FROM labels;
    DROP TABLE labels;
    ALTER TABLE old_labels RENAME TO labels;
    CREATE TABLE old_milestones (id INTEGER PRIMARY KEY, iid INTEGER NOT NULL,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE, title TEXT NOT NULL,
      description TEXT, state TEXT NOT NULL DEFAULT 'active', start_date TEXT, due_date TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (project_id, title));
    INSERT INTO old_milestones SELECT id, iid, project_id, title, description, state, start_date, due_date,
      created_at, updated_at FROM milestones;
    DROP TABLE milestones;
    ALTER TABLE old_milestones RENAME TO milestones;
    PRAGMA user_version = ${VERSION - 1};
    COMMIT;`)
  const before = snapshot(db)
  expect(
    db.prepare("SELECT COUNT(*) AS n FROM pragma_table_info('labels') WHERE name = 'group_id'").get(),
  ).toEqual({
    n: 0,
  })
  db.close()
  return before
}

describe('migration 19 (group labels and milestones)', () => {
  it('migrates an existing store with its labels, milestones and links intact', async () => {
    const before = await storeBeforeMigration19()
    expect(before.issueLabels).toHaveLength(2)
    expect(before.subscriptions).toHaveLength(1)
    const db = openDb(dir)
    try {
      expect(db.prepare('PRAGMA user_version').pluck().get()).toBe(migrations.length)
      expect(snapshot(db)).toEqual(before)
      expect(db.prepare('SELECT DISTINCT group_id FROM labels').pluck().all()).toEqual([null])
      expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1)
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
      // Exactly one owner: neither or both is refused.
      expect(() =>
        db.prepare("INSERT INTO labels (title, color, created_at) VALUES ('x', '#fff', 'now')").run(),
      ).toThrow(/CHECK constraint failed/)
      // The rebuilt tables still cascade: deleting a label drops its issue links.
      db.prepare("DELETE FROM labels WHERE title = 'ux'").run()
      expect(db.prepare('SELECT COUNT(*) FROM issue_labels').pluck().get()).toBe(1)
    } finally {
      db.close()
    }
    // And the server serves the migrated store.
    const t = await startServer(seed, { data: dir })
    const res = await t.http('GET', '/api/v4/projects/acme%2Fapp/issues/1', { token: 'glpat-root-token' })
    expect(res.body).toMatchObject({
      labels: ['bug'],
      milestone: { title: 'v1.0', project_id: expect.any(Number) },
    })
    await t.close()
  })

  it('is a no-op applied again to a store whose user_version was set back', async () => {
    const t = await startServer(seed, { data: dir })
    await t.http('POST', '/api/v4/groups/acme/labels', {
      token: 'glpat-root-token',
      json: { name: 'group-wide', color: '#fff' },
    })
    await t.close()
    const raw = new DatabaseSync(file(dir))
    const before = raw.prepare('SELECT * FROM labels ORDER BY id').all()
    expect(before.some((l) => l.group_id !== null)).toBe(true)
    // After migration 9's column (not re-appliable); every later migration runs again.
    raw.exec('PRAGMA user_version = 9')
    raw.close()
    const db = openDb(dir)
    try {
      expect(db.prepare('SELECT * FROM labels ORDER BY id').all()).toEqual(before)
      expect(db.prepare('PRAGMA user_version').pluck().get()).toBe(migrations.length)
    } finally {
      db.close()
    }
  })
})

describe('a migration run with foreign keys off', () => {
  it('is rolled back when it leaves a broken foreign key, and foreign keys are on again', () => {
    const db = new Connection(':memory:')
    db.exec('PRAGMA foreign_keys = ON')
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent_id INTEGER REFERENCES parent(id));
      INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1);`)
    const broken = {
      foreignKeysOff: true as const,
      done: 'SELECT 1 WHERE 0',
      sql: 'DELETE FROM parent; CREATE TABLE made (x)',
    }
    expect(() => applyMigration(db, broken, 1)).toThrow(/breaks foreign keys/)
    expect(db.prepare('SELECT COUNT(*) FROM parent').pluck().get()).toBe(1)
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'made'").pluck().get()).toBe(0)
    expect(db.prepare('PRAGMA user_version').pluck().get()).toBe(0)
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1)
    // Dropping a parent table with foreign keys off does not cascade to its children.
    applyMigration(
      db,
      {
        ...broken,
        sql: 'CREATE TABLE parent2 (id INTEGER PRIMARY KEY); INSERT INTO parent2 SELECT id FROM parent; DROP TABLE parent; ALTER TABLE parent2 RENAME TO parent',
      },
      1,
    )
    expect(db.prepare('SELECT COUNT(*) FROM child').pluck().get()).toBe(1)
    expect(db.prepare('PRAGMA user_version').pluck().get()).toBe(1)
    db.close()
  })
})
