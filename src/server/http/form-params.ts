import type { FastifyRequest } from 'fastify'
import type { MultipartFile } from '@fastify/multipart'
import qs from 'qs'
import { GitLabError, messageError } from '../grape/gitlab-errors.js'
import { multipartField } from './malformed-strings.js'

/*
 * Form parameters as Rack reads them into Grape's params: names with brackets nest
 * (`variables[A]=1` -> `{ variables: { A: '1' } }`, `labels[]=a` -> `{ labels: ['a'] }`), whether
 * they come in the query string, an urlencoded body or a multipart body.
 */

/**
 * A query string or urlencoded body, nested as Rack nests it (bounded, as Rack bounds it). A name
 * given twice keeps its last value (`state=opened&state=closed` is `closed`): Rack's
 * `normalize_params` sets `params[k] = v` for a name without brackets; `name[]` builds a list.
 */
export const parseQuery = (text: string) => flatQuery(text) ?? qs.parse(text, QS_OPTIONS)

/** qs read as Rack reads: see parseQuery. */
export const QS_OPTIONS = { depth: 5, arrayLimit: 1000, parameterLimit: 10_000, duplicates: 'last' } as const

const FLAT_PAIR = /^(\w+)=([\w.,~*-]*)$/

/**
 * Most queries are `name=value&...` with nothing to decode or nest, each name once: read here as
 * qs reads them, without its walk (qs was 5% of a cached list request). Anything else (brackets,
 * escapes, `+`, a repeated name, a name qs refuses such as `constructor`) is left to qs.
 */
function flatQuery(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  // A URL without a query: qs would answer the same `{}`, after loading (qs is read on first use).
  if (text === '') return out
  for (const pair of text.split('&')) {
    const match = FLAT_PAIR.exec(pair)
    if (!match) return undefined
    const [, name, value] = match as unknown as [string, string, string]
    if (name in out || name in Object.prototype) return undefined
    out[name] = value
  }
  return out
}

/**
 * The parameters of a multipart/form-data request: its query and its fields, nested by
 * `parseQuery`. Each file part goes to `onFile`, which must consume or drain its stream; by
 * default it is drained and stands as `{ filename }`, a Hash, which Grape refuses where a string
 * is declared (`is invalid`), as it refuses Rack's upload hash. A body over the limits throws 413;
 * a field with a NUL or invalid UTF-8 throws GitLab's plain 400 (src/server/http/malformed-strings.ts).
 */
export async function multipartParams(
  req: FastifyRequest,
  onFile?: (part: MultipartFile) => Promise<void>,
): Promise<Record<string, unknown>> {
  const flat = new URLSearchParams()
  const files: Record<string, { filename: string }> = {}
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') flat.append(...multipartField(part.fieldname, String(part.value)))
      else if (onFile) await onFile(part)
      else {
        part.file.resume()
        files[part.fieldname] = { filename: part.filename }
      }
    }
  } catch (err) {
    // @fastify/multipart's limit errors carry 413; GitLab's body for them is its own.
    if (!(err instanceof GitLabError) && (err as { statusCode?: number }).statusCode === 413)
      throw messageError(413, '413 Request Entity Too Large')
    throw err
  }
  return { ...(req.query as object), ...parseQuery(flat.toString()), ...files }
}
