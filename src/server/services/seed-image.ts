import type { Seed } from '../../schema/seed.js'
import { isoNow, type Clock } from '../domain/clock.js'
import { parseSeed, readSeedFile } from '../seed/parse.js'
import { openSeededImage, openStore, type Store } from '../store/index.js'
import { keepSeededImage, seededImageSlot, type SeededImageSlot } from '../store/seeded-image.js'
import { applySeed, rememberSeed } from './seed.js'

/*
 * A start whose seeded store is kept as an image (store/seeded-image.ts): `serve` through the bin,
 * which names its build, with `--seed FILE` or the built-in seed on loopback (whose tokens are the
 * well-known ones, so the same every time). The first start with a seed reads it and writes the
 * image as it seeds; the next loads the image, and reads the seed only if SQLite cannot.
 */

/** A seed's text read for a start (a file's, or the built-in seed's as JSON), with the slot of its image. */
export interface SeedFile {
  /** What a seed error names: the file, or `seed`. */
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
  return startSeedOf(path, await readSeedFile(path), build, options)
}

/**
 * As `readStartSeed`, for a seed given as an object that is the same at every start of a build (the
 * built-in seed on loopback): checked as any seed object is, as JSON, where no image is found.
 */
export function fixedStartSeed(
  seed: Seed,
  build: string,
  options: string[],
): { seed?: Seed; file?: SeedFile } {
  return startSeedOf('seed', Buffer.from(JSON.stringify(seed)), build, options)
}

function startSeedOf(path: string, bytes: Buffer, build: string, options: string[]) {
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
  if (!file) return
  const seededAt = at.toISOString()
  keepSeededImage(file.slot, file.bytes.toString('utf8'), seededAt, () => store.seededImage(seededAt))
}
