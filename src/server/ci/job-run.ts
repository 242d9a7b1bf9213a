import { pathPattern } from '../domain/path-pattern.js'
import type { JobDefinition } from './job-definition.js'
import { ANSI, runScript, workspacePath, type OutsideFiles, type Workspace } from './job-script.js'

/** What the emulator knows of a job when it runs it. */
export interface JobRunInput {
  name: string
  /** The job's definition; a job from a seed's `ci_jobs` has none and runs `echo "<name>"`. */
  definition?: JobDefinition
  /** Every variable the job sees, predefined ones included, the stronger ones last. */
  variables: ReadonlyMap<string, string>
  /** File variables' files, by the absolute path their variable holds. */
  files?: OutsideFiles
  startedAt: string
  finishedAt: string
  /** The status an emulator control or the seed's `ci_outcome` imposes, over the script's own. */
  forced?: 'failed'
}

export interface JobRunResult {
  /** The whole trace. */
  trace: string
  status: 'success' | 'failed'
  exitCode: number
  /** A failure that `allow_failure` (true, or its `exit_codes`) lets the pipeline pass. */
  allowedFailure: boolean
  /** The files the job wrote. */
  workspace: Workspace
  /** The workspace paths that go into the artifacts archive; undefined when none is uploaded. */
  artifacts?: string[]
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000)

/** gitlab-runner's section markers (`helpers/trace/section.go`): start, with its heading, and end. */
const sectionStart = (at: string, name: string, heading: string) =>
  `section_start:${seconds(at)}:${name}\r${ANSI.clear}${ANSI.clear}${ANSI.boldCyan}${heading}${ANSI.reset}${ANSI.reset}\n`
const sectionEnd = (at: string, name: string) => `section_end:${seconds(at)}:${name}\r${ANSI.clear}\n`
const section = (start: string, end: string, name: string, heading: string, body: string) =>
  sectionStart(start, name, heading) + body + sectionEnd(end, name)

/**
 * The start of every trace, up to the opening of the script's section: what a running job's trace
 * shows (our runner's name and executor; a real runner names itself and its executor here).
 */
export function traceHeader(startedAt: string): string {
  return (
    `${ANSI.clear}Running with gitlab-runner (gitlab-actions emulator)${ANSI.reset}\n` +
    `${ANSI.clear}  on gitlab-actions-emulator emulator, system ID: s_emulator${ANSI.reset}\n` +
    section(
      startedAt,
      startedAt,
      'prepare_executor',
      'Preparing the "shell" executor',
      `${ANSI.clear}Using Shell (bash) executor...${ANSI.reset}\n`,
    ) +
    section(
      startedAt,
      startedAt,
      'prepare_script',
      'Preparing environment',
      'Running on gitlab-actions-emulator...\n',
    ) +
    sectionStart(startedAt, 'step_script', 'Executing "step_script" stage of the job script')
  )
}

/** Whether `allow_failure` lets a job that ended with `exitCode` fail without failing the pipeline. */
function allowed(definition: JobDefinition | undefined, exitCode: number): boolean {
  const rule = definition?.allow_failure
  if (rule === undefined || rule === false) return false
  return rule === true || rule.exit_codes.includes(exitCode)
}

/** The workspace files matched by the artifact `paths` (a glob, or a file or folder and what is under it). */
function matching(workspace: Workspace, paths: readonly string[]): { found: string[]; lines: string } {
  const found = new Set<string>()
  let lines = ''
  for (const raw of paths) {
    const pattern = workspacePath(raw)
    const test = pattern === undefined ? () => false : pathPattern(pattern)
    const hits = [...workspace.keys()].filter((p) => test(p))
    hits.forEach((p) => found.add(p))
    lines +=
      hits.length > 0
        ? `${raw}: found ${hits.length} matching artifact files and directories${ANSI.reset} \n`
        : `${ANSI.yellow}WARNING: ${raw}: no matching files. Ensure that the artifact path is relative to the working directory${ANSI.reset} \n`
  }
  return { found: [...found].sort(), lines }
}

/**
 * Runs a job as gitlab-runner would lay out its trace: the header, `step_script` (the script),
 * `after_script` (with `CI_JOB_STATUS`), the artifacts upload when `artifacts:when` matches the
 * outcome, and the final `Job succeeded` or `ERROR: Job failed: exit code N`. Deterministic: the
 * same input gives the same trace, section times taken from `startedAt` and `finishedAt`.
 */
export function runJob(input: JobRunInput): JobRunResult {
  const { definition, startedAt: start, finishedAt: end } = input
  const workspace: Workspace = new Map()
  const script = definition?.script ?? [`echo "${input.name.replace(/["\\$`]/g, '\\$&')}"`]
  const ran = runScript(script, input.variables, workspace, input.files)
  let trace = traceHeader(start) + ran.output + sectionEnd(end, 'step_script')
  const exitCode = input.forced === 'failed' && ran.exitCode === 0 ? 1 : ran.exitCode
  const status = exitCode === 0 ? 'success' : 'failed'

  const after = definition?.after_script ?? []
  if (after.length > 0) {
    const vars = new Map(input.variables).set('CI_JOB_STATUS', status)
    const afterRun = runScript(after, vars, workspace, input.files)
    const warning =
      afterRun.exitCode === 0
        ? ''
        : `${ANSI.yellow}WARNING: after_script failed, but job will continue unaffected: exit code ${afterRun.exitCode}${ANSI.reset}\n`
    trace += section(
      end,
      end,
      'after_script',
      'Running after_script',
      `${ANSI.boldGreen}Running after script...${ANSI.reset}\n${afterRun.output}${warning}`,
    )
  }

  let artifacts: string[] | undefined
  const declared = definition?.artifacts
  const when = declared?.when ?? 'on_success'
  if (declared && (when === 'always' || (when === 'on_success') === (status === 'success'))) {
    const { found, lines } = matching(workspace, declared.paths)
    const outcome = status === 'success' ? 'successful' : 'failed'
    const body =
      `${ANSI.boldGreen}Uploading artifacts...${ANSI.reset}\n${lines}` +
      (found.length > 0
        ? `${ANSI.boldGreen}Uploading artifacts as "archive" to coordinator... 201 Created${ANSI.reset}\n`
        : `${ANSI.boldRed}ERROR: No files to upload${ANSI.reset}\n`)
    trace += section(
      end,
      end,
      `upload_artifacts_on_${status === 'success' ? 'success' : 'failure'}`,
      `Uploading artifacts for ${outcome} job`,
      body,
    )
    if (found.length > 0) artifacts = found
  }

  trace += section(
    end,
    end,
    'cleanup_file_variables',
    'Cleaning up project directory and file based variables',
    '',
  )
  trace +=
    status === 'success'
      ? `${ANSI.boldGreen}Job succeeded${ANSI.reset}\n`
      : `${ANSI.boldRed}ERROR: Job failed: exit code ${exitCode}\n${ANSI.reset}\n`
  return {
    trace,
    status,
    exitCode,
    allowedFailure: status === 'failed' && allowed(definition, exitCode),
    workspace,
    ...(artifacts ? { artifacts } : {}),
  }
}
