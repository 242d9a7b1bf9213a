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
export const verifyExportArchive = (file: string): Promise<ArchiveCheck> =>
  verifyExportStream(createReadStream(file))

/** verifyExportArchive on a stream of the archive's bytes (an archive being downloaded and encrypted). */
export async function verifyExportStream(source: Readable): Promise<ArchiveCheck> {
  const tar = extract()
  let entries = 0
  let version: string | undefined
  tar.on('entry', (header, stream, next) => {
    entries++
    const name = header.name.replace(/^\.\//, '')
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
    throw new Error(`not a complete gzip tar archive (${(err as Error).message})`)
  }
  if (entries === 0) throw new Error('the archive is empty')
  if (version === undefined) throw new Error('the archive has no VERSION entry: not a GitLab project export')
  return { entries, version }
}
