import { createHash } from 'node:crypto'
import { isHash } from './yaml-documents.js'

/** A job's `environment:` (`Entry::Environment`), as the job definition keeps it. */
export interface JobEnvironment {
  /** As written until the pipeline is planned, then with its variables expanded (`expanded_environment_name`). */
  name: string
  /** `start` unless told. */
  action: string
  /** As written: the runner expands it. */
  url?: string
  deployment_tier?: string
  /** The job the environment's stop plays (`Deployment#stop_action`). */
  on_stop?: string
  /** As written until the pipeline is planned, then with its variables expanded (`expanded_auto_stop_in`). */
  auto_stop_in?: string
}

const KEYS = ['name', 'url', 'action', 'on_stop', 'auto_stop_in', 'kubernetes', 'deployment_tier']
const ACTIONS = ['start', 'stop', 'prepare', 'verify', 'access']
/** `Environment.tiers`. */
const TIERS = ['production', 'staging', 'testing', 'development', 'other']
/** `Gitlab::Regex.environment_name_regex`: no `/` at either end. */
const NAME = /^[a-zA-Z0-9_${}. -]([a-zA-Z0-9_/${}. -]*[a-zA-Z0-9_${}. -])?$/
const NAME_MESSAGE =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"

/** Checks a job's `environment:` (a name, or a hash with one); throws GitLab's first error. */
export function jobEnvironment(value: unknown, where: string): JobEnvironment {
  const at = `${where}:environment`
  if (typeof value === 'string') {
    if (!value) throw new Error(`${at} name can't be blank`)
    if (!NAME.test(value)) throw new Error(`${at} name ${NAME_MESSAGE}`)
    return { name: value, action: 'start' }
  }
  if (!isHash(value)) throw new Error(`${at} config should be a hash or a string`)
  const unknown = Object.keys(value).filter((k) => !KEYS.includes(k))
  if (unknown.length) throw new Error(`${at} config contains unknown keys: ${unknown.join(', ')}`)
  const { name, url, action, deployment_tier: tier, on_stop: onStop, auto_stop_in: autoStopIn } = value
  if (name === undefined || name === null || name === '') throw new Error(`${at} name can't be blank`)
  if (typeof name !== 'string' || !NAME.test(name)) throw new Error(`${at} name ${NAME_MESSAGE}`)
  if (url !== undefined && url !== null) {
    if (typeof url !== 'string') throw new Error(`${at} url should be a string`)
    if (url.length > 255) throw new Error(`${at} url is too long (maximum is 255 characters)`)
  }
  if (action !== undefined && action !== null) {
    if (typeof action !== 'string') throw new Error(`${at} action should be a string`)
    if (!ACTIONS.includes(action))
      throw new Error(`${at} action should be start, stop, prepare, verify, or access`)
  }
  if (onStop !== undefined && onStop !== null && typeof onStop !== 'string')
    throw new Error(`${at} on stop should be a string`)
  // A string, checked as a duration only once its variables are expanded (GitLab 15.4, `validates
  // :auto_stop_in, type: String`): one that is none sets no auto-stop time.
  if (autoStopIn !== undefined && autoStopIn !== null && typeof autoStopIn !== 'string')
    throw new Error(`${at} auto stop in should be a string`)
  if (tier !== undefined && tier !== null && (typeof tier !== 'string' || !TIERS.includes(tier)))
    throw new Error(`${at} deployment tier must be one of ${TIERS.join(', ')}`)
  return {
    name,
    action: typeof action === 'string' ? action : 'start',
    ...(typeof url === 'string' ? { url } : {}),
    ...(typeof tier === 'string' ? { deployment_tier: tier } : {}),
    ...(typeof onStop === 'string' ? { on_stop: onStop } : {}),
    ...(typeof autoStopIn === 'string' ? { auto_stop_in: autoStopIn } : {}),
  }
}

/** `Environment`'s validations of a name (its variables expanded): at most 255, in `environment_name_regex`. */
export const isEnvironmentName = (name: string) => name.length <= 255 && NAME.test(name)

/** `Gitlab::Slug::Environment#generate`: `CI_ENVIRONMENT_SLUG`. */
export function environmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-')
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`
  slug = slug.replace(/-+/g, '-')
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, '')
  // Shortened, with 6 characters of the name's digest so that two names stay apart.
  slug = slug.slice(0, 17)
  if (!slug.endsWith('-')) slug += '-'
  const digest = BigInt(`0x${createHash('sha256').update(name).digest('hex')}`).toString(36)
  return slug + digest.slice(-6)
}

/** `Environment#guess_tier`: the tier of an environment whose job names none. */
export function guessTier(name: string): string {
  if (/(dev|review|trunk)/i.test(name)) return 'development'
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing'
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging'
  if (/(pr(o|)d|live)/i.test(name)) return 'production'
  return 'other'
}
