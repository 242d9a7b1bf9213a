import type { EmulatorFault, EmulatorFaultInput } from '../../schema/emulator-instruments.js'
import { pathPattern } from './path-pattern.js'

/*
 * Faults on demand (ours; GitLab has none): rules that make matching requests fail as GitLab, its
 * rate limiter or the proxy in front of it would, so that a client's retries can be tested.
 */

export const FAULT_ACTIONS = ['status', 'delay', 'reset', 'slow_body'] as const
export type FaultAction = (typeof FAULT_ACTIONS)[number]
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
/** Rules held at once: each request is checked against every one of them. */
export const MAX_FAULT_RULES = 100
const MAX_DELAY_MS = 600_000

/** A rule as a caller writes it (`POST /-/emulator/faults`, `--faults FILE`, `startServer({ faults })`). */
export type FaultRuleInput = EmulatorFaultInput
/** A rule as listed: every key, null where unset, with its counts. */
export type FaultRule = EmulatorFault

/** A rule that cannot be kept; the message says which key and why (a 400 of the API). */
export class FaultRuleError extends Error {}

const KEYS = new Set([
  'method',
  'route',
  'path',
  'actor',
  'action',
  'status',
  'retry_after',
  'ms',
  'bytes_per_second',
  'times',
  'after',
])
/** The keys only one action takes. */
const ACTION_KEYS: Record<string, FaultAction> = {
  status: 'status',
  ms: 'delay',
  bytes_per_second: 'slow_body',
}

/** A whole number in range; a form's digits count (`status=429`). */
const whole = (where: string, key: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const value = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new FaultRuleError(`${where}${key} must be a whole number from ${min} to ${max}`)
  return value
}
const text = (where: string, key: string, value: unknown, leadingSlash = false) => {
  if (typeof value !== 'string' || value === '' || (leadingSlash && !value.startsWith('/')))
    throw new FaultRuleError(`${where}${key} must be ${leadingSlash ? 'a path starting with /' : 'a string'}`)
  return value
}

/** Checks one rule as written; `where` prefixes messages (`faults[2].`). Throws FaultRuleError. */
export function checkFaultRule(input: unknown, where = ''): FaultRuleInput {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new FaultRuleError(`${where || 'a fault rule '}must be an object with an action`)
  const raw = input as Record<string, unknown>
  for (const key of Object.keys(raw))
    if (!KEYS.has(key))
      throw new FaultRuleError(`${where}${key} is not a fault rule key (${[...KEYS].join(', ')})`)
  const action = raw.action
  if (action === undefined) throw new FaultRuleError(`${where}action is missing`)
  if (!FAULT_ACTIONS.includes(action as FaultAction))
    throw new FaultRuleError(`${where}action must be one of ${FAULT_ACTIONS.join(', ')}`)
  for (const [key, owner] of Object.entries(ACTION_KEYS))
    if (raw[key] !== undefined && owner !== action)
      throw new FaultRuleError(`${where}${key} is only for action ${owner}`)
  const rule: FaultRuleInput = { action: action as FaultAction }
  if (raw.method !== undefined) {
    const method = text(where, 'method', raw.method).toUpperCase()
    if (!METHODS.includes(method))
      throw new FaultRuleError(`${where}method must be one of ${METHODS.join(', ')}`)
    rule.method = method
  }
  if (raw.route !== undefined) rule.route = text(where, 'route', raw.route, true)
  if (raw.path !== undefined) rule.path = text(where, 'path', raw.path, true)
  if (raw.actor !== undefined) rule.actor = text(where, 'actor', raw.actor)
  if (action === 'status') {
    if (raw.status === undefined) throw new FaultRuleError(`${where}status is missing (action status)`)
    rule.status = whole(where, 'status', raw.status, 400, 599)
  }
  if (raw.retry_after !== undefined) {
    if (rule.status !== 429 && rule.status !== 503)
      throw new FaultRuleError(`${where}retry_after is only for status 429 or 503`)
    rule.retry_after = whole(where, 'retry_after', raw.retry_after, 0, 86_400)
  }
  if (action === 'delay') {
    if (raw.ms === undefined) throw new FaultRuleError(`${where}ms is missing (action delay)`)
    rule.ms = whole(where, 'ms', raw.ms, 1, MAX_DELAY_MS)
  }
  if (action === 'slow_body') {
    if (raw.bytes_per_second === undefined)
      throw new FaultRuleError(`${where}bytes_per_second is missing (action slow_body)`)
    rule.bytes_per_second = whole(where, 'bytes_per_second', raw.bytes_per_second, 1)
  }
  if (raw.times !== undefined) rule.times = whole(where, 'times', raw.times, 1)
  if (raw.after !== undefined) rule.after = whole(where, 'after', raw.after, 0)
  return rule
}

/** What a request is matched on. */
export interface FaultTarget {
  method: string
  route: string | null
  path: string
  actor: string | null
}

interface Held {
  rule: FaultRule
  path?: (path: string) => boolean
  /** What the request log shows of a firing (made once per rule). */
  tag: { id: number; action: FaultAction }
}

/**
 * The rules in force, in the order they were added. A request is shown to each rule it fits, in
 * turn: each counts it as matched; the first that has let its `after` matches through and has
 * firings left fires, and the later ones do not see it.
 */
export class FaultRules {
  private held: Held[] = []
  private lastId = 0

  get empty(): boolean {
    return this.held.length === 0
  }

  /** Adds rules (checked already, or checked here), all or none; returns them as listed. */
  add(inputs: readonly unknown[]): FaultRule[] {
    if (inputs.length === 0) throw new FaultRuleError('an empty list: give one rule or more')
    const checked = inputs.map((input, i) => checkFaultRule(input, inputs.length > 1 ? `faults[${i}].` : ''))
    if (this.held.length + checked.length > MAX_FAULT_RULES)
      throw new FaultRuleError(`at most ${MAX_FAULT_RULES} fault rules at once`)
    return checked.map((input) => {
      const id = ++this.lastId
      const rule: FaultRule = {
        id,
        method: input.method ?? null,
        route: input.route ?? null,
        path: input.path ?? null,
        actor: input.actor ?? null,
        action: input.action,
        status: input.status ?? null,
        retry_after: input.retry_after ?? null,
        ms: input.ms ?? null,
        bytes_per_second: input.bytes_per_second ?? null,
        times: input.times ?? null,
        after: input.after ?? 0,
        matched: 0,
        fired: 0,
        remaining: input.times ?? null,
      }
      this.held.push({
        rule,
        ...(input.path ? { path: pathPattern(input.path) } : {}),
        tag: { id, action: input.action },
      })
      return { ...rule }
    })
  }

  list(): FaultRule[] {
    return this.held.map((h) => ({ ...h.rule }))
  }

  /** Removes one rule; false when there is none with that id. */
  remove(id: number): boolean {
    const before = this.held.length
    this.held = this.held.filter((h) => h.rule.id !== id)
    return this.held.length < before
  }

  clear(): void {
    this.held = []
  }

  /** The rule that fires on this request, counted, with its tag; undefined when none does. */
  fire(target: FaultTarget): { rule: FaultRule; tag: { id: number; action: FaultAction } } | undefined {
    for (const h of this.held) {
      const r = h.rule
      if (r.method !== null && r.method !== target.method) continue
      if (r.route !== null && r.route !== target.route) continue
      if (r.actor !== null && r.actor !== target.actor) continue
      if (h.path && !h.path(target.path)) continue
      r.matched++
      if (r.matched <= r.after || r.remaining === 0) continue
      r.fired++
      if (r.remaining !== null) r.remaining--
      return h
    }
    return undefined
  }
}
