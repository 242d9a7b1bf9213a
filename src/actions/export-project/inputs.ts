import { gitlabUrl, pollIntervalInput, timeoutInput, tokenInput } from '../connection.js'
import {
  anyUrl,
  bool,
  InputError,
  list,
  oneOf,
  parseInputs,
  positiveInt,
  type InputSource,
  type InputTable,
} from '../inputs.js'

/** `last-run`, or an ISO 8601 date (`2026-11-01`) or date and time with a zone. */
function sinceInput(text: string, name: string): 'last-run' | Date {
  if (text === 'last-run') return text
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(text)
  const at = new Date(text)
  if (iso && !Number.isNaN(at.getTime())) return at
  throw new InputError(
    `Input '${name}' must be last-run or an ISO 8601 date such as 2026-11-01 or 2026-11-01T10:00:00Z`,
  )
}

/**
 * age recipients, each checked by the age implementation itself (loaded only when the input is set).
 * Throws InputError naming the recipient that is not one.
 */
async function recipientsInput(text: string, name: string): Promise<string[]> {
  const recipients = list(text)
  const { Encrypter } = await import('age-encryption')
  for (const r of recipients)
    try {
      new Encrypter().addRecipient(r)
    } catch {
      throw new InputError(
        `Input '${name}': '${r.length > 60 ? `${r.slice(0, 57)}...` : r}' is not an age recipient (age1...)`,
      )
    }
  return recipients
}

const perMinute = (text: string, name: string) => (text === '0' ? 0 : positiveInt(text, name))

/** The inputs of export-project: one table for the runner, the CLI, `--help`, action.yml and docs/actions.md. */
export const inputs = {
  'gitlab-url': gitlabUrl,
  token: tokenInput('Token with api scope and Maintainer on each project (exports need Maintainer)', [
    'GITLAB_TOKEN',
  ]),
  project: {
    description: 'Project id or full path to export, or several, one per line (or give group)',
    parse: (text: string) => list(text),
  },
  group: { description: 'Export every project of this group (id or full path) that the token can read' },
  'include-subgroups': {
    description: "With group: also the subgroups' projects",
    default: 'true',
    parse: bool,
  },
  'include-archived': { description: 'With group: also archived projects', default: 'false', parse: bool },
  'download-dir': {
    description: 'Directory the archives are downloaded to (created when missing)',
    default: 'gitlab-exports',
  },
  'upload-url': {
    description:
      'Instead of downloading, have GitLab upload the archive to this (pre-signed) URL; one project only. Treated as a secret',
    secret: true,
    parse: anyUrl,
  },
  'upload-method': {
    description: 'HTTP method GitLab uploads with: PUT or POST',
    default: 'PUT',
    parse: oneOf(['PUT', 'POST'] as const),
  },
  concurrency: { description: 'Exports running at once', default: '2', parse: positiveInt },
  'exports-per-minute': {
    description: "Start at most this many exports per minute (GitLab's default limit: 6; 0: no pacing)",
    default: '6',
    parse: perMinute,
  },
  'downloads-per-minute': {
    description: "Start at most this many downloads per minute (GitLab's default limit: 1; 0: no pacing)",
    default: '1',
    parse: perMinute,
  },
  timeout: timeoutInput('1h', 'each export'),
  'poll-interval': pollIntervalInput,
  'list-only': {
    description: 'Only resolve the projects and set the matrix output; export nothing',
    default: 'false',
    parse: bool,
  },
  'artifact-name': {
    description:
      'Upload the download directory as a workflow artifact of this name (actions/upload-artifact)',
  },
  exclude: {
    description:
      'Leave out projects whose full path matches one of these globs, one per line (`*` within a segment, `**` any depth)',
    // One per line only: a glob's `{a,b}` holds commas.
    parse: (text: string) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#')),
  },
  'skip-unchanged-since': {
    description:
      "Skip projects whose last_activity_at is older than this ISO date, or `last-run`: the start of the last successful run (from download-dir's .export-state.json), less an hour",
    parse: sinceInput,
  },
  'encrypt-to': {
    description:
      'age recipients (age1...), one per line: each archive is encrypted as it downloads and stored as .age',
    parse: recipientsInput,
  },
} satisfies InputTable

/** Output names. */
export const Outputs = {
  ArchivePath: 'archive-path',
  ArchiveSize: 'archive-size',
  Sha256: 'sha256',
  ExportStatus: 'export-status',
  Archives: 'archives',
  Matrix: 'matrix',
  Skipped: 'skipped',
  ManifestPath: 'manifest-path',
} as const

export const outputs: Record<(typeof Outputs)[keyof typeof Outputs], string> = {
  'archive-path': 'Path of the (first) downloaded archive',
  'archive-size': 'Its size in bytes',
  sha256: 'Its SHA-256, hex',
  'export-status': 'finished when every export finished (skipped projects aside), else failed',
  archives:
    'JSON list of {project, status (finished, failed or skipped), path, size, sha256, encrypted, reason, error} for every project',
  matrix: 'JSON list of the project paths, for strategy.matrix (fromJSON)',
  skipped: "JSON list of {project, reason} for the projects left out by 'exclude' or 'skip-unchanged-since'",
  'manifest-path': 'Path of manifest.json, written beside the archives',
}

export type Settings = Awaited<ReturnType<typeof readInputs>>

/** Parses and checks every input (secrets masked first). Throws InputError naming the input. */
export async function readInputs(source: InputSource) {
  const s = await parseInputs(inputs, source)
  const projects = s.project ?? []
  if (projects.length === 0 && !s.group) throw new InputError("Give 'project' (one or more) or 'group'")
  if (projects.length > 0 && s.group) throw new InputError("Give either 'project' or 'group', not both")
  if (s.uploadUrl && (s.group || projects.length !== 1))
    throw new InputError(
      "'upload-url' takes exactly one 'project': every export would overwrite the same URL",
    )
  if (s.encryptTo && s.uploadUrl)
    throw new InputError(
      "'encrypt-to' cannot be used with 'upload-url': GitLab uploads the archive itself, unencrypted",
    )
  return s
}
