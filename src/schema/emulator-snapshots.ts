import { Type, type Static } from '@sinclair/typebox'
import { Timestamp } from './common.js'

/*
 * The reference server's named snapshots (`/-/emulator/snapshots`): controls of ours, not
 * GitLab's. Their fields are a contract (docs/server.md): add, never rename.
 */

/** A saved snapshot of the whole store. */
export const EmulatorSnapshot = Type.Object({
  name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
  created_at: Timestamp,
  rows: Type.Integer({ minimum: 0, description: 'Rows of every table it holds' }),
})
export type EmulatorSnapshot = Static<typeof EmulatorSnapshot>

/** `GET /-/emulator/snapshots`: every snapshot, by name. */
export const EmulatorSnapshots = Type.Array(EmulatorSnapshot)
export type EmulatorSnapshots = Static<typeof EmulatorSnapshots>
