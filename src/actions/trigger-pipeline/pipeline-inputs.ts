/*
 * Pipeline inputs (`spec: inputs` of a `.gitlab-ci.yml`) for the trigger: read from the `inputs`
 * input as a YAML or JSON map of typed values, and sent only to a GitLab that takes them.
 *
 * GitLab's doc/api/pipeline_triggers.md ("Trigger a pipeline with a token", history): the `inputs`
 * attribute came in 17.10 behind the `ci_inputs_for_pipelines` flag, off by default; the flag was
 * on by default from 17.11; generally available (flag removed) in 18.1. `POST /projects/:id/pipeline`
 * (`lib/api/ci/helpers/pipelines_helpers.rb`) has the same history. A GitLab before 17.11 drops the
 * parameter without a word (Grape ignores what it does not declare), so the action refuses there.
 */
import type { GitLabClient } from '../../api/client.js'
import { releaseAtLeast } from '../../api/releases.js'
import { InputError } from '../inputs.js'

/** The first release whose trigger API takes `inputs` by default. */
export const INPUTS_SINCE = '17.11'

/** One input's value: GitLab's input types are string, number, boolean and array. */
export type InputValue = string | number | boolean | readonly unknown[]
export type PipelineInputs = Record<string, InputValue>

const NAME = /^[A-Za-z0-9_-]{1,255}$/

/**
 * Parses the `inputs` input: a YAML or JSON map from input names to strings, numbers, booleans or
 * arrays (GitLab's `spec:inputs` types). Values are never echoed in errors. Throws InputError.
 */
export async function pipelineInputs(text: string, name: string): Promise<PipelineInputs> {
  const { parse } = await import('yaml')
  let value: unknown
  try {
    value = parse(text) // JSON is YAML
  } catch {
    value = undefined
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`Input '${name}' must be a YAML or JSON map of input names to values`)
  for (const [key, v] of Object.entries(value)) {
    if (!NAME.test(key))
      throw new InputError(
        `Input '${name}': '${key.slice(0, 60)}' is not an input name (letters, digits, _ and -)`,
      )
    const ok = ['string', 'number', 'boolean'].includes(typeof v) || Array.isArray(v)
    if (!ok)
      throw new InputError(
        `Input '${name}': the value of '${key}' must be a string, number, boolean or array (GitLab's input types)`,
      )
  }
  return value as PipelineInputs
}

/**
 * Why `version` (GitLab's `/version`) cannot take pipeline inputs, or undefined when it can.
 * An unreadable version is given the benefit of the doubt (the caller warns).
 */
export function inputsRefusal(version: string): string | undefined {
  if (releaseAtLeast(version, INPUTS_SINCE)) return undefined
  return (
    `Nothing was triggered: input 'inputs' needs GitLab ${INPUTS_SINCE} or later (pipeline inputs through the ` +
    `trigger API; generally available in 18.1), and this GitLab runs ${version}, which would drop them ` +
    "silently. Remove 'inputs', or pass the values as 'variables'."
  )
}

/**
 * Reads GitLab's version (`GET /version`, with the access token when there is one) and throws
 * the refusal when that release cannot take pipeline inputs, before anything is triggered. A version
 * that cannot be read (no access token: `/version` wants a signed-in user) gets a warning, and the
 * inputs are sent.
 */
export async function checkInputsAccepted(
  client: GitLabClient,
  log: { warning(message: string): void },
  signal?: AbortSignal,
): Promise<void> {
  let version: string
  try {
    version = (await client.version({ signal })).version
  } catch (err) {
    log.warning(
      `Could not read GitLab's version (${(err as Error).message}): 'inputs' are sent without knowing whether ` +
        `this GitLab takes them (${INPUTS_SINCE} or later; an older one ignores them)`,
    )
    return
  }
  const refusal = inputsRefusal(version)
  if (refusal) throw new Error(refusal)
}
