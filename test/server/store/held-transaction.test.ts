/*
 * The transaction an in-memory store holds open from its seed snapshot (src/server/store/sqlite.ts
 * `hold`), which a reset rolls back: transactions nest inside it as savepoints, a failure inside
 * one rolls back that one alone, SQLite ending the held one by itself (rolled back or committed)
 * ends the hold (and tells the caches), and foreign keys a transaction deferred are still checked
 * where it ends.
 */
import { changeCounter } from '../../../src/server/store/changes.js'
import { isConstraintError } from '../../../src/server/store/index.js'
import { Connection } from '../../../src/server/store/sqlite.js'

let db: Connection
let rollbacks: number
const names = () => db.prepare('SELECT name FROM child ORDER BY id').pluck().all()

beforeEach(() => {
  db = new Connection(':memory:')
  db.exec(`PRAGMA foreign_keys = ON;
    CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE child (id INTEGER PRIMARY KEY, name TEXT UNIQUE, parent_id INTEGER REFERENCES parent (id));
    INSERT INTO parent VALUES (1);
    INSERT INTO child (name, parent_id) VALUES ('seeded', 1);`)
  rollbacks = 0
  db.onRollback(() => rollbacks++)
  db.hold()
})
afterEach(() => db.close())

const later = new Error('a later step fails')
const insert = (name: string, parent = 1) =>
  db.prepare('INSERT INTO child (name, parent_id) VALUES (?, ?)').run(name, parent)

test('transactions inside it are savepoints: committed to it, and rolled back with it', () => {
  expect([db.held, db.inTransaction]).toEqual([true, false])
  db.transaction(() => {
    expect(db.inTransaction).toBe(true)
    insert('committed')
  })
  expect(db.inTransaction).toBe(false)
  insert('alone')
  expect(names()).toEqual(['seeded', 'committed', 'alone'])
  db.rollBackHeld()
  expect(names()).toEqual(['seeded'])
  expect([db.held, db.inTransaction, rollbacks]).toEqual([true, false, 1])
  // Held again from there.
  insert('next')
  db.rollBackHeld()
  expect(names()).toEqual(['seeded'])
})

test('a transaction that fails inside it rolls back alone', () => {
  insert('kept')
  expect(() =>
    db.transaction(() => {
      insert('undone')
      db.transaction(() => insert('undone too'))
      throw later
    }),
  ).toThrow(later)
  expect(names()).toEqual(['seeded', 'kept'])
  expect(() => insert('kept')).toThrow(/UNIQUE constraint failed/)
  expect(names()).toEqual(['seeded', 'kept'])
  expect([db.held, db.inTransaction]).toEqual([true, false])
  db.rollBackHeld()
  expect(names()).toEqual(['seeded'])
})

test('commitHeld keeps what changed; hold refuses inside a transaction; rollBackHeld inside one', () => {
  insert('kept')
  db.commitHeld()
  expect([db.held, db.inTransaction]).toEqual([false, false])
  expect(() => db.rollBackHeld()).toThrow(/nothing held/)
  expect(() => db.transaction(() => db.hold())).toThrow(/a transaction is open/)
  db.hold()
  insert('undone')
  expect(() => db.transaction(() => db.rollBackHeld())).toThrow(/a transaction is open/)
  db.rollBackHeld()
  expect(names()).toEqual(['seeded', 'kept'])
})

test('SQLite ending the held transaction itself (a conflict resolved by ROLLBACK) ends the hold and tells the caches', () => {
  const count = changeCounter(db)
  insert('gone with it')
  const before = count()
  const conflict = "INSERT OR ROLLBACK INTO child (name, parent_id) VALUES ('seeded', 1)"
  expect(() => db.prepare(conflict).run()).toThrow(/UNIQUE constraint failed/)
  // Held no more (whether SQLite rolled back or committed is not known), and the change counter
  // moved though no row did.
  expect([db.held, db.inTransaction, rollbacks]).toEqual([false, false, 1])
  expect(names()).toEqual(['seeded'])
  expect(count()).toBeGreaterThan(before)
  expect(() => db.rollBackHeld()).toThrow(/nothing held/)
  // What is written next is written (no transaction left open), until a new hold.
  insert('after')
  db.hold()
  insert('undone')
  db.rollBackHeld()
  expect(names()).toEqual(['seeded', 'after'])

  // Inside a transaction: noticed where it ends.
  insert('gone too')
  expect(() =>
    db.transaction(() => {
      insert('inside')
      db.prepare(conflict).run()
    }),
  ).toThrow(/UNIQUE constraint failed/)
  expect([db.held, db.inTransaction]).toEqual([false, false])
  expect(names()).toEqual(['seeded', 'after'])

  // Through exec as well.
  db.hold()
  insert('gone by exec')
  expect(() => db.exec(conflict)).toThrow(/UNIQUE constraint failed/)
  expect([db.held, db.inTransaction, names()]).toEqual([false, false, ['seeded', 'after']])
})

test('a statement that commits the held transaction ends the hold: what it kept is not taken for the start', () => {
  insert('committed by a statement')
  db.prepare('COMMIT').run()
  // A rollback now would undo nothing and hold from here.
  expect(() => db.rollBackHeld()).toThrow(/nothing held/)
  expect([db.held, db.inTransaction, rollbacks]).toEqual([false, false, 1])
  expect(names()).toEqual(['seeded', 'committed by a statement'])

  db.hold()
  insert('then by exec')
  db.exec('END')
  insert('written after it')
  expect([db.held, db.inTransaction]).toEqual([false, false])
  expect(() => db.commitHeld()).not.toThrow()
  expect(names()).toEqual(['seeded', 'committed by a statement', 'then by exec', 'written after it'])
})

test('foreign keys a transaction deferred are checked where it ends, and checked at once again after', () => {
  // A child before its parent: fine once the transaction ends with both.
  db.transaction(() => {
    db.deferForeignKeys()
    insert('early', 2)
    db.prepare('INSERT INTO parent VALUES (2)').run()
  })
  expect(names()).toEqual(['seeded', 'early'])
  // A parent still missing at the end: SQLite's own error, and nothing of the transaction stays.
  let thrown: unknown
  try {
    db.transaction(() => {
      db.deferForeignKeys()
      db.transaction(() => insert('orphan', 3))
    })
  } catch (err) {
    thrown = err
  }
  expect(String(thrown)).toMatch(/FOREIGN KEY constraint failed/)
  expect(isConstraintError(thrown)).toBe(true)
  expect(names()).toEqual(['seeded', 'early'])
  // The deferral ended with its transaction.
  expect(db.prepare('PRAGMA defer_foreign_keys').pluck().get()).toBe(0)
  expect(() => insert('orphan', 3)).toThrow(/FOREIGN KEY constraint failed/)
  expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
  db.rollBackHeld()
  expect(names()).toEqual(['seeded'])
})
