import { Type, type Static } from '@sinclair/typebox'
import { Timestamp } from './common.js'

/*
 * The reference server's clock and settle (`/-/emulator/clock`, `/-/emulator/settle`): controls of
 * ours, not GitLab's. Their fields are a contract (docs/server.md): add, never rename.
 */

/** The server's time (`GET /-/emulator/clock`). */
export const EmulatorClockState = Type.Object({
  now: Timestamp,
  frozen: Type.Boolean({ description: 'True while the clock stands still' }),
})
export type EmulatorClockState = Static<typeof EmulatorClockState>

/** A move of the clock (`POST /-/emulator/clock`). */
export const EmulatorClockMove = Type.Object({
  action: Type.Union(
    [Type.Literal('freeze'), Type.Literal('unfreeze'), Type.Literal('set'), Type.Literal('advance')],
    {
      description:
        '`freeze` stops the clock (at `time` if given), `unfreeze` lets it run on from where it stands, ' +
        '`set` jumps to `time`, `advance` moves `seconds` forward; the clock never goes back',
    },
  ),
  time: Type.Optional(
    Type.String({ format: 'date-time', description: 'ISO 8601 with a zone: `set` (required), `freeze`' }),
  ),
  seconds: Type.Optional(
    Type.Number({ minimum: 0, description: '`advance` (required): how far, fractions allowed' }),
  ),
})
export type EmulatorClockMove = Static<typeof EmulatorClockMove>

/** What a settle (or an advance) ran. */
export const EmulatorWorkRun = Type.Object({
  pipeline_moves: Type.Integer({ description: 'Job state changes applied, oldest due first' }),
  transfer_jobs: Type.Integer({
    description: 'Export and import jobs that ended since the previous settle or clock move',
  }),
})

/** Work that did not end (a 409 or 504 of settle). */
export const EmulatorWorkPending = Type.Object({
  pipelines: Type.Array(
    Type.Object({ id: Type.Integer(), project_id: Type.Integer(), status: Type.String() }),
    { description: 'Unfinished pipelines no clock can finish (waiting for a manual job), at most 20' },
  ),
  transfer_jobs: Type.Integer({ description: 'Export and import jobs still under way' }),
  webhook_deliveries: Type.Optional(
    Type.Integer({ description: 'Webhook deliveries queued or under way (only when there are some)' }),
  ),
})

/** The answer of `POST /-/emulator/settle` and `POST /-/emulator/clock`. */
export const EmulatorSettled = Type.Object({
  clock: EmulatorClockState,
  ran: EmulatorWorkRun,
})
export type EmulatorSettled = Static<typeof EmulatorSettled>

/** A settle that could not end: 409 (stalled pipelines) or 504 (past its timeout), with what is left. */
export const EmulatorUnsettled = Type.Object({
  message: Type.String(),
  clock: EmulatorClockState,
  ran: EmulatorWorkRun,
  pending: EmulatorWorkPending,
})
export type EmulatorUnsettled = Static<typeof EmulatorUnsettled>

/** `POST /-/emulator/settle`'s optional body. */
export const EmulatorSettleParams = Type.Object({
  timeout: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 300,
      default: 10,
      description: 'Seconds to wait for export and import jobs before answering 504',
    }),
  ),
})
export type EmulatorSettleParams = Static<typeof EmulatorSettleParams>
