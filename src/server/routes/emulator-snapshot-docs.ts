import type { TSchema } from '@sinclair/typebox'
import { EmulatorSnapshot, EmulatorSnapshots } from '../../schema/emulator-snapshots.js'

const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema))
const json = (schema: unknown) => ({ 'application/json': { schema } })
const errorRef = { $ref: '#/components/schemas/Error' }

/**
 * The OpenAPI paths of the named snapshots (routes/emulator-snapshots.ts), at the server root as
 * the other emulator controls; `refusals` are their 401 and 403.
 */
export function snapshotPaths(
  servers: unknown[],
  refusals: Record<string, unknown>,
): Record<string, unknown> {
  const tags = ['emulator']
  const name = {
    name: 'name',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
  }
  const invalid = { '400': { description: 'The name is invalid', content: json(errorRef) } }
  const missing = { '404': { description: 'No snapshot of that name', content: json(errorRef) } }
  const snapshot = (description: string) => ({ description, content: json(plain(EmulatorSnapshot)) })
  return {
    '/-/emulator/snapshots': {
      servers,
      get: {
        operationId: 'getEmulatorSnapshots',
        summary: 'The named snapshots of the store, by name (administrators)',
        tags,
        responses: {
          '200': { description: 'The snapshots', content: json(plain(EmulatorSnapshots)) },
          ...refusals,
        },
      },
    },
    '/-/emulator/snapshots/{name}': {
      servers,
      post: {
        operationId: 'postEmulatorSnapshot',
        summary: 'Saves the whole store under a name (administrators)',
        description:
          'Every table as it is now, and the files of metric images and export archives (not the request log, fault rules or clock). ' +
          'With a data directory the snapshot survives a restart.',
        tags,
        parameters: [
          name,
          { name: 'replace', in: 'query', required: false, schema: { type: 'boolean', default: false } },
        ],
        responses: {
          '201': snapshot('Saved'),
          ...invalid,
          '409': {
            description: 'The name is taken and `replace` is not true; nothing changed',
            content: json(errorRef),
          },
          ...refusals,
        },
      },
      delete: {
        operationId: 'deleteEmulatorSnapshot',
        summary: 'Removes a named snapshot (administrators)',
        tags,
        parameters: [name],
        responses: { '204': { description: 'Removed' }, ...invalid, ...missing, ...refusals },
      },
    },
    '/-/emulator/snapshots/{name}/restore': {
      servers,
      post: {
        operationId: 'postEmulatorSnapshotRestore',
        summary: 'Puts the whole store back as a named snapshot has it (administrators)',
        description:
          'In one transaction; a reset afterwards still returns to the start-up seed. The snapshot is kept.',
        tags,
        parameters: [name],
        responses: {
          '200': snapshot('Restored'),
          ...invalid,
          ...missing,
          '409': {
            description: 'The snapshot was saved before a migration of the store',
            content: json(errorRef),
          },
          ...refusals,
        },
      },
    },
  }
}
