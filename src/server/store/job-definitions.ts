import type { JobDefinition } from '../ci/job-definition.js'
import type { Db } from './db.js'

/** Each job's resolved definition (migration 21); none for jobs made from a seed's `ci_jobs`. */
export function jobDefinitionTable(db: Db) {
  const put = db.prepare('INSERT OR REPLACE INTO ci_job_definitions (build_id, definition) VALUES (?, ?)')
  const get = db.prepare('SELECT definition FROM ci_job_definitions WHERE build_id = ?').pluck()
  return {
    put: (buildId: number, definition: JobDefinition) => put.run(buildId, JSON.stringify(definition)),
    get: (buildId: number): JobDefinition | undefined => {
      const text = get.get(buildId) as string | undefined
      return text === undefined ? undefined : (JSON.parse(text) as JobDefinition)
    },
  }
}
