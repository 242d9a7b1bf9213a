import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { openDb, type Db } from '../../../src/server/store/db.js'
import { migrations } from '../../../src/server/store/migrations.js'
import { Connection } from '../../../src/server/store/sqlite.js'

/*
 * Start-up time (db.ts, migrated-image.ts, sqlite.ts): the first `:memory:` store of a process is
 * migrated and its image kept, in Node's compile cache directory too where that is on; later ones
 * start from a copy of it; statements compile on their first run. A copy must be the migrated
 * schema exactly, with its `user_version`, and share nothing with the first store or the next; an
 * image SQLite cannot read is replaced; a statement's SQL error still shows, on its first run.
 */

const schema = (db: Db) =>
  db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
const version = (db: Db) => db.prepare('PRAGMA user_version').pluck().get()

describe('in-memory stores', () => {
  it('start from the migrated schema, each with rows of its own', () => {
    const first = openDb(':memory:')
    const second = openDb(':memory:')
    const dir = mkdtempSync(join(tmpdir(), 'gla-image-'))
    // A directory's store is migrated statement by statement: the reference for the schema.
    const file = openDb(dir)
    try {
      expect(version(second)).toBe(migrations.length)
      expect(schema(second)).toEqual(schema(file))
      expect(schema(first)).toEqual(schema(file))
      first
        .prepare(
          "INSERT INTO users (username, name, email, created_at) VALUES ('one', 'One', 'one@x', '2026-01-01')",
        )
        .run()
      const third = openDb(':memory:')
      expect(second.prepare('SELECT count(*) FROM users').pluck().get()).toBe(0)
      expect(third.prepare('SELECT count(*) FROM users').pluck().get()).toBe(0)
      expect(first.prepare('SELECT count(*) FROM users').pluck().get()).toBe(1)
      // Foreign keys are on in a copy, as in a migrated store (a connection's setting, not the image's).
      expect(third.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1)
      third.close()
    } finally {
      first.close()
      second.close()
      file.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the image in the compile cache directory', () => {
  const db = resolve(__dirname, '../../../src/server/store/db.ts')
  // A process that opens one in-memory store and prints its user_version and user count.
  const openOne = (cache: string) =>
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openDb } = await import(${JSON.stringify(db)}); const db = openDb(':memory:');` +
          `console.log(db.prepare('PRAGMA user_version').pluck().get(), db.prepare('SELECT count(*) FROM users').pluck().get())`,
      ],
      { env: { ...process.env, NODE_COMPILE_CACHE: cache }, encoding: 'utf8' },
    ).trim()

  it('is written by the first process, read by the next, and replaced when SQLite cannot read it', () => {
    const cache = mkdtempSync(join(tmpdir(), 'gla-image-cache-'))
    const images = () =>
      readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.includes('gitlab-actions-store-'),
      )
    try {
      expect(openOne(cache)).toBe(`${migrations.length} 0`)
      expect(images()).toHaveLength(1)
      const file = join(cache, images()[0]!)
      const image = new DatabaseSync(file, { readOnly: true })
      expect(image.prepare('PRAGMA user_version').get()).toEqual({ user_version: migrations.length })
      image.close()
      // Read by the next process: one whose image holds a row is seen to start from it.
      const marked = new DatabaseSync(file)
      marked.exec(
        "INSERT INTO users (username, name, email, created_at) VALUES ('m', 'M', 'm@x', '2026-01-01')",
      )
      marked.close()
      expect(openOne(cache)).toBe(`${migrations.length} 1`)
      writeFileSync(file, 'not a database')
      expect(openOne(cache)).toBe(`${migrations.length} 0`)
      expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3')
    } finally {
      rmSync(cache, { recursive: true, force: true })
    }
  })

  it('is read from there for each new store, not held in the process', () => {
    const cache = mkdtempSync(join(tmpdir(), 'gla-image-cache-'))
    try {
      // The image goes after the first store: the second finds none, so it migrates and writes it again.
      const out = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const { openDb } = await import(${JSON.stringify(db)});` +
            `const { readdirSync, rmSync } = await import('node:fs');` +
            `const dir = process.getBuiltinModule('node:module').getCompileCacheDir();` +
            `const images = () => readdirSync(dir).filter((f) => f.startsWith('gitlab-actions-store-'));` +
            `openDb(':memory:'); const first = images(); for (const f of first) rmSync(dir + '/' + f);` +
            `const second = openDb(':memory:');` +
            `console.log(first.length, images().length, second.prepare('PRAGMA user_version').pluck().get())`,
        ],
        { env: { ...process.env, NODE_COMPILE_CACHE: cache }, encoding: 'utf8' },
      ).trim()
      expect(out).toBe(`1 1 ${migrations.length}`)
    } finally {
      rmSync(cache, { recursive: true, force: true })
    }
  })
})

describe('statements', () => {
  it('compile on their first run, where an error in the SQL shows', () => {
    const db = new Connection(':memory:')
    try {
      const bad = db.prepare('SELECT nope FROM missing')
      expect(() => bad.get()).toThrow(/no such table: missing/)
      // Made before its table exists, run after: the table it finds is the one there at the run.
      const later = db.prepare('SELECT n FROM t ORDER BY n').pluck()
      db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (2), (1)')
      expect(later.all()).toEqual([1, 2])
      expect(db.prepare('SELECT n, n * 10 AS m FROM t WHERE n = @n').raw().get({ n: 2, extra: 'x' })).toEqual(
        [2, 20],
      )
    } finally {
      db.close()
    }
  })
})
