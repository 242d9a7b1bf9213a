import type { SeedProject } from '../../schema/seed.js'
import { cronTimezoneValid, cronValid } from '../domain/cron-schedule.js'
import type { SeedPath } from './problem.js'

const FULL_REF = /^refs\/(heads|tags)\/\S+/
const KEY_FORMAT = /^[a-zA-Z0-9_]{1,255}$/
/** `Ci::PipelineScheduleInput` and `Ci::PipelineSchedule`'s limits, as the API checks them. */
const MAX_INPUT_VALUE_SIZE = 1024
const INPUTS_LIMIT = 20

/**
 * The short ref a seeded schedule names, as the API expands it: `branch` or `tag` of the project, or
 * `ambiguous` (both) or `unknown` (neither). A fork's repository is its source's: its refs are not
 * known here, so its refs pass (the write keeps an unknown short ref as a branch).
 */
export function seedRefKind(project: SeedProject, ref: string): 'branch' | 'tag' | 'ambiguous' | 'unknown' {
  if (FULL_REF.test(ref)) return ref.startsWith('refs/tags/') ? 'tag' : 'branch'
  const branch = [
    project.default_branch ?? 'main',
    ...(project.branches ?? []),
    ...(project.refs ?? []),
  ].includes(ref)
  const tag = (project.tags ?? []).includes(ref)
  if (project.forked_from !== undefined && !tag) return 'branch'
  return branch && tag ? 'ambiguous' : branch ? 'branch' : tag ? 'tag' : 'unknown'
}

/**
 * A project's `pipeline_schedules:` with the API's checks (`Ci::PipelineSchedules::BaseSaveService` and the
 * model): a ref of the project, a cron line and zone GitLab reads, a listed owner, variable keys of letters,
 * digits and '_', at most 20 inputs, each named (up to 255 characters) with a value whose JSON is at most
 * 1024 characters.
 */
export function checkPipelineSchedules(
  report: (path: SeedPath, message: string) => void,
  at: SeedPath,
  project: SeedProject,
  checkUser: (path: () => SeedPath, username: string | undefined) => void,
): void {
  project.pipeline_schedules?.forEach((schedule, n) => {
    const path: SeedPath = [...at, 'pipeline_schedules', n]
    const kind = seedRefKind(project, schedule.ref)
    if (kind === 'unknown' || kind === 'ambiguous')
      report(
        [...path, 'ref'],
        `is ambiguous (${kind === 'unknown' ? 'no' : 'both a'} branch or tag ${schedule.ref})`,
      )
    if (!cronValid(schedule.cron)) report([...path, 'cron'], 'syntax is invalid')
    if (!cronTimezoneValid(schedule.cron_timezone ?? 'UTC'))
      report([...path, 'cron_timezone'], 'syntax is invalid')
    checkUser(() => [...path, 'owner'], schedule.owner)
    for (const key of Object.keys(schedule.variables ?? {}))
      if (!KEY_FORMAT.test(key))
        report([...path, 'variables', key], "can contain only letters, digits and '_'.")
    const inputs = Object.entries(schedule.inputs ?? {})
    if (inputs.length > INPUTS_LIMIT) report([...path, 'inputs'], `exceeds the limit of ${INPUTS_LIMIT}.`)
    for (const [name, value] of inputs) {
      if (name.trim() === '' || [...name].length > 255)
        report([...path, 'inputs', name], 'name must be 1 to 255 characters')
      if ([...JSON.stringify(value)].length > MAX_INPUT_VALUE_SIZE)
        report([...path, 'inputs', name], `exceeds max serialized size: ${MAX_INPUT_VALUE_SIZE} characters`)
    }
  })
}
