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
} satisfies InputTable

/** Output names. */
export const Outputs = {
  ArchivePath: 'archive-path',
  ArchiveSize: 'archive-size',
  Sha256: 'sha256',
  ExportStatus: 'export-status',
  Archives: 'archives',
  Matrix: 'matrix',
} as const

export const outputs: Record<(typeof Outputs)[keyof typeof Outputs], string> = {
  'archive-path': 'Path of the (first) downloaded archive',
  'archive-size': 'Its size in bytes',
  sha256: 'Its SHA-256, hex',
  'export-status': 'finished when every export finished, else failed',
  archives: 'JSON list of {project, status, path, size, sha256, error} for every project',
  matrix: 'JSON list of the project paths, for strategy.matrix (fromJSON)',
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
  return s
}
