/*
 * `changeCounter` asks SQLite's `total_changes()` again only after a call that may have written
 * (src/server/store/sqlite.ts counts them), so every way a row can change must move it: a write
 * missed here would leave every response and row cache serving what the store no longer holds.
 */
import { changeCounter } from '../../../src/server/store/changes.js'
import { Connection } from '../../../src/server/store/sqlite.js'

let db: Connection
let count: () => number

beforeEach(() => {
  db = new Connection(':memory:')
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
  count = changeCounter(db)
})
afterEach(() => db.close())

test('a SELECT leaves the count where it was', () => {
  const before = count()
  db.prepare('SELECT * FROM t').all()
  db.prepare('  select count(*) FROM t').get()
  expect(count()).toBe(before)
})

test('a write through run(), get() or all() of a statement moves the count', () => {
  let last = count()
  db.prepare('INSERT INTO t (v) VALUES (?)').run('a')
  expect(count()).toBe(last + 1)
  last = count()
  db.prepare("INSERT INTO t (v) VALUES ('b') RETURNING id").get()
  expect(count()).toBe(last + 1)
  last = count()
  db.prepare("WITH x AS (SELECT 'c' AS v) INSERT INTO t (v) SELECT v FROM x RETURNING id").all()
  expect(count()).toBe(last + 1)
  last = count()
  db.prepare('UPDATE t SET v = ?').run('z')
  expect(count()).toBe(last + 3)
})

test('a write through exec() or inside a transaction moves the count', () => {
  let last = count()
  db.exec("INSERT INTO t (v) VALUES ('a'); INSERT INTO t (v) VALUES ('b')")
  expect(count()).toBe(last + 2)
  last = count()
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
  db.transaction(() => {
    insert.run('c')
    expect(count()).toBe(last + 1)
    insert.run('d')
  })
  expect(count()).toBe(last + 2)
})
