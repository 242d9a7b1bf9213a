/*
 * `storeChanges.issueWrite` marks the lists that hold a project's issues as changed: the project's
 * own, each group's above it, and the global one (src/server/store/changes.ts). A project's place
 * can change only by a change no issue write describes, after which its writes mark its new groups.
 */
import { changeCounter, storeChanges } from '../../../src/server/store/changes.js'
import { Connection } from '../../../src/server/store/sqlite.js'

let db: Connection
let changes: ReturnType<typeof storeChanges>

beforeEach(() => {
  db = new Connection(':memory:')
  db.exec(
    "CREATE TABLE projects (id INTEGER PRIMARY KEY, full_path TEXT); INSERT INTO projects VALUES (1, 'acme/app/widgets'), (2, 'labs/other')",
  )
  changes = storeChanges(db, changeCounter(db))
})
afterEach(() => db.close())

const written = (projectId: number) => {
  const since = changes.version()
  changes.issueWrite({ projectId, issues: [] }, () => undefined)
  return (scope: string) => !changes.unchangedSince(since, [scope])
}

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
