import type { Seed } from '../../schema/seed.js'
import type { ExistingRecords } from '../seed/rules.js'
import type { ServiceContext } from './context.js'
import { applySeed, existingRecords, rememberedSeed } from './seed.js'
import type { NamedSnapshot } from '../store/named-snapshots.js'
import type { SnapshotFiles } from './snapshot-files.js'

export {
  SnapshotMissing,
  SnapshotNameInvalid,
  SnapshotStale,
  SnapshotTaken,
} from '../store/named-snapshots.js'

/** The emulator's controls, which GitLab has no equivalent for (`/-/emulator/*`). */
export interface EmulatorService {
  /** Back to the seed the store was first given, in one transaction. */
  reset(): void
  /** Adds a validated seed, whole or not at all. */
  seed(more: Seed): void
  /** What already exists, which a seed added later may refer to. */
  existing(): ExistingRecords
  /** Named snapshots of the whole store (`/-/emulator/snapshots`, store/named-snapshots.ts). */
  snapshots: {
    list(): NamedSnapshot[]
    /** Saves the store now, stamped with the server's clock. */
    save(name: string, replace: boolean): NamedSnapshot
    restore(name: string): NamedSnapshot
    remove(name: string): void
  }
}

/**
 * `startSeed` is the seed the server was started with: a directory seeded before seeds were
 * remembered resets to it. `resetters` run inside the reset's transaction; what they return runs
 * after it commits (files of the records the reset removed). `rewound` run last, after a reset or a
 * snapshot restore put the store back: work that state left waiting starts again (bridges).
 */
export function emulatorService(
  { store, clock }: ServiceContext,
  startSeed: Seed | undefined,
  resetters: readonly (() => (() => void) | void)[],
  files?: SnapshotFiles,
  rewound: readonly (() => void)[] = [],
): EmulatorService {
  const rewind = () => {
    for (const fn of rewound) fn()
  }
  // Read only when a reset needs it (a large seed kept in memory for nothing costs the server its footprint).
  const resetSeed = () => rememberedSeed(store) ?? startSeed
  // The first reset seeds again and keeps the result; later ones undo what changed since: an
  // in-memory store rolls back the transaction held since, one with a data directory applies its
  // undo log (src/server/store/snapshot.ts).
  const { snapshot } = store
  return {
    reset() {
      if (snapshot.rollsBack) {
        const after = resetters.map((fn) => fn())
        snapshot.rollBack()
        for (const fn of after) fn?.()
        rewind()
        return
      }
      // A held transaction the log bound of 0 asks to copy back: committed, then copied over.
      snapshot.release()
      const taken = snapshot.taken
      if (!taken) snapshot.attach()
      // The WAL's checkpoint, when this commit would run it, waits for idle time (sqlite.ts).
      const afterCommit = store.checkpointLater(() =>
        snapshot.uncheckedWhenLarge(() =>
          store.transaction(() => {
            const after = resetters.map((fn) => fn())
            if (taken) snapshot.restore()
            else {
              store.emptyDataTables()
              const seed = resetSeed()
              if (seed) applySeed(store, seed, clock)
              after.push(snapshot.take())
            }
            return after
          }),
        ),
      )
      for (const after of afterCommit) after?.()
      snapshot.hold()
      rewind()
    },
    seed: (more) => store.transaction(() => applySeed(store, more, clock)),
    existing: () => existingRecords(store),
    // The tables first: they check the name and answer 404 or 409 before a file moves.
    snapshots: {
      list: () => store.namedSnapshots.list(),
      save(name, replace) {
        const saved = store.namedSnapshots.save(name, clock.now().toISOString(), replace)
        files?.save(name)
        return saved
      },
      restore(name) {
        const restored = store.namedSnapshots.restore(name)
        files?.restore(name)
        rewind()
        return restored
      },
      remove(name) {
        store.namedSnapshots.remove(name)
        files?.remove(name)
      },
    },
  }
}
