import { messageError, notFound, paramError } from '../grape/gitlab-errors.js'
import {
  SnapshotMissing,
  SnapshotNameInvalid,
  SnapshotStale,
  SnapshotTaken,
  type EmulatorService,
} from '../services/emulator.js'
import type { ApiContext } from './context.js'
import { requireAdmin } from './emulator.js'

const nameOf = (params: unknown): string => (params as { name?: string }).name ?? ''

/** The store's refusals in HTTP terms. */
function answer<T>(name: string, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (err instanceof SnapshotNameInvalid) throw paramError('name is invalid')
    if (err instanceof SnapshotMissing) throw notFound('Snapshot')
    if (err instanceof SnapshotTaken)
      throw messageError(409, `snapshot ${name} already exists (POST with replace=true to overwrite it)`)
    if (err instanceof SnapshotStale)
      throw messageError(409, `snapshot ${name} was saved before a migration of the store; save it again`)
    throw err
  }
}

/**
 * Named snapshots of the whole store, administrators only (ours; GitLab has none; the contract is
 * docs/server.md's "Snapshots"):
 * - `GET /-/emulator/snapshots`: `[{name, created_at, rows}]`, by name.
 * - `POST /-/emulator/snapshots/:name` (`replace=true` overwrites): 201 with the snapshot; 409 when taken.
 * - `POST /-/emulator/snapshots/:name/restore`: 200 with the snapshot; 404 when there is none.
 * - `DELETE /-/emulator/snapshots/:name`: 204; 404 when there is none.
 * A name is `[A-Za-z0-9_.-]{1,64}`: 400 otherwise.
 */
export function emulatorSnapshotRoutes(api: ApiContext, controls: EmulatorService) {
  const { app } = api
  const { snapshots } = controls
  app.get('/-/emulator/snapshots', async (req) => {
    requireAdmin(req.actor)
    return snapshots.list()
  })
  app.post('/-/emulator/snapshots/:name', async (req, reply) => {
    requireAdmin(req.actor)
    const name = nameOf(req.params)
    const raw = (req.query as { replace?: unknown }).replace
    if (raw !== undefined && raw !== 'true' && raw !== 'false') throw paramError('replace is invalid')
    return reply.code(201).send(answer(name, () => snapshots.save(name, raw === 'true')))
  })
  app.post('/-/emulator/snapshots/:name/restore', async (req) => {
    requireAdmin(req.actor)
    const name = nameOf(req.params)
    return answer(name, () => snapshots.restore(name))
  })
  app.delete('/-/emulator/snapshots/:name', async (req, reply) => {
    requireAdmin(req.actor)
    const name = nameOf(req.params)
    answer(name, () => snapshots.remove(name))
    return reply.code(204).send()
  })
}
