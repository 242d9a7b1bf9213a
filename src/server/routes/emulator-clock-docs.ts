import type { TSchema } from '@sinclair/typebox'
import {
  EmulatorClockMove,
  EmulatorClockState,
  EmulatorSettled,
  EmulatorSettleParams,
  EmulatorUnsettled,
} from '../../schema/emulator-clock.js'

const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema))
const json = (schema: unknown) => ({ 'application/json': { schema } })
const errorRef = { $ref: '#/components/schemas/Error' }

/**
 * The OpenAPI paths of the clock and settle (routes/emulator-clock.ts), at the server root as the
 * other emulator controls; `refusals` are their 401 and 403.
 */
export function clockPaths(servers: unknown[], refusals: Record<string, unknown>): Record<string, unknown> {
  const tags = ['emulator']
  const settled = { description: 'What ran, and the clock after it', content: json(plain(EmulatorSettled)) }
  return {
    '/-/emulator/clock': {
      servers,
      get: {
        operationId: 'getEmulatorClock',
        summary: "The server's time and whether it stands still (administrators)",
        tags,
        responses: {
          '200': { description: 'The clock', content: json(plain(EmulatorClockState)) },
          ...refusals,
        },
      },
      post: {
        operationId: 'postEmulatorClock',
        summary: 'Freezes, unfreezes, sets or advances the clock (administrators)',
        description:
          'The clock never goes back. Active pipeline schedules due by its new time make one pipeline each; ' +
          'pipeline moves due by then are applied in time order, each stamped with its own due time; ' +
          'export and import jobs under way are waited for (10 s).',
        tags,
        requestBody: { required: true, content: json(plain(EmulatorClockMove)) },
        responses: {
          '200': settled,
          '400': {
            description: 'A field is missing or invalid; the clock did not move',
            content: json({ ...errorRef, example: { error: 'seconds is missing' } }),
          },
          '409': {
            description: "The time is before the server's time; the clock did not move",
            content: json(errorRef),
          },
          ...refusals,
        },
      },
    },
    '/-/emulator/settle': {
      servers,
      post: {
        operationId: 'postEmulatorSettle',
        summary: 'Runs all pending background work to its end before answering (administrators)',
        description:
          'Export and import jobs until none is left; pipelines move by move, the clock jumping ' +
          'forward to each next due move (pipeline schedules never run here: that would not end). ' +
          'Work that ran stays done when the answer is 409 or 504.',
        tags,
        requestBody: { required: false, content: json(plain(EmulatorSettleParams)) },
        responses: {
          '200': settled,
          '400': { description: '`timeout` is invalid', content: json(errorRef) },
          '409': {
            description: 'A pipeline cannot finish on its own (it waits for a manual job)',
            content: json(plain(EmulatorUnsettled)),
          },
          '504': {
            description: 'Export or import jobs still run after `timeout` seconds',
            content: json(plain(EmulatorUnsettled)),
          },
          ...refusals,
        },
      },
    },
  }
}
