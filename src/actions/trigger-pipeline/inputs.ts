import {
  gitlabUrl,
  optionalTokenInput,
  pollIntervalInput,
  projectInput,
  timeoutInput,
  tokenInput,
} from '../connection.js'
import {
  bool,
  byteSize,
  InputError,
  oneOf,
  parseInputs,
  stringMap,
  type InputSource,
  type InputTable,
} from '../inputs.js'
import { pipelineInputs } from './pipeline-inputs.js'

/** `log-lines`: 0 (no log tails) up to 1000. */
function logLines(text: string, name: string): number {
  if (/^\d+$/.test(text) && Number(text) <= 1000) return Number(text)
  throw new InputError(`Input '${name}' must be a whole number from 0 to 1000, got '${text.slice(0, 60)}'`)
}

/** The inputs of trigger-pipeline: one table for the runner, the CLI, `--help`, action.yml and docs/actions.md. */
export const inputs = {
  'gitlab-url': gitlabUrl,
  project: projectInput(' (the project whose pipeline runs)'),
  ref: { description: 'Branch or tag to run the pipeline for', default: 'main' },
  token: tokenInput(
    'Trigger token (glptt-...) or CI/CD job token; sent in the request body, never in a URL',
    ['CI_JOB_TOKEN'],
  ),
  variables: {
    description: 'Pipeline variables: NAME=value lines, or a YAML or JSON map',
    parse: stringMap,
  },
  'mask-variables': {
    description:
      "Mask the values of 'variables' in the log and the job summary (those GitLab could mask: 8 characters or more, no spaces)",
    default: 'true',
    parse: bool,
  },
  wait: {
    description: 'Wait for the pipeline to finish, and fail unless it succeeds',
    default: 'true',
    parse: bool,
  },
  'access-token': optionalTokenInput(
    'Token with read_api (Developer to cancel) used to read the pipeline while waiting, and to cancel it; required when wait is true',
    ['GITLAB_TOKEN'],
  ),
  'on-manual': {
    description: 'When the pipeline stops at a manual job: fail, pass, or wait for someone to run it',
    default: 'fail',
    parse: oneOf(['fail', 'pass', 'wait'] as const),
  },
  timeout: timeoutInput('1h', 'the pipeline'),
  'poll-interval': { ...pollIntervalInput, default: '10s' },
  'cancel-on-abort': {
    description: 'Cancel the GitLab pipeline when the workflow job is cancelled while waiting',
    default: 'true',
    parse: bool,
  },
  inputs: {
    description:
      "Pipeline inputs (the .gitlab-ci.yml's spec:inputs): a YAML or JSON map of names to strings, numbers, booleans or arrays; needs GitLab 17.11 or later",
    parse: pipelineInputs,
  },
  'follow-downstream': {
    description:
      'After the pipeline, follow its child and multi-project pipelines (recursively), wait for them, and report them in the summary',
    default: 'true',
    parse: bool,
  },
  'log-lines': {
    description: 'Lines of each failed job log shown in the summary and the log (0: none)',
    default: '40',
    parse: logLines,
  },
  'download-artifacts': {
    description:
      "Jobs whose artifacts to download when the pipeline ends: one job name per line, or 'job:glob' for some of its files",
    // Lines only: a glob may hold commas (`{a,b}`).
    parse: (text: string) =>
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#')),
  },
  'artifacts-path': {
    description: "Folder the artifacts go to, one subfolder per job (with 'download-artifacts')",
    default: 'gitlab-artifacts',
  },
  'artifacts-max-size': {
    description:
      'Largest artifacts archive of one job, downloaded or extracted (500MiB, 1GiB; bare numbers are bytes)',
    default: '1GiB',
    parse: byteSize,
  },
} satisfies InputTable

/** Output names (a rename is one edit here). */
export const Outputs = {
  PipelineId: 'pipeline-id',
  PipelineIid: 'pipeline-iid',
  WebUrl: 'web-url',
  Status: 'status',
  Sha: 'sha',
  ArtifactsPath: 'artifacts-path',
} as const

/** Output descriptions, for action.yml and docs/actions.md. */
export const outputs: Record<(typeof Outputs)[keyof typeof Outputs], string> = {
  'pipeline-id': 'Id of the triggered pipeline',
  'pipeline-iid': 'Project-level id (iid) of the pipeline',
  'web-url': 'Address of the pipeline on GitLab',
  status: "The pipeline's last status (created when not waiting)",
  sha: 'Commit the pipeline runs for',
  'artifacts-path': "Absolute path of the folder the artifacts went to (with 'download-artifacts')",
}

export type Settings = Awaited<ReturnType<typeof readInputs>>

/**
 * A value GitLab could mask (`app/models/concerns/ci/maskable.rb`, `MASK_AND_RAW_REGEX`
 * `\A\S{8,}\z`): one line of 8 characters or more without whitespace (Ruby's `\s`, ASCII only). An
 * expanded masked variable is held to the Base64 alphabet and `@:.~` besides (`REGEX`); masking the
 * wider set hides more. A shorter value would mask common words in every line.
 */
const MASKABLE = /^[^ \t\r\n\f\v]{8,}$/

/** The values of `variables` to mask (none with 'mask-variables: false'). */
export const variableSecrets = (variables: Record<string, string> | undefined, mask: boolean): string[] =>
  mask ? Object.values(variables ?? {}).filter((v) => MASKABLE.test(v)) : []

/**
 * Everything the action masks in what it shows of GitLab's (job log tails, GitLab's error messages):
 * its two tokens and the values of `variables` GitLab could mask. The job summary is no log the
 * runner masks, and the runner knows nothing of a test's or a local run's output.
 */
export const secretsOf = (s: {
  token: string
  accessToken?: string | undefined
  variables?: Record<string, string> | undefined
  maskVariables: boolean
}): string[] =>
  [s.token, s.accessToken, ...variableSecrets(s.variables, s.maskVariables)].filter((t): t is string => !!t)

/**
 * Parses and checks every input (tokens masked first, then the variables' values, before anything
 * is logged). Throws InputError naming the input.
 */
export async function readInputs(source: InputSource) {
  const settings = await parseInputs(inputs, source)
  const secrets = variableSecrets(settings.variables, settings.maskVariables)
  for (const value of secrets) source.setSecret(value)
  if (settings.wait && !settings.accessToken)
    throw new Error(
      "Input 'access-token' is required when 'wait' is true: a trigger token cannot read the pipeline. " +
        "Give a token with read_api (a project access token is enough), or set 'wait: false'.",
    )
  if (!settings.wait && settings.downloadArtifacts?.length)
    throw new InputError(
      "Input 'download-artifacts' needs 'wait: true': the artifacts are fetched once the pipeline has ended",
    )
  return settings
}
