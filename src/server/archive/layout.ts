/*
 * GitLab's export archive layout (`lib/gitlab/import_export.rb`, `lib/gitlab/import_export/saver.rb`): the
 * constants the writer and the reader share. Ruby files named below are in `lib/gitlab/import_export/`.
 */

/** `Gitlab::ImportExport.version`, written without a newline; import requires it (`version_checker.rb`). */
export const EXPORT_VERSION = '0.2.4'
/** What `GITLAB_REVISION` says: GitLab writes an 11-character short SHA; ours names the emulator. */
export const EMULATOR_REVISION = 'emulator000'
/** `MAX_JSON_DOCUMENT_SIZE` (`json/ndjson_reader.rb`): the cap on `tree/project.json` and one ndjson line. */
export const MAX_JSON_DOCUMENT_SIZE = 50 * 1024 * 1024

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/**
 * `Gitlab::ImportExport#export_filename`: `%Y-%m-%d_%H-%M-%3N` (milliseconds, no seconds) and the full
 * path with `/` turned into `_`, cut to 51 characters, then `_export.tar.gz`. UTC.
 */
export function exportFileName(now: Date, fullPath: string): string {
  const stamp =
    `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}_` +
    `${pad(now.getUTCHours())}-${pad(now.getUTCMinutes())}-${pad(now.getUTCMilliseconds(), 3)}`
  return `${`${stamp}_${fullPath.replaceAll('/', '_')}`.slice(0, 51)}_export.tar.gz`
}
