/** The outcome of one project's export, for outputs, the summary and the manifest. */
export interface ExportResult {
  project: string
  status: 'finished' | 'failed' | 'skipped'
  id?: number
  lastActivityAt?: string
  path?: string
  size?: number
  sha256?: string
  /** With `encrypt-to`: the size and sha256 of the plaintext archive inside the stored `.age` file. */
  plain?: { size: number; sha256: string }
  /** When the archive was stored (the runner's clock), ISO 8601. */
  exportedAt?: string
  uploaded?: boolean
  /** What the upload target answered to a HEAD after the upload (never fails the export). */
  uploadCheck?: string
  elapsedMs: number
  /** Why a project was skipped (`exclude` or `skip-unchanged-since`). */
  reason?: string
  error?: string
}
