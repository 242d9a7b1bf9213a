import { open, stat } from 'node:fs/promises'
import { DOCUMENT_LIMITS, JsonShape } from '../domain/json-depth.js'
import { MAX_JSON_DOCUMENT_SIZE } from './layout.js'

/** GitLab's error for a non-JSON document (`lib/gitlab/import_export/json/ndjson_reader.rb`): it aborts. */
export const INCORRECT_JSON = 'Incorrect JSON format'

export class TreeError extends Error {}

/** True when `path` is a regular file (a relation file that is missing is skipped). */
export async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
}

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

/** Bytes read at a time, into one buffer reused for the whole file. */
const READ_SIZE = 1024 * 1024

/**
 * The JSON documents of a file as strings, one per line (`perLine`) or the whole file as one, split
 * while streaming (readline would build a line of any length before we could look at it: a 700 MB
 * line ends in `RangeError: Invalid string length`). A document's bytes go through JsonShape as
 * they arrive: one over `maxBytes` or over DOCUMENT_LIMITS throws at once, never held whole, as
 * GitLab's `File.foreach(path, MAX_JSON_DOCUMENT_SIZE)` never reads past the cap (a line of 40
 * million `[` stops at its 101st byte, 49 MB of `{},` at its 250,000th element). A `\r` before the
 * `\n` is dropped; a missing last newline is allowed. The file is read into one buffer, reused: a
 * read stream's fresh buffer per chunk is off-heap garbage that a small JavaScript heap collects
 * late, and the allocator keeps the pages it grew for it (only a line cut by a read is copied).
 */
async function* splitDocuments(
  path: string,
  maxBytes: number,
  perLine: boolean,
): AsyncGenerator<{ text: string; elements: number }> {
  const file = await open(path, 'r')
  const chunk = Buffer.allocUnsafe(READ_SIZE)
  let parts: Buffer[] = []
  let size = 0
  const shape = new JsonShape(DOCUMENT_LIMITS)
  // A line's bytes end at `end` of `chunk`, after any `parts` carried from earlier reads.
  const line = (start: number, end: number) => {
    let text: string
    if (parts.length === 0) {
      if (end > start && chunk[end - 1] === CARRIAGE_RETURN) end--
      text = chunk.toString('utf8', start, end)
    } else {
      parts.push(chunk.subarray(start, end))
      const whole = Buffer.concat(parts, size)
      text = whole.toString('utf8', 0, whole.at(-1) === CARRIAGE_RETURN ? size - 1 : size)
    }
    const elements = shape.elements
    parts = []
    size = 0
    shape.reset()
    return { text, elements }
  }
  try {
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, READ_SIZE, null)
      if (bytesRead === 0) break
      const read = chunk.subarray(0, bytesRead)
      for (let start = 0; start < bytesRead;) {
        const newline = perLine ? read.indexOf(NEWLINE, start) : -1
        const end = newline === -1 ? bytesRead : newline
        size += end - start
        if (size > maxBytes || shape.bytes(chunk, start, end)) throw new TreeError(INCORRECT_JSON)
        if (newline === -1) {
          // The next read overwrites the buffer: the cut line's start is copied.
          if (end > start) parts.push(Buffer.from(chunk.subarray(start, end)))
          break
        }
        yield line(start, end)
        start = newline + 1
      }
    }
    if (size > 0) yield line(0, 0)
  } finally {
    await file.close()
  }
}

/** JSON.parse of a document JsonShape let through; a parse error is TreeError `Incorrect JSON format`. */
function parseDocument(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new TreeError(INCORRECT_JSON)
  }
}

/**
 * Reads one relation file line by line (never the whole file, never a line past the cap): yields
 * each JSON document with its 0-based line index, the line's length in characters and its elements
 * (JsonShape's count). A `null` document (GitLab's empty single relation) and blank lines are
 * skipped. A line that is not JSON, is nested deeper than 100, holds 250,000 elements or more, or
 * is over 50 MB throws TreeError `Incorrect JSON format`: in GitLab
 * `NdjsonReader#json_decode` raises it outside `process_relation_item!`, so the import fails and
 * the lines saved before it stay (lib/gitlab/import_export/group/relation_tree_restorer.rb).
 */
export async function* readNdjson(
  path: string,
): AsyncGenerator<{ value: unknown; index: number; chars: number; elements: number }> {
  let index = -1
  for await (const { text, elements } of splitDocuments(path, MAX_JSON_DOCUMENT_SIZE, true)) {
    index++
    if (text.trim() === '') continue
    const value = parseDocument(text)
    if (value === null) continue
    yield { value, index, chars: text.length, elements }
  }
}

/**
 * Reads `tree/project.json` (one object, at most 50 MB, within DOCUMENT_LIMITS, checked as it is
 * read). Throws TreeError on anything else.
 */
export async function readProjectJson(path: string): Promise<Record<string, unknown>> {
  const info = await stat(path).catch(() => undefined)
  if (!info?.isFile()) throw new TreeError('No such file or directory @ rb_sysopen - [FILTERED]')
  if (info.size > MAX_JSON_DOCUMENT_SIZE) throw new TreeError(INCORRECT_JSON)
  let text = ''
  for await (const document of splitDocuments(path, MAX_JSON_DOCUMENT_SIZE, false)) text = document.text
  const value = parseDocument(text)
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  throw new TreeError(INCORRECT_JSON)
}
