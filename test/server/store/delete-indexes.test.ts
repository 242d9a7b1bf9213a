import { openDb } from '../../../src/server/store/db.js'
import deleteIndexes from '../../../src/server/store/migrations/027-delete-indexes.js'

/*
 * Migration 27 indexes the foreign key columns a parent's delete looks up: SQLite's plan for the
 * delete searches those child tables by index instead of scanning them, and the migration applied
 * again changes nothing.
 */
const db = openDb(':memory:')
afterAll(() => db.close())

/** The child tables a delete of one row of `parent` scans whole. */
const scans = (parent: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN DELETE FROM ${parent} WHERE id = 1`).all() as { detail: string }[])
    .map((row) => row.detail)
    .filter((detail) => detail.startsWith('SCAN'))

describe('migration 27: indexes for deletes', () => {
  it.each([
    ['users', ['notes', 'subscriptions', 'personal_access_tokens', 'projects', 'namespaces', 'pipelines']],
    ['namespaces', ['projects', 'namespaces']],
    ['projects', ['todos']],
    ['issues', ['todos']],
    ['pipelines', ['pipelines']],
  ])('a delete from %s searches %j by index', (parent, children) => {
    const scanned = scans(parent)
    for (const child of children) expect(scanned.filter((s) => s.startsWith(`SCAN ${child}`))).toEqual([])
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN DELETE FROM ${parent} WHERE id = 1`).all() as { detail: string }[]
    )
      .map((row) => row.detail)
      .join('\n')
    for (const child of children) expect(plan).toMatch(new RegExp(`SEARCH ${child} USING (COVERING )?INDEX`))
  })

  it('applies again without a change', () => {
    const schema = () =>
      db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all()
    const before = schema()
    db.exec(deleteIndexes)
    expect(schema()).toEqual(before)
  })
})
