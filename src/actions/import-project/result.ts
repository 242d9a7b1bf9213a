import type { ProjectImportStatus } from '../../schema/project-import.js'
import type { RetryReport } from './retry.js'
import type { VerifyReport } from './verify.js'

/** The outcome of an import, for outputs and the summary. */
export interface ImportResult {
  record: ProjectImportStatus
  waited: boolean
  elapsedMs: number
  timedOut?: boolean
  /** retry-failed-relations: what became of each failed relation kind. */
  retry?: RetryReport
  /** verify: the comparison, or why it could not be made. */
  verify?: VerifyReport | { error: string }
}
