import type { Db } from './db.js'

/** What the instance holds, as the emulator page shows it. */
export interface InstanceCounts {
  users: number
  groups: number
  projects: number
  issues: number
  pipelines: number
}

/** The row counts of the emulator page, in one statement (each `COUNT(*)` walks an index, not the rows). */
export function instanceCounts(db: Db): () => InstanceCounts {
  const counts = db.prepare(
    `SELECT (SELECT COUNT(*) FROM users) AS users,
            (SELECT COUNT(*) FROM namespaces WHERE kind = 'group') AS groups,
            (SELECT COUNT(*) FROM projects) AS projects,
            (SELECT COUNT(*) FROM issues) AS issues,
            (SELECT COUNT(*) FROM pipelines) AS pipelines`,
  )
  return () => ({ ...(counts.get() as InstanceCounts) })
}
