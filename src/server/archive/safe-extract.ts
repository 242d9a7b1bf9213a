import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, posix } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import tar from 'tar-stream'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-files.js'
import { collectYoungGarbage } from './garbage.js'
import type { ExtractLimits } from './extract-limits.js'

/** Why an archive was refused; `message` is the text that becomes the import's `import_error`. */
export class ArchiveError extends Error {}

/** GitLab's words (`lib/gitlab/import_export/decompressed_archive_size_validator.rb`, `file_importer.rb`). */
export const SIZE_FAILED = 'Decompressed archive size validation failed.'
export const HARD_LINK = 'File shares hard link'

/**
 * A member name made relative and checked: `./a/b` and `a/b` both give `a/b`; absolute names, `..`
 * segments, NUL bytes and backslashes are refused (GitLab leaves this to GNU tar, which refuses
 * `..` and strips `/`; we refuse both, so nothing can land outside the folder). Returns null for
 * the root entry `./`.
 */
export function memberPath(name: string): string | null {
  if (name.includes('\0') || name.includes('\\') || name.startsWith('/'))
    throw new ArchiveError(`Invalid archive member: absolute or malformed path`)
  const parts = name.split('/').filter((p) => p !== '' && p !== '.')
  if (parts.some((p) => p === '..')) throw new ArchiveError('Invalid archive member: path traversal')
  if (parts.length === 0) return null
  return posix.join(...parts)
}

/** Decompressed bytes between two young-generation collections (see collectYoungGarbage). */
const COLLECT_EVERY = 8 * 1024 * 1024
/**
 * Entries between two such collections: each entry's streams, promises and folder made are garbage
 * that a busy server's grown young generation holds until it fills (an entry flood of 100,000
 * folders took serve to 264 MB).
 */
const COLLECT_EVERY_ENTRIES = 2_000
/** Folders remembered as made (making one again is harmless: `recursive`). */
const MADE_KEPT = 1_000

/** Entries up to this size are gathered and written in one call; larger ones are streamed. */
const SMALL_ENTRY = 64 * 1024

/**
 * One entry's content into a new file (`wx`: a name seen twice fails). A tar bomb is thousands of
 * tiny entries: a write stream and a pipeline for each made so much short-lived garbage, alive
 * across each file's open, write and close, that V8 grew its young generation (extracting 20,000
 * one-byte entries took a process from 68 MB to a 217 MB peak); one `writeFile` each: 80-95 MB.
 */
async function write(stream: AsyncIterable<unknown>, target: string, size: number): Promise<void> {
  if (size > SMALL_ENTRY)
    return pipeline(stream, createWriteStream(target, { flags: 'wx', mode: PRIVATE_FILE_MODE }))
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  await writeFile(target, Buffer.concat(chunks), { flag: 'wx', mode: PRIVATE_FILE_MODE })
}

/**
 * Extracts a gzip'd tar into `dest` (which must exist and be empty), streaming: the archive is
 * never held in memory. Only regular files and directories are written; a symbolic link, hard
 * link, device or FIFO fails the extraction (GitLab deletes symlinks silently and fails on hard
 * links; we fail on every kind). Counting decompressed bytes as they pass, a
 * stream over `maxDecompressedBytes` or one that is not gzip fails with GitLab's
 * `Decompressed archive size validation failed.`. Throws ArchiveError; the caller removes `dest`.
 * Resolves with the number of decompressed bytes.
 */
export async function extractArchive(
  source: string | Readable,
  dest: string,
  limits: ExtractLimits,
): Promise<number> {
  let total = 0
  let collected = 0
  let entries = 0
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.length
      if (limits.maxDecompressedBytes > 0 && total > limits.maxDecompressedBytes)
        return done(new ArchiveError(SIZE_FAILED))
      // gunzip's output Buffers, dead once written, are freed only by a collection.
      if (total - collected >= COLLECT_EVERY) {
        collected = total
        collectYoungGarbage()
      }
      done(null, chunk)
    },
  })
  const gunzip = createGunzip()
  gunzip.on('error', (err) => {
    if (!(err instanceof ArchiveError)) Object.assign(err, { gzip: true })
  })
  // A tar bomb names the same few folders thousands of times: each is made once while it is recent
  // (forgetting them all past MADE_KEPT keeps a flood of 100,000 folders from being held).
  const made = new Map<string, Promise<unknown>>()
  const madeDir = (dir: string) => {
    let done = made.get(dir)
    if (!done) {
      if (made.size >= MADE_KEPT) made.clear()
      made.set(dir, (done = mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })))
    }
    return done
  }
  const extract = tar.extract()
  extract.on('entry', (header, stream, next) => {
    // The entry stream is destroyed with the error we hand to `next`; without a listener that
    // would be an unhandled 'error' event (a crash), so swallow it here: `pipeline` reports it.
    stream.on('error', () => undefined)
    const fail = (err: Error) => {
      stream.resume()
      next(err)
    }
    try {
      if (++entries > limits.maxEntries) throw new ArchiveError('Too many files in the archive')
      if (entries % COLLECT_EVERY_ENTRIES === 0) collectYoungGarbage()
      const rel = memberPath(header.name)
      if (header.type === 'link') throw new ArchiveError(HARD_LINK)
      if (header.type === 'symlink') throw new ArchiveError('Archive contains a symbolic link')
      if (header.type !== 'file' && header.type !== 'directory' && header.type !== 'contiguous-file')
        throw new ArchiveError(`Archive contains an unsupported member type: ${header.type ?? 'unknown'}`)
      if (rel === null || header.type === 'directory') {
        const dir = rel === null ? dest : join(dest, rel)
        madeDir(dir).then(() => {
          stream.resume()
          stream.on('end', () => next())
        }, fail)
        return
      }
      const target = join(dest, rel)
      madeDir(dirname(target))
        .then(() => write(stream, target, header.size ?? 0))
        .then(() => next(), fail)
    } catch (err) {
      fail(err as Error)
    }
  })
  const input = typeof source === 'string' ? createReadStream(source) : source
  try {
    await pipeline(input, gunzip, counter, extract)
  } catch (err) {
    if (err instanceof ArchiveError) throw err
    if ((err as { gzip?: boolean }).gzip || (err as { code?: string }).code?.startsWith('Z_'))
      throw new ArchiveError(SIZE_FAILED)
    if ((err as { code?: string }).code === 'EEXIST') throw new ArchiveError('Archive contains a file twice')
    throw new ArchiveError('Unable to decompress [FILTERED] into [FILTERED]')
  }
  return total
}
