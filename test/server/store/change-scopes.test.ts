/*
 * `storeChanges.issueWrite` marks the lists that hold a project's issues as changed: the project's
 * own, each group's above it, and the global one (src/server/store/changes.ts). A project's place
 * can change only by a change no issue write describes, after which its writes mark its new groups.
 * A write no cache reads (`uncachedWrite`) marks nothing.
 */
import { changeCounter, storeChanges } from '../../../src/server/store/changes.js'
import { Connection } from '../../../src/server/store/sqlite.js'

let db: Connection
let changes: ReturnType<typeof storeChanges>

beforeEach(() => {
  db = new Connection(':memory:')
  db.exec(
    `CREATE TABLE projects (id INTEGER PRIMARY KEY, full_path TEXT);
     INSERT INTO projects VALUES (1, 'acme/app/widgets'), (2, 'labs/other'), (3, 'zeta/third');
     CREATE TABLE label_subscriptions (label_id INTEGER, user_id INTEGER)`,
  )
  changes = storeChanges(db, changeCounter(db))
})
afterEach(() => db.close())

const written = (projectId: number, otherProjectIds?: number[]) => {
  const since = changes.version()
  changes.issueWrite(
    { projectId, ...(otherProjectIds ? { otherProjectIds } : {}), issues: [] },
    () => undefined,
  )
  return (scope: string) => !changes.unchangedSince(since, [scope])
}
const subscribe = () => db.prepare('INSERT INTO label_subscriptions VALUES (1, 1)').run()

test("an issue write marks its project's lists, its groups' and the global one, no others", () => {
  const marked = written(1)
  expect(['*', 'project:1', 'group:acme', 'group:acme/app'].map(marked)).toEqual([true, true, true, true])
  expect(['project:2', 'group:labs', 'group:acme/app/widgets'].map(marked)).toEqual([false, false, false])
})

test("after a project moves, its issue writes mark its new groups' lists and no longer its old ones'", () => {
  written(1)
  db.prepare("UPDATE projects SET full_path = 'labs/widgets' WHERE id = 1").run()
  changes.version()
  const marked = written(1)
  expect(['group:labs', 'group:acme', 'group:acme/app'].map(marked)).toEqual([true, false, false])
})

test("an issue write naming other projects marks each one's lists and groups, no third one's", () => {
  const marked = written(1, [2])
  expect(['project:1', 'group:acme/app', 'project:2', 'group:labs'].map(marked)).toEqual([
    true,
    true,
    true,
    true,
  ])
  expect(['project:3', 'group:zeta'].map(marked)).toEqual([false, false])
})

test('an issue write naming a project that is gone is a change to everything', () => {
  const marked = written(1, [4])
  expect(['project:3', 'group:zeta'].map(marked)).toEqual([true, true])
})

test('an uncached write marks nothing, unless it rolls back', () => {
  const since = changes.version()
  const structure = changes.structureVersion()
  changes.uncachedWrite(subscribe)
  expect([changes.version(), changes.structureVersion()]).toEqual([since, structure])
  expect(changes.unchangedSince(since, ['*', 'project:1'])).toBe(true)

  // A change before it is still seen, as one to everything.
  db.prepare("UPDATE projects SET full_path = 'labs/widgets' WHERE id = 1").run()
  changes.uncachedWrite(subscribe)
  expect(changes.unchangedSince(since, ['project:3'])).toBe(false)

  const after = changes.version()
  expect(() =>
    changes.uncachedWrite(() =>
      db.transaction(() => {
        subscribe()
        throw new Error('a later step fails')
      }),
    ),
  ).toThrow('a later step fails')
  expect(changes.unchangedSince(after, ['project:3'])).toBe(false)
})
