import { DatabaseSync } from 'node:sqlite'
import { join } from 'node:path'

/**
 * Makes the server whose store is in `data` fail every issue line while a project's import runs (its
 * `project_imports` row `started`), as a database timeout would: a trigger on a second connection to
 * the store, so the import ends `finished` with `issues` in `failed_relations`, and a later single
 * relation import of `issues` (the import no longer running) saves them. `remove()` drops the trigger.
 */
export function failIssuesDuringImport(data: string) {
  const db = new DatabaseSync(join(data, 'gitlab.sqlite3'))
  db.exec(`CREATE TRIGGER fail_issues_during_import BEFORE INSERT ON issues
    WHEN EXISTS (SELECT 1 FROM project_imports WHERE project_id = NEW.project_id AND status = 'started')
    BEGIN SELECT RAISE(ABORT, 'canceling statement due to statement timeout'); END`)
  return {
    remove: () => {
      db.exec('DROP TRIGGER IF EXISTS fail_issues_during_import')
      db.close()
    },
  }
}
