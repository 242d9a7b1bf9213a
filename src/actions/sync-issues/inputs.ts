import { gitlabUrl, projectInput, tokenInput } from '../connection.js'
import {
  bool,
  duration,
  InputError,
  list,
  oneOf,
  parseInputs,
  stringMap,
  type InputSource,
  type InputTable,
} from '../inputs.js'

/** `owner/name`, as GitHub spells repositories. */
function repository(text: string, name: string): string {
  if (/^[\w.-]+\/[\w.-]+$/.test(text)) return text
  throw new InputError(`Input '${name}' must be owner/name, got '${text.slice(0, 60)}'`)
}

/** The inputs of sync-issues: one table for the runner, the CLI, `--help`, action.yml and docs/actions.md. */
export const inputs = {
  'gitlab-url': gitlabUrl,
  token: tokenInput(
    'GitLab token with the api scope (Planner or Developer on the project to write issues and notes)',
    ['GITLAB_TOKEN'],
  ),
  project: projectInput(' (where the issues are mirrored)'),
  'github-token': {
    description:
      "GitHub token with issues read/write; the workflow's token by default (outside Actions: $GITHUB_TOKEN)",
    default: '${{ github.token }}',
    cliDefault: '$GITHUB_TOKEN',
    secret: true,
  },
  repository: {
    description: 'GitHub repository owner/name; empty: the current one ($GITHUB_REPOSITORY)',
    env: ['GITHUB_REPOSITORY'],
    required: true,
    parse: repository,
  },
  direction: {
    description:
      'github-to-gitlab, gitlab-to-github, or both (each field from the side that changed it last)',
    default: 'github-to-gitlab',
    parse: oneOf(['github-to-gitlab', 'gitlab-to-github', 'both'] as const),
  },
  mode: {
    description:
      'event (only the issue of an issues/issue_comment event), full (every issue), or auto (event for those events, else full)',
    default: 'auto',
    parse: oneOf(['auto', 'event', 'full'] as const),
  },
  labels: {
    description: 'Label names mapped from GitHub to GitLab: GitHub=GitLab lines, or a YAML or JSON map',
    parse: stringMap,
  },
  'label-prefix': {
    description:
      'Prefix of GitLab labels that mirror GitHub labels (e.g. gh:); other GitLab labels are left alone',
  },
  'user-map': {
    description:
      'GitHub login to GitLab username (YAML or JSON map, or login=username lines); unmapped users are not assigned',
    parse: stringMap,
  },
  'only-labels': {
    description:
      "Mirror only issues that carry one of these labels (one a line, either side's name); an issue that loses them stops syncing. Empty: every issue",
    parse: list,
  },
  comments: {
    description: 'Mirror comments (GitHub comments <-> GitLab notes) as the direction allows',
    default: 'false',
    parse: bool,
  },
  'include-confidential': {
    description:
      'Also mirror confidential GitLab issues and internal notes to GitHub (off: they are counted and left on GitLab)',
    default: 'false',
    parse: bool,
  },
  'dry-run': { description: 'Print the plan and change nothing', default: 'false', parse: bool },
  'github-write-gap': {
    description: "Pause between two GitHub writes (GitHub's secondary rate limits); 90s, 1s, 500ms",
    default: '1s',
    parse: duration,
  },
} satisfies InputTable

/** Output names (a rename is one edit here). */
export const Outputs = {
  Created: 'created',
  Updated: 'updated',
  Closed: 'closed',
  Reopened: 'reopened',
  Commented: 'commented',
  Unchanged: 'unchanged',
  Failed: 'failed',
  SkippedConfidential: 'skipped-confidential',
  Planned: 'planned',
} as const

/** Output descriptions, for action.yml and docs/actions.md. */
export const outputs: Record<(typeof Outputs)[keyof typeof Outputs], string> = {
  created: 'Issues created (on either side)',
  updated: 'Issues updated (fields or sync marker)',
  closed: 'Issues closed',
  reopened: 'Issues reopened',
  commented: 'Comments mirrored',
  unchanged: 'Issue pairs already in step',
  failed: 'Writes that failed (the step fails when this is not 0)',
  'skipped-confidential':
    "Confidential GitLab issues and internal notes not mirrored to GitHub ('include-confidential' off)",
  planned: "Writes planned; with 'dry-run' none of them was applied (the other counts stay 0)",
}

export type Settings = Awaited<ReturnType<typeof readInputs>>

/** Parses and checks every input (tokens masked first). Throws InputError naming the input. */
export async function readInputs(source: InputSource) {
  const settings = await parseInputs(inputs, source)
  let githubToken = settings.githubToken
  if (githubToken.startsWith('${{')) githubToken = source.getEnv('GITHUB_TOKEN') ?? ''
  if (!githubToken)
    throw new InputError(
      source.getEnv('GITHUB_ACTIONS') === 'true'
        ? "Input required and not supplied: github-token (it was empty: pass 'github-token: ${{ github.token }}' or a token with issues read/write)"
        : 'Input required and not supplied: github-token (outside GitHub Actions, set GITHUB_TOKEN or pass --github-token)',
    )
  source.setSecret(githubToken)
  return { ...settings, githubToken }
}
