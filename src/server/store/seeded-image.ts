import type { Db } from './db.js'
import { migrations } from './migrations.js'
import { ident } from './undo-log.js'

// Built-ins taken, not imported (start-up time: see src/cli/serve-script.ts on module facades).
const { createHash } = process.getBuiltinModule('node:crypto')
const {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = process.getBuiltinModule('node:fs')
const { getCompileCacheDir } = process.getBuiltinModule('node:module')
const { dirname, join } = process.getBuiltinModule('node:path')
const { crc32 } = process.getBuiltinModule('node:zlib')

/*
 * Start-up time: a seed file of 1,000 issues cost a cold `serve` a quarter of its start, read (YAML,
 * its checks) and written (some 5,000 rows). A store just seeded from a file is kept as its SQLite
 * image in Node's compile cache directory, under a digest of everything the seeded world depends on:
 * the file's bytes, the build that seeded it (the bundle's checksum: the seed's rules are code),
 * the release and edition, SQLite's version and the migrations. The next start with the same file
 * loads the image instead. What differs between two starts is put right as the image loads:
 * - the time of seeding: every cell that held it (`created_at` of users, projects, labels...) is
 *   given this start's, the columns that held it being listed with the image. A seed whose text
 *   names a date near that time (an issue's `created_at`, which could equal it) is not kept.
 * - the pages' session key: each start signs sessions with its own (store/index.ts).
 * - nothing else: the image carries the store's key (its token digests and sealed secrets are keyed
 *   with it), so the file is as secret as the seed's tokens: 0600, and one another user owns or may
 *   write is not read.
 * A file that is not such an image, or not this one (its digest, its checksum), is no image: the
 * start reads the seed and writes the image again.
 */

/** A store as it was just seeded, with what loading it again needs. */
export interface SeededImage {
  /** SQLite's file image of the store. */
  image: Uint8Array
  /** The store's key (`db_key_base`), which its token digests and sealed secrets need. */
  dbKeyBase: Buffer
  /** The time the seed was written at, as the store holds it (ISO 8601 with milliseconds). */
  seededAt: string
  /** `[table, column]`s that held `seededAt` somewhere. */
  stamped: [string, string][]
}

/** Where the image of one seed file and start options is kept, and that image if there is one. */
export interface SeededImageSlot {
  file: string
  digest: string
  found?: SeededImage
}

const MAGIC = Buffer.from('GLASEED1')
const IMAGE_PREFIX = 'gitlab-actions-seeded-'
const IMAGE_NAME = /^gitlab-actions-seeded-[0-9a-f]{32}\.sqlite3$/

/**
 * The slot of the seed file `seed` (its bytes) for the build `build` and the options that change
 * the world (`--edition`, `--gitlab-version`), with the image found there; undefined where Node's
 * compile cache is off.
 */
export function seededImageSlot(parts: {
  build: string
  seed: Uint8Array
  options: string[]
}): SeededImageSlot | undefined {
  const dir = getCompileCacheDir()
  if (!dir) return undefined
  const hash = createHash('sha256')
  for (const part of [
    MAGIC,
    parts.build,
    process.versions.sqlite ?? '',
    JSON.stringify(migrations),
    JSON.stringify(parts.options),
  ])
    hash.update(part).update('\0')
  const digest = hash.update(parts.seed).digest('hex')
  const file = join(dir, `${IMAGE_PREFIX}${digest.slice(0, 32)}.sqlite3`)
  return { file, digest, found: readImage(file, digest) }
}

/** The image in `file` when it is this digest's, whole, and only this user's to write. */
function readImage(file: string, digest: string): SeededImage | undefined {
  let bytes: Buffer
  try {
    const fd = openSync(file, 'r')
    try {
      const stat = fstatSync(fd)
      if (stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) return undefined
      bytes = readFileSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    return undefined
  }
  try {
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined
    const length = bytes.readUInt32LE(MAGIC.length)
    const start = MAGIC.length + 4 + length
    const header = JSON.parse(bytes.toString('utf8', MAGIC.length + 4, start)) as Header
    const image = bytes.subarray(start)
    if (header.digest !== digest || header.crc !== crc32(image) || !/^[0-9a-f]{64}$/.test(header.key))
      return undefined
    return {
      image,
      dbKeyBase: Buffer.from(header.key, 'hex'),
      seededAt: header.seededAt,
      stamped: header.stamped,
    }
  } catch {
    return undefined
  }
}

interface Header {
  digest: string
  crc: number
  key: string
  seededAt: string
  stamped: [string, string][]
}

/** The images kept at most (by time of writing): one is as large as the store its seed makes. */
export const SEEDED_IMAGES_KEPT = 4

/**
 * Keeps the image `seeded()` makes of a store just seeded at `seededAt` in the slot's file, unless
 * `seedText` names a date within a day of that time (see above); then removes the oldest images
 * past SEEDED_IMAGES_KEPT. Written whole or not at all; a cache that cannot be written is none.
 */
export function keepSeededImage(
  slot: SeededImageSlot,
  seedText: string,
  seededAt: string,
  seeded: () => SeededImage,
): void {
  const at = Date.parse(seededAt)
  const DAY = 86_400_000
  if ([at - DAY, at, at + DAY].some((t) => seedText.includes(new Date(t).toISOString().slice(0, 10)))) return
  const { image, dbKeyBase, stamped } = seeded()
  const header: Header = {
    digest: slot.digest,
    crc: crc32(image),
    key: dbKeyBase.toString('hex'),
    seededAt,
    stamped,
  }
  const json = Buffer.from(JSON.stringify(header))
  const length = Buffer.alloc(4)
  length.writeUInt32LE(json.length)
  const part = `${slot.file}.${process.pid}.part`
  try {
    writeFileSync(part, Buffer.concat([MAGIC, length, json, image]), { mode: 0o600 })
    renameSync(part, slot.file)
    pruneImages(dirname(slot.file))
  } catch {
    // a read-only directory: the next start reads the seed as this one did
  }
}

/** Removes all but the SEEDED_IMAGES_KEPT newest images in `dir` (another process may prune too). */
function pruneImages(dir: string): void {
  const images = readdirSync(dir)
    .filter((name) => IMAGE_NAME.test(name))
    .flatMap((name) => {
      try {
        return [{ file: join(dir, name), at: statSync(join(dir, name)).mtimeMs }]
      } catch {
        return []
      }
    })
    .sort((a, b) => b.at - a.at)
  for (const { file } of images.slice(SEEDED_IMAGES_KEPT)) rmSync(file, { force: true })
}

/** The `[table, column]`s of `db` that hold `value` in some row (the image's `stamped`). */
export function columnsHolding(db: Db, value: string): [string, string][] {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[]
  const found: [string, string][] = []
  for (const table of tables) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]
    if (columns.length === 0) continue
    const held = db
      .prepare(
        `SELECT ${columns.map((c) => `ifnull(max(${ident(c)} = ?1), 0)`).join(', ')} FROM ${ident(table)}`,
      )
      .raw()
      .get(value) as number[]
    columns.forEach((column, i) => {
      if (held[i] === 1) found.push([table, column])
    })
  }
  return found
}

/** Gives every cell of the image's `stamped` columns that holds its time of seeding the time `now`. */
export function restamp(db: Db, seeded: SeededImage, now: string): void {
  if (now === seeded.seededAt) return
  db.transaction(() => {
    for (const [table, column] of seeded.stamped)
      db.prepare(`UPDATE ${ident(table)} SET ${ident(column)} = ?2 WHERE ${ident(column)} = ?1`).run(
        seeded.seededAt,
        now,
      )
  })
}
