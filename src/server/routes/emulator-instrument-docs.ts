import type { TSchema } from '@sinclair/typebox'
import {
  EmulatorFault,
  EmulatorFaultInput,
  EmulatorRequest,
  EmulatorRequestFilter,
} from '../../schema/emulator-instruments.js'

const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema))
const json = (schema: unknown) => ({ 'application/json': { schema } })
const errorRef = { $ref: '#/components/schemas/Error' }

/**
 * The OpenAPI paths of the request log and the faults (routes/emulator-instruments.ts), at the
 * server root as the other emulator controls; `refusals` are their 401 and 403.
 */
export function instrumentPaths(
  servers: unknown[],
  refusals: Record<string, unknown>,
): Record<string, unknown> {
  const tags = ['emulator']
  const filters = Object.entries(EmulatorRequestFilter.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema: plain(schema as TSchema),
  }))
  const badRule = {
    description: 'The rule is invalid; nothing was added',
    content: json({ ...errorRef, example: { message: 'ms is missing (action delay)' } }),
  }
  const rules = { oneOf: [plain(EmulatorFaultInput), { type: 'array', items: plain(EmulatorFaultInput) }] }
  return {
    '/-/emulator/requests': {
      servers,
      get: {
        operationId: 'getEmulatorRequests',
        summary: 'The requests the server received, oldest first (administrators)',
        description:
          'At most `limit` (default 100, at most 1000); when more match, `X-Next-Since-Id` and a ' +
          '`Link` `rel="next"` name the next page. Reading or clearing the log is not logged.',
        tags,
        parameters: filters,
        responses: {
          '200': {
            description: 'The requests kept',
            headers: { 'X-Next-Since-Id': { schema: { type: 'integer' } } },
            content: json({ type: 'array', items: plain(EmulatorRequest) }),
          },
          '400': { description: 'A filter is invalid', content: json(errorRef) },
          ...refusals,
        },
      },
      delete: {
        operationId: 'deleteEmulatorRequests',
        summary: 'Empties the request log (administrators)',
        tags,
        responses: { '204': { description: 'Emptied' }, ...refusals },
      },
    },
    '/-/emulator/faults': {
      servers,
      post: {
        operationId: 'postEmulatorFaults',
        summary: 'Adds a fault rule, or a list of them, all or none (administrators)',
        tags,
        requestBody: { required: true, content: json(rules) },
        responses: {
          '201': {
            description: 'The rule (or the list) as kept',
            content: json({ oneOf: [plain(EmulatorFault), { type: 'array', items: plain(EmulatorFault) }] }),
          },
          '400': badRule,
          ...refusals,
        },
      },
      get: {
        operationId: 'getEmulatorFaults',
        summary: 'The fault rules in force, with their counts (administrators)',
        tags,
        responses: {
          '200': { description: 'The rules', content: json({ type: 'array', items: plain(EmulatorFault) }) },
          ...refusals,
        },
      },
      delete: {
        operationId: 'deleteEmulatorFaults',
        summary: 'Removes every fault rule (administrators)',
        tags,
        responses: { '204': { description: 'Removed' }, ...refusals },
      },
    },
    '/-/emulator/faults/{fault_id}': {
      servers,
      delete: {
        operationId: 'deleteEmulatorFaultsFaultId',
        summary: 'Removes one fault rule (administrators)',
        tags,
        parameters: [{ name: 'fault_id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '204': { description: 'Removed' },
          '404': {
            description: 'No such rule',
            content: json({ ...errorRef, example: { message: '404 Fault Not Found' } }),
          },
          ...refusals,
        },
      },
    },
  }
}
