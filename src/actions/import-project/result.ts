import type { ProjectImportStatus } from '../../schema/project-import.js'

/** The outcome of an import, for outputs and the summary. */
export interface ImportResult {
  record: ProjectImportStatus
  waited: boolean
  elapsedMs: number
  timedOut?: boolean
}
