/** The outcome of one project's export, for outputs and the summary. */
export interface ExportResult {
  project: string
  status: 'finished' | 'failed'
  path?: string
  size?: number
  sha256?: string
  uploaded?: boolean
  /** What the upload target answered to a HEAD after the upload (never fails the export). */
  uploadCheck?: string
  elapsedMs: number
  error?: string
}
