import { createReadStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { extract } from 'tar-stream'

/** What a check of an export archive found. */
export interface ArchiveCheck {
  entries: number
  /** The content of `VERSION` (GitLab's export format version, `0.2.4`). */
  version: string
}

/**
 * Reads the archive once, as a stream: it must be gzip (complete: gunzip fails on a cut file), a
 * tar that ends properly, and hold a `VERSION` entry (GitLab's importer requires it).
 * Throws an Error saying what is wrong. Entries are drained, never kept.
 */
export const verifyExportArchive = (file: string, read?: EntryReader): Promise<ArchiveCheck> =>
  verifyExportStream(createReadStream(file), read)

/**
 * Reads one entry of an archive (`name` without a leading `./`) to its end, or answers undefined to
 * leave it drained. A rejection stops the read and is thrown by verifyExportStream.
 */
export type EntryReader = (name: string, stream: Readable) => Promise<void> | undefined

/**
 * verifyExportArchive on a stream of the archive's bytes (an archive being downloaded and encrypted);
 * `read` is handed each entry but `VERSION` as it streams by (import-project's `verify` counts the tree).
 */
export async function verifyExportStream(source: Readable, read?: EntryReader): Promise<ArchiveCheck> {
  const tar = extract()
  let entries = 0
  let version: string | undefined
  let readError: Error | undefined
  tar.on('entry', (header, stream, next) => {
    entries++
    const name = header.name.replace(/^\.\//, '')
    const reading = name === 'VERSION' ? undefined : read?.(name, stream as unknown as Readable)
    if (reading) {
      reading.then(
        () => next(),
        (err: Error) => {
          readError = err
          tar.destroy(err)
        },
      )
      return
    }
    const chunks: Buffer[] = []
    stream.on('data', (c: unknown) => {
      if (name === 'VERSION' && chunks.length < 4) chunks.push(c as Buffer)
    })
    stream.on('end', () => {
      if (name === 'VERSION') version = Buffer.concat(chunks).toString('utf8').trim()
      next()
    })
    // A pipeline torn down mid-entry errors the entry too: the pipeline's rejection reports it.
    stream.on('error', () => undefined)
    stream.resume()
  })
  try {
    await pipeline(source, createGunzip(), tar)
  } catch (err) {
    if (readError) throw readError
    throw new Error(`not a complete gzip tar archive (${(err as Error).message})`)
  }
  if (entries === 0) throw new Error('the archive is empty')
  if (version === undefined) throw new Error('the archive has no VERSION entry: not a GitLab project export')
  return { entries, version }
}
