import { statSync } from 'node:fs'
import { gitlabUrl, pollIntervalInput, timeoutInput, tokenInput } from '../connection.js'
import {
  anyUrl,
  bool,
  InputError,
  keyValues,
  parseInputs,
  type InputSource,
  type InputTable,
} from '../inputs.js'

/** The inputs of import-project: one table for the runner, the CLI, `--help`, action.yml and docs/actions.md. */
/** A path to a regular file that exists (checked before anything is sent to GitLab). */
function readableFile(text: string, name: string): string {
  let file: ReturnType<typeof statSync> | undefined
  try {
    file = statSync(text)
  } catch {
    file = undefined
  }
  if (!file?.isFile())
    throw new InputError(
      `Input '${name}' must be the path of an export archive; there is ${file ? 'a directory, not a file,' : 'no file'} at '${text}' (relative to ${process.cwd()})`,
    )
  return text
}

export const inputs = {
  'gitlab-url': gitlabUrl,
  token: tokenInput('Token with api scope (Maintainer on the target group)', ['GITLAB_TOKEN']),
  archive: {
    description: 'Export archive (.tar.gz) to upload; or give url, or the s3-* inputs',
    parse: readableFile,
  },
  url: {
    description:
      'Have GitLab fetch the archive from this URL (gzip, with Content-Length); treated as a secret',
    secret: true,
    parse: anyUrl,
  },
  's3-region': { description: 'Object storage region of the archive (with the other s3-* inputs)' },
  's3-bucket': { description: 'Bucket holding the archive' },
  's3-key': { description: 'Key of the archive in the bucket' },
  's3-access-key-id': { description: 'Access key id for the bucket', secret: true },
  's3-secret-access-key': { description: 'Secret access key for the bucket', secret: true },
  path: { description: 'Path of the new project', required: true },
  name: { description: 'Name of the new project (default: path)' },
  namespace: {
    description: "Group or user namespace (id or full path) to import into (default: the token's user)",
  },
  overwrite: { description: 'Overwrite a project with the same path', default: 'false', parse: bool },
  'override-params': {
    description: 'Project attributes that win over the archive: NAME=value lines, or a YAML or JSON map',
    parse: keyValues,
  },
  wait: {
    description: 'Wait for the import to finish, and fail when it fails',
    default: 'true',
    parse: bool,
  },
  timeout: timeoutInput('1h', 'the import'),
  'poll-interval': pollIntervalInput,
  'fail-on-failed-relations': {
    description: 'Fail when the import finished but some relations (issues, merge requests, ...) failed',
    default: 'false',
    parse: bool,
  },
  'retry-failed-relations': {
    description:
      "Re-import each relation kind that failed (issues, merge requests, milestones, ci_pipelines) from the same archive with GitLab's import-relation API (17.1+), wait for each, and report what recovered",
    default: 'false',
    parse: bool,
  },
  verify: {
    description:
      'After the import, compare the archive (issues, notes, labels, milestones, merge requests, members) with what the project holds and report the differences; they fail the step with fail-on-failed-relations',
    default: 'false',
    parse: bool,
  },
  'artifact-name': {
    description: 'Download this workflow artifact first (actions/download-artifact) into artifact-dir',
  },
  'artifact-dir': { description: 'Where artifact-name is downloaded to', default: 'gitlab-imports' },
} satisfies InputTable

/** Output names. */
export const Outputs = {
  ProjectId: 'project-id',
  ProjectPath: 'project-path',
  ImportStatus: 'import-status',
  ImportError: 'import-error',
  FailedRelations: 'failed-relations',
  RecoveredRelations: 'recovered-relations',
  StillFailedRelations: 'still-failed-relations',
  VerifyResult: 'verify-result',
  VerifyDifferences: 'verify-differences',
} as const

export const outputs: Record<(typeof Outputs)[keyof typeof Outputs], string> = {
  'project-id': 'Id of the new project',
  'project-path': 'Full path of the new project',
  'import-status': 'scheduled (wait: false), finished or failed',
  'import-error': "GitLab's import error, when it failed",
  'failed-relations': 'How many relations failed to import (the summary lists them)',
  'recovered-relations': 'Relation kinds retry-failed-relations re-imported, comma-separated',
  'still-failed-relations': 'Relation kinds that failed and were not recovered, comma-separated',
  'verify-result': 'match or differ (verify: true), else empty',
  'verify-differences': 'How many of the compared kinds differ (verify: true), else empty',
}

export type Settings = Awaited<ReturnType<typeof readInputs>>
export type Source = { kind: 'file'; file: string } | { kind: 'url'; url: string } | { kind: 's3' }

/** Parses and checks every input (secrets masked first); exactly one source must be given. */
export async function readInputs(source: InputSource) {
  const s = await parseInputs(inputs, source)
  const s3 = [s.s3Region, s.s3Bucket, s.s3Key, s.s3AccessKeyId, s.s3SecretAccessKey]
  const given = [s.archive !== undefined, s.url !== undefined, s3.some((v) => v !== undefined)].filter(
    Boolean,
  )
  if (given.length !== 1)
    throw new InputError("Give exactly one source: 'archive', 'url', or the s3-* inputs")
  if (s3.some((v) => v !== undefined) && s3.some((v) => v === undefined))
    throw new InputError(
      'An S3 import needs all of s3-region, s3-bucket, s3-key, s3-access-key-id, s3-secret-access-key',
    )
  return s
}
