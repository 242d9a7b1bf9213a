/*
 * The actions of this repository as data: name, purpose, input table, outputs, and extra wiring
 * steps of their action.yml. The CLI (commands, `--help`), the action.yml generator and docs/actions.md
 * tables all read this list. To add an action (sync-issues): give it `src/actions/<name>/inputs.ts`
 * with `inputs` and `outputs`, and append one entry here; `npm run docs` writes its action.yml.
 * Imports no `@actions/*` and no runner code: the CLI loads it.
 */
import type { InputTable } from './inputs.js'
import * as exporter from './export-project/inputs.js'
import * as importer from './import-project/inputs.js'
import * as syncer from './sync-issues/inputs.js'
import * as trigger from './trigger-pipeline/inputs.js'

/** A step of a composite action, as YAML would hold it. */
export type Step = Record<string, unknown>

export interface ActionEntry {
  name: string
  /** One sentence for action.yml's `description` and the CLI's command list. */
  description: string
  inputs: InputTable
  outputs: Record<string, string>
  /** Steps before the node step (e.g. download-artifact); `if:` conditions on inputs. */
  before?: Step[]
  /** Steps after the node step (e.g. upload-artifact). */
  after?: Step[]
}

export const catalog: ActionEntry[] = [
  {
    name: 'trigger-pipeline',
    description:
      'Trigger a GitLab pipeline with a trigger or job token, wait for it, and fail when it fails; cancels it when the job is cancelled',
    inputs: trigger.inputs,
    outputs: trigger.outputs,
  },
  {
    name: 'export-project',
    description:
      'Export GitLab projects (one, a list, or a whole group) and download the archives, verified and hashed, or have GitLab upload them',
    inputs: exporter.inputs,
    outputs: exporter.outputs,
    after: [
      {
        name: 'Upload the archives as an artifact',
        if: "${{ inputs.artifact-name != '' }}",
        uses: 'actions/upload-artifact@v4',
        with: {
          name: '${{ inputs.artifact-name }}',
          path: "${{ inputs.download-dir || 'gitlab-exports' }}",
          'if-no-files-found': 'error',
        },
      },
    ],
  },
  {
    name: 'import-project',
    description:
      'Import a GitLab project export from a file, a URL or S3, wait for it, and report the relations that failed',
    inputs: importer.inputs,
    outputs: importer.outputs,
    before: [
      {
        name: 'Download the archive artifact',
        if: "${{ inputs.artifact-name != '' }}",
        uses: 'actions/download-artifact@v4',
        with: { name: '${{ inputs.artifact-name }}', path: "${{ inputs.artifact-dir || 'gitlab-imports' }}" },
      },
    ],
  },
  {
    name: 'sync-issues',
    description:
      'Keep GitLab issues in step with GitHub issues (or the other way, or both), idempotently: identity by hidden markers, comments once, no echoes',
    inputs: syncer.inputs,
    outputs: syncer.outputs,
  },
]

/** Commands the root action.yml dispatches to, including those whose entry lives elsewhere. */
export const COMMANDS = ['trigger-pipeline', 'export-project', 'import-project', 'sync-issues'] as const

export const actionNamed = (name: string) => catalog.find((a) => a.name === name)
