/*
 * The store writes every parameter `+?` (src/server/store/opaque-parameters.ts): with a bare `?`
 * compared in the WHERE of a join, node:sqlite's SQLite compiles the statement again on every run.
 * SQLite calls the authorizer while it compiles, so counting its calls shows each compilation.
 */
import { constants, DatabaseSync } from 'node:sqlite'
import { opaqueParameters } from '../../../src/server/store/opaque-parameters.js'
import { Connection } from '../../../src/server/store/sqlite.js'

const SCHEMA = `CREATE TABLE a (id INTEGER PRIMARY KEY, n INTEGER, s TEXT);
  CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id));
  CREATE INDEX a_by_n ON a(n);
  INSERT INTO a VALUES (1, 5, 'x'), (2, 6, 'y'), (3, NULL, '?');
  INSERT INTO b VALUES (1, 1), (2, 2)`
const JOIN = 'SELECT a.s FROM a JOIN b ON b.a_id = a.id WHERE a.id = ?'

/** Compilations of `sql` over three runs with different bindings, after the first. */
function recompilations(db: DatabaseSync, sql: string): number {
  let calls = 0
  db.setAuthorizer(() => {
    calls++
    return constants.SQLITE_OK
  })
  const stmt = db.prepare(sql)
  const perCompile = calls
  calls = 0
  for (const id of [1, 2, 1]) stmt.get(id)
  db.setAuthorizer(null)
  return calls / perCompile
}

describe('opaqueParameters', () => {
  test('puts + before every kind of parameter', () => {
    expect(
      opaqueParameters(
        'SELECT * FROM t WHERE a = ? AND b IN (?, ?2) AND c = @c AND d = :d AND e = $e LIMIT ? OFFSET ?',
      ),
    ).toBe(
      'SELECT * FROM t WHERE a = +? AND b IN (+?, +?2) AND c = +@c AND d = +:d AND e = +$e LIMIT +? OFFSET +?',
    )
    expect(opaqueParameters('INSERT INTO t (a, b) VALUES (?, @b)')).toBe(
      'INSERT INTO t (a, b) VALUES (+?, +@b)',
    )
  })

  test('leaves literals, quoted names, comments and parameters already written +? as they are', () => {
    const sql = `SELECT '?', 'it''s ?', "q?", [r?], \`s?\`, json_extract(x, '$.a') -- ? @c
      /* ? :d */ FROM t WHERE a = +? AND b = ?`
    expect(opaqueParameters(sql)).toBe(sql.replace('b = ?', 'b = +?'))
    expect(opaqueParameters("SELECT 'unterminated ?")).toBe("SELECT 'unterminated ?")
  })

  test('answers as the bare parameters do, index lookups included', () => {
    const db = new DatabaseSync(':memory:')
    db.exec(SCHEMA)
    const same = (sql: string, ...args: (string | number | null | Uint8Array)[]) =>
      expect(db.prepare(opaqueParameters(sql)).all(...args)).toEqual(db.prepare(sql).all(...args))
    same('SELECT id FROM a WHERE n = ?', '5') // the column's affinity applies to the text '5' in both
    same('SELECT id FROM a WHERE n > ? ORDER BY id', 5.5)
    same('SELECT ? AS v, typeof(?) AS t', null, null)
    same('SELECT ? AS v, typeof(?) AS t', new Uint8Array([1, 2]), new Uint8Array([1, 2]))
    same('SELECT ? AS v, typeof(?) AS t', '007', '007')
    same(JOIN, 2)
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${opaqueParameters('SELECT s FROM a WHERE n = ?')}`).all()
    expect(plan.map((row) => row.detail)).toEqual(['SEARCH a USING INDEX a_by_n (n=?)'])
    db.close()
  })

  test('a join with +? is compiled once; with a bare ? it is compiled again on every run', () => {
    const db = new DatabaseSync(':memory:')
    db.exec(SCHEMA)
    expect(recompilations(db, JOIN)).toBe(3)
    expect(recompilations(db, opaqueParameters(JOIN))).toBe(0)
    db.close()
  })

  test("the store's connection prepares every statement with +?", () => {
    const prepare = jest.spyOn(DatabaseSync.prototype, 'prepare')
    const db = new Connection(':memory:')
    db.exec(SCHEMA)
    expect(db.prepare(JOIN).get(2)).toEqual({ s: 'y' })
    expect(prepare).toHaveBeenLastCalledWith(opaqueParameters(JOIN))
    prepare.mockRestore()
    db.close()
  })
})
