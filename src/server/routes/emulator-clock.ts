import type { EmulatorClockMove } from '../../schema/emulator-clock.js'
import { ClockMoveError, parseInstant, type EmulatorClock } from '../domain/emulator-clock.js'
import { messageError, paramError } from '../grape/gitlab-errors.js'
import { DEFAULT_SETTLE_TIMEOUT_S, UnsettledError, type BackgroundWork } from '../services/background-work.js'
import type { ApiContext } from './context.js'
import { requireAdmin } from './emulator.js'

const MAX_SETTLE_TIMEOUT_S = 300
/** `seconds` of an advance: up to ten years, as a number or its decimal text (a form post). */
const MAX_ADVANCE_S = 10 * 366 * 86_400

type Fields = Record<string, unknown>
const fields = (body: unknown): Fields =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Fields) : {}

/** A number given as one or as decimal text; NaN otherwise. */
const numeric = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN

function instant(v: unknown): Date {
  if (v === undefined || v === null || v === '') throw paramError('time is missing')
  const at = parseInstant(v)
  if (!at) throw paramError('time is invalid')
  return at
}

/** The move a body asks for, checked whole before anything moves (400 in Grape's words). */
function clockMove(body: unknown): (c: EmulatorClock) => void {
  const b = fields(body)
  const action = b.action as EmulatorClockMove['action'] | '' | null | undefined
  if (action === undefined || action === null || action === '') throw paramError('action is missing')
  switch (action) {
    case 'freeze': {
      const at = b.time === undefined ? undefined : instant(b.time)
      return (c) => c.freeze(at)
    }
    case 'unfreeze':
      return (c) => c.unfreeze()
    case 'set': {
      const at = instant(b.time)
      return (c) => c.set(at)
    }
    case 'advance': {
      if (b.seconds === undefined || b.seconds === null || b.seconds === '')
        throw paramError('seconds is missing')
      const s = numeric(b.seconds)
      if (!Number.isFinite(s) || s < 0 || s > MAX_ADVANCE_S) throw paramError('seconds is invalid')
      return (c) => c.advance(Math.round(s * 1000))
    }
    default:
      throw paramError('action does not have a valid value')
  }
}

function timeoutMs(body: unknown): number {
  const t = fields(body).timeout
  if (t === undefined) return DEFAULT_SETTLE_TIMEOUT_S * 1000
  const s = numeric(t)
  if (!Number.isFinite(s) || s <= 0 || s > MAX_SETTLE_TIMEOUT_S) throw paramError('timeout is invalid')
  return s * 1000
}

/**
 * The clock and settle, administrators only (ours; GitLab has none; the contract is
 * docs/server.md's "Clock and settle"):
 * - `GET /-/emulator/clock`: `{now, frozen}`.
 * - `POST /-/emulator/clock` `{action: freeze|unfreeze|set|advance, time, seconds}`: moves it (never
 *   back: 409), runs the pipeline schedules due (one pipeline each), applies the pipeline moves due by
 *   then and waits for export and import jobs;
 *   200 `{clock, ran}`.
 * - `POST /-/emulator/settle` `{timeout}`: all background work to its end, webhook deliveries
 *   included; 200 `{clock, ran}`, 409 (a pipeline waits for a manual job) or 504 (jobs or deliveries
 *   still running after `timeout` seconds) with `pending`.
 */
export function emulatorClockRoutes(api: ApiContext, work: BackgroundWork) {
  const { app } = api
  app.get('/-/emulator/clock', async (req) => {
    requireAdmin(req.actor)
    return work.clock()
  })
  app.post('/-/emulator/clock', async (req, reply) => {
    requireAdmin(req.actor)
    const move = clockMove(req.body)
    try {
      return reply.code(200).send(await work.moveClock(move, DEFAULT_SETTLE_TIMEOUT_S * 1000))
    } catch (err) {
      if (err instanceof ClockMoveError) throw messageError(409, err.message)
      throw err
    }
  })
  app.post('/-/emulator/settle', async (req, reply) => {
    requireAdmin(req.actor)
    const timeout = timeoutMs(req.body)
    try {
      return reply.code(200).send(await work.settle(timeout))
    } catch (err) {
      if (err instanceof UnsettledError) return reply.code(err.status).send(err.body)
      throw err
    }
  })
}
