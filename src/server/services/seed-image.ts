import type { Seed } from '../../schema/seed.js'
import { isoNow, type Clock } from '../domain/clock.js'
import { parseSeed, readSeedFile } from '../seed/parse.js'
import { openSeededImage, openStore, type Store } from '../store/index.js'
import { keepSeededImage, seededImageSlot, type SeededImageSlot } from '../store/seeded-image.js'
import { applySeed, rememberSeed } from './seed.js'

/*
 * A start with a seed file whose store is kept as an image (store/seeded-image.ts): `serve --seed
 * FILE` through the bin, which names its build. The first start with a file reads it and writes
 * the image as it seeds; the next loads the image, and reads the file's text only if SQLite cannot.
 */

/** A seed file read for a start, with the slot of its image. */
export interface SeedFile {
  path: string
  bytes: Buffer
  slot: SeededImageSlot
}

/**
 * Reads the seed file `path` for a start of the build `build` with `options` (those that change the
 * world: release, edition): the seed itself only when no image of it is found. Throws a `SeedError`
 * as `loadSeedFile` does. Without Node's compile cache there is no image: the seed, as ever.
 */
export async function readStartSeed(
  path: string,
  build: string,
  options: string[],
): Promise<{ seed?: Seed; file?: SeedFile }> {
  const bytes = await readSeedFile(path)
  const slot = seededImageSlot({ build, seed: bytes, options })
  const seed = slot?.found ? undefined : parseSeed(bytes.toString('utf8'), path)
  return { seed, file: slot && { path, bytes, slot } }
}

/**
 * The store a start opens: from the image of its seed file where there is one SQLite reads
 * (`fromImage`, seeded already), else `data`'s, with the seed to apply if it is empty (parsed from
 * the file here when its image would not load).
 */
export function openStartStore(
  data: string,
  seed: Seed | undefined,
  file: SeedFile | undefined,
  clock: Clock,
): { store: Store; seed: Seed | undefined; fromImage: boolean } {
  const found = file?.slot.found
  if (found && !seed && data === ':memory:') {
    const store = openSeededImage(found, isoNow(clock))
    if (store) return { store, seed: undefined, fromImage: true }
  }
  return {
    store: openStore(data),
    seed: seed ?? (file && parseSeed(file.bytes.toString('utf8'), file.path)),
    fromImage: false,
  }
}

/**
 * Seeds an empty store in one transaction and remembers the seed (services/seed.ts); with a seed
 * file, keeps the store's image for the next start.
 */
export function seedStartStore(store: Store, seed: Seed, clock: Clock, file: SeedFile | undefined): void {
  // One instant for the whole seed, which the image names (applySeed reads the clock once too).
  const at = clock.now()
  store.transaction(() => {
    applySeed(store, seed, { now: () => at })
    rememberSeed(store, seed)
  })
  if (file) keepSeededImage(file.slot, store.seededImage(at.toISOString()), file.bytes.toString('utf8'))
}
