import { createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import type { Readable } from 'node:stream'
import { PRIVATE_FILE_MODE } from '../store/private-files.js'

/** Streams an uploaded file part to `path`, a file only the server's user may read (never buffered). */
export async function writeUpload(file: Readable, path: string): Promise<void> {
  await pipeline(file, createWriteStream(path, { mode: PRIVATE_FILE_MODE }))
}
