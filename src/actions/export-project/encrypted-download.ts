/*
 * `encrypt-to`: the archive is encrypted to age recipients as it downloads, so the plaintext never
 * touches the disk. One pass over the body: the plaintext is hashed and checked (gzip, tar,
 * VERSION) on the side, encrypted in a stream by age-encryption (the age author's implementation,
 * STREAM chunks of 64 KiB: memory stays flat whatever the size), and what is stored is hashed.
 * Loaded only when `encrypt-to` is set.
 */
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { Duplex, PassThrough, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Encrypter } from 'age-encryption'
import { type ExportDownload, hashingTap, type SavedArchive } from '../../api/project-exports.js'
import { type ArchiveCheck, verifyExportStream } from './verify.js'

/** An encrypted archive on disk: size and sha256 of the stored (encrypted) file, and of the plaintext. */
export interface EncryptedArchive extends SavedArchive {
  plain: { size: number; sha256: string }
  check: ArchiveCheck
}

/**
 * A pass-through that also writes each chunk to `side` (with its backpressure), and ends it at the
 * end. A side that failed is closed: the rest flows on, and the failure is reported by its check.
 */
function copyTo(side: PassThrough) {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (side.destroyed || side.write(chunk)) return done(null, chunk)
      const go = () => {
        side.off('drain', go).off('close', go)
        done(null, chunk)
      }
      side.on('drain', go).on('close', go)
    },
    flush(done) {
      side.end()
      done()
    },
  })
}

/**
 * Streams `got` into `file` encrypted to `recipients` (written as `file.part`, renamed when complete
 * and checked). Throws, leaving no file, when the body ends short of `Content-Length`, the
 * connection breaks or the plaintext is not a complete GitLab export archive.
 */
export async function saveEncrypted(
  got: ExportDownload,
  file: string,
  recipients: string[],
  signal?: AbortSignal,
): Promise<EncryptedArchive> {
  const encrypter = new Encrypter()
  for (const r of recipients) encrypter.addRecipient(r)
  const side = new PassThrough()
  const checked = verifyExportStream(side)
  checked.catch(() => undefined) // awaited below, after the download
  const plain = hashingTap()
  const stored = hashingTap()
  // age-encryption takes and gives web streams: an identity TransformStream makes it a Duplex.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const encrypt = Duplex.fromWeb({ readable: await encrypter.encrypt(readable), writable })
  const part = `${file}.part`
  try {
    await pipeline(got.body, copyTo(side), plain.stream, encrypt, stored.stream, createWriteStream(part), {
      signal,
    })
    const p = plain.result()
    if (got.length !== undefined && p.size !== got.length)
      throw new Error(`download ended after ${p.size} of ${got.length} bytes`)
    const check = await checked
    await rename(part, file)
    const s = stored.result()
    return { path: file, size: s.size, sha256: s.sha256, filename: got.filename, plain: p, check }
  } catch (err) {
    side.destroy()
    await rm(part, { force: true })
    throw err
  }
}
