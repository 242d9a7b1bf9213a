// Apart from safe-extract.ts so that the server can state its limits without loading tar-stream.

export interface ExtractLimits {
  /** Bytes after decompression (GitLab's `max_decompressed_archive_size`, default 25 GiB; 0 = none). */
  maxDecompressedBytes: number
  /** Members allowed in one archive (our guard against entry floods; GitLab has none). */
  maxEntries: number
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxDecompressedBytes: 25_600 * 1024 * 1024,
  maxEntries: 100_000,
}
