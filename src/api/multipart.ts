/*
 * multipart/form-data bodies whose file part streams from disk: the exact length is
 * known before anything is sent (text parts + file size), so the body goes out with
 * `Content-Length` and is never held in memory.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { Readable } from 'node:stream'

/** A text part: its form field name and value. */
export type FormField = [name: string, value: string]

/** The file part of a multipart body. */
export interface FilePart {
  /** Form field name of the file (GitLab: `file`). */
  field: string
  /** Path of the file on disk; read as a stream when the body is sent. */
  path: string
  /** Name sent in `Content-Disposition` (default: the file's base name). */
  filename?: string
  /** The part's `Content-Type` (default `application/octet-stream`). */
  contentType?: string
}

/** A field name or file name made safe for a quoted `Content-Disposition` parameter. */
const quote = (s: string) => s.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c))

/**
 * A multipart body of `fields` and then the file, for `CallOptions.body`: `{data, contentType,
 * length}`. The file is `stat`ed now (rejects when it is missing) and read only while sending.
 * A stream body is never retried by the client (retry.ts).
 */
export async function streamedMultipart(fields: readonly FormField[], file: FilePart) {
  const size = (await stat(file.path)).size
  const boundary = `----gitlab-actions-${randomBytes(12).toString('hex')}`
  const head = Buffer.from(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; ` +
      `filename="${quote(file.filename ?? basename(file.path))}"\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  async function* parts() {
    yield head
    yield* createReadStream(file.path)
    yield tail
  }
  return {
    data: Readable.from(parts(), { objectMode: false }),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
  }
}
