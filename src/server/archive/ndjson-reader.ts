import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { MAX_JSON_DOCUMENT_SIZE } from './layout.js'

/** GitLab's error for a document that is not JSON (reference export-format §4): it aborts the import. */
export const INCORRECT_JSON = 'Incorrect JSON format'

export class TreeError extends Error {}

/** True when `path` is a regular file (a relation file that is missing is skipped, §4). */
export async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
}

/**
 * Reads one relation file line by line (never the whole file): yields each JSON document with
 * its 0-based line index and the line's length in characters. A `null` document (GitLab's empty
 * single relation) and a blank last line are skipped; anything that is not JSON, or a line over
 * 50 MB, throws TreeError `Incorrect JSON format`, as GitLab's `NdjsonReader` does.
 */
export async function* readNdjson(
  path: string,
): AsyncGenerator<{ value: unknown; index: number; chars: number }> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })
  let index = -1
  try {
    for await (const line of lines) {
      index++
      if (line.length > MAX_JSON_DOCUMENT_SIZE) throw new TreeError(INCORRECT_JSON)
      if (line.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        throw new TreeError(INCORRECT_JSON)
      }
      if (value === null) continue
      yield { value, index, chars: line.length }
    }
  } finally {
    lines.close()
  }
}

/** Reads `tree/project.json` (one object, at most 50 MB). Throws TreeError on anything else. */
export async function readProjectJson(path: string): Promise<Record<string, unknown>> {
  const info = await stat(path).catch(() => undefined)
  if (!info?.isFile()) throw new TreeError('No such file or directory @ rb_sysopen - [FILTERED]')
  if (info.size > MAX_JSON_DOCUMENT_SIZE) throw new TreeError(INCORRECT_JSON)
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'))
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    /* fall through */
  }
  throw new TreeError(INCORRECT_JSON)
}
