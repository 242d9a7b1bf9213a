/*
 * A job's artifacts archive (GitLab serves it as a zip: `GET /projects/:id/jobs/:job_id/artifacts`,
 * `lib/api/ci/job_artifacts.rb`) on its way from the network into a folder: streamed to disk under a
 * size limit, then extracted with yauzl, every entry checked before a byte is written. A hostile
 * archive (a path leaving the folder, an absolute path, a symbolic link, more bytes than allowed,
 * sizes that lie) is refused whole: nothing of it is extracted.
 */
import { createWriteStream } from 'node:fs'
import { mkdir, realpath, rm } from 'node:fs/promises'
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Entry } from 'yauzl'
import { formatBytes } from '../connection.js'

/** An archive refused as unsafe or too large; the message names the entry and why. */
export class ArchiveRefused extends Error {
  override readonly name = 'ArchiveRefused'
}

/**
 * Streams `body` into `file` and returns its size; throws ArchiveRefused (leaving no file) once more
 * than `maxBytes` arrived (a server that sends more than it announced, or announces nothing, still
 * stops there), and at once for a `Content-Length` above it.
 */
export async function saveLimited(
  body: Readable | AsyncIterable<Uint8Array | string>,
  file: string,
  maxBytes: number,
  what: string,
  announced?: number,
  signal?: AbortSignal,
): Promise<number> {
  const tooLarge = () => new ArchiveRefused(`${what} is larger than ${formatBytes(maxBytes)}`)
  if (announced !== undefined && announced > maxBytes) throw tooLarge()
  let size = 0
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length
      done(size > maxBytes ? tooLarge() : null, chunk)
    },
  })
  try {
    await pipeline(body, count, createWriteStream(file), { signal })
    return size
  } catch (err) {
    await rm(file, { force: true })
    throw err
  }
}

// The file type bits of a Unix mode, as zip keeps them in the high half of the external attributes.
const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000

/** Why `entry` may not be extracted, or undefined when it may (yauzl already refuses `\`, `/x`, `C:` and `..`). */
function unsafe(entry: Entry): string | undefined {
  const name = entry.fileName
  if (isAbsolute(name) || /^[a-zA-Z]:/.test(name) || name.includes('\\')) return 'an absolute path'
  if (name.split('/').includes('..')) return 'a path that leaves the folder'
  if (name.includes('\0')) return 'a NUL in its name'
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT
  // Only files and folders: made on Unix (versionMadeBy high byte 3), a link, device or FIFO is refused.
  if (entry.versionMadeBy >> 8 === 3 && type !== 0 && type !== S_IFREG && type !== S_IFDIR)
    return type === S_IFLNK ? 'a symbolic link' : 'not a regular file'
  if (entry.isEncrypted()) return 'encrypted'
  return undefined
}

export interface ExtractOptions {
  /** Most bytes the extracted files may hold together (their declared sizes, which yauzl holds them to). */
  maxBytes: number
  /** Only entries matching this glob (or lying under a folder it matches); all when undefined. */
  glob?: string
  /** At most this many entries in the archive. Default 100,000. */
  maxEntries?: number
}

export interface Extracted {
  /** The files written, relative to the folder, in archive order. */
  files: string[]
  bytes: number
}

/** Whether archive path `name` is selected by `glob` (`dist/**`, `*.log`, or a folder `dist`). */
export function selects(glob: string | undefined, name: string): boolean {
  if (glob === undefined) return true
  const g = glob.replace(/^\.\//, '').replace(/\/+$/, '')
  return posix.matchesGlob(name, g) || posix.matchesGlob(name, `${g}/**`)
}

/**
 * Extracts the zip `zipFile` into `folder` (created if needed). Every entry is checked first,
 * then the selected files are written, so a refused archive leaves nothing behind. Throws
 * ArchiveRefused for an unsafe entry or a total above `maxBytes`, and yauzl's errors for a broken
 * zip (an entry whose data is longer or shorter than it declares among them).
 */
export async function extractZip(
  zipFile: string,
  folder: string,
  options: ExtractOptions,
): Promise<Extracted> {
  const yauzl = await import('yauzl')
  const maxEntries = options.maxEntries ?? 100_000
  let zip
  try {
    zip = await yauzl.openPromise(zipFile, { lazyEntries: true, autoClose: false, strictFileNames: true })
  } catch (err) {
    throw new ArchiveRefused(`not a readable zip archive (${(err as Error).message})`)
  }
  try {
    const selected: Entry[] = []
    let total = 0
    let count = 0
    try {
      for await (const entry of zip.eachEntry()) {
        if (++count > maxEntries) throw new ArchiveRefused(`more than ${maxEntries} entries`)
        const why = unsafe(entry)
        if (why) throw new ArchiveRefused(`entry '${entry.fileName}' is ${why}`)
        if (!selects(options.glob, entry.fileName)) continue
        selected.push(entry)
        total += entry.uncompressedSize
        if (total > options.maxBytes)
          throw new ArchiveRefused(`its files hold more than ${formatBytes(options.maxBytes)} once extracted`)
      }
    } catch (err) {
      if (err instanceof ArchiveRefused) throw err
      // yauzl's own checks (absolute or `..` paths, bad names) end the listing with an error.
      throw new ArchiveRefused(`unsafe or broken entry: ${(err as Error).message}`)
    }
    await mkdir(folder, { recursive: true })
    const root = await realpath(folder)
    const files: string[] = []
    for (const entry of selected) {
      const target = resolve(root, entry.fileName)
      const inside = relative(root, target)
      if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside))
        throw new ArchiveRefused(`entry '${entry.fileName}' would be written outside the folder`)
      if (entry.fileName.endsWith('/')) {
        await mkdir(target, { recursive: true })
        continue
      }
      await mkdir(dirname(target), { recursive: true })
      // A folder that was already there as a link to elsewhere must not carry the file out.
      const parent = await realpath(dirname(target))
      if (parent !== root && !parent.startsWith(root + sep))
        throw new ArchiveRefused(`entry '${entry.fileName}' would be written outside the folder`)
      const data = await zip.openReadStreamPromise(entry)
      await pipeline(data, createWriteStream(join(parent, posix.basename(entry.fileName))))
      files.push(entry.fileName)
    }
    return { files, bytes: total }
  } finally {
    zip.close()
  }
}
