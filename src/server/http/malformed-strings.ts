import { isUtf8 } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { GitLabError, malformedRequest } from '../grape/gitlab-errors.js'
import { syncHook } from './sync-hook.js'

/*
 * GitLab's malformed-string guard (lib/gitlab/middleware/handle_malformed_strings.rb): before any
 * API code runs, a request is answered `400`, `text/plain`, `Bad Request` when
 *   - its percent-decoded path (`Rack::Utils.unescape`) holds a NUL byte or invalid UTF-8, or a
 *     broken escape;
 *   - its credentials hold either: the decoded user:password of Basic auth, otherwise the whole
 *     `Authorization` header (`PRIVATE-TOKEN` is not looked at: a bad one is an unknown token, 401);
 *   - a parameter value (query, urlencoded or multipart field, JSON body) holds a NUL byte no deeper
 *     than `param_has_null_byte?` looks (a value two hashes or arrays down, `a[b][c]`, is the last);
 *   - a parameter value holds invalid UTF-8 at any depth (Rails' `check_param_encoding` raises
 *     ActionController::BadRequest from `request.params`, which the middleware rescues), or the
 *     query or form holds a broken percent-escape (Rack's InvalidParameterError, the same rescue).
 * Invalid UTF-8 is seen on the raw bytes, before decoding turns it into U+FFFD; a JSON `\uD800`
 * escape (a lone surrogate, which Ruby's JSON turns into invalid UTF-8) counts as invalid too.
 * Parameter names get the same checks as values (GitLab checks values only; nothing legitimate
 * has a NUL in a name, and hash keys such as `variables[...]` are stored).
 */

/** How deep `param_has_null_byte?` looks: a top-level value is depth 0, it stops past 2. */
const NUL_DEPTH = 2
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/** A decoded string that is not what a client meant to send: a NUL, or a lone surrogate. */
const badString = (text: string, nulCounts: boolean) =>
  (nulCounts && text.includes('\u0000')) || LONE_SURROGATE.test(text)

const badBytes = (bytes: Buffer, nulCounts: boolean) => (nulCounts && bytes.includes(0)) || !isUtf8(bytes)

/** `Rack::Utils.unescape` on raw bytes (`+` is a space); undefined for a broken `%` escape. */
export function unescapeBytes(raw: Buffer, plus = true): Buffer | undefined {
  const out = Buffer.allocUnsafe(raw.length)
  let n = 0
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!
    if (byte === 0x25) {
      const hex = raw.subarray(i + 1, i + 3).toString('latin1')
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined
      out[n++] = parseInt(hex, 16)
      i += 2
    } else out[n++] = plus && byte === 0x2b ? 0x20 : byte
  }
  return out.subarray(0, n)
}

/** Node hands over the request line and headers as latin1: this gets the bytes back. */
const bytesOf = (text: string) => Buffer.from(text, 'latin1')

/** How many hashes or arrays down a bracketed name puts its value (`a` 0, `a[b]` 1, `a[][c]` 2). */
const depthOf = (name: string) => name.replace(/^[^[]*/, '').match(/\[[^[\]]*\]/g)?.length ?? 0

/** A query string or urlencoded body, split and unescaped as Rack 2.2's query parser does. */
export function malformedForm(raw: Buffer): boolean {
  for (const pair of raw.toString('latin1').split(/[&;] */)) {
    if (!pair) continue
    const eq = pair.indexOf('=')
    const name = unescapeBytes(bytesOf(eq < 0 ? pair : pair.slice(0, eq)))
    const value = eq < 0 ? Buffer.alloc(0) : unescapeBytes(bytesOf(pair.slice(eq + 1)))
    if (!name || !value) return true
    if (badBytes(name, true) || badBytes(value, depthOf(name.toString()) <= NUL_DEPTH)) return true
  }
  return false
}

/**
 * Printable ASCII whose escapes decode to ASCII other than NUL (`%2F`): no NUL, no invalid UTF-8
 * and no broken escape anywhere. Most requests are such, and pass without a copy of their bytes.
 */
export const plainAscii = (text: string) =>
  !/[^\x21-\x7e]/.test(text) && !/%(?![1-7][\da-f]|0[1-9a-f])/i.test(text)

/** The path as `Rack::Utils.unescape` reads it. */
export function malformedPath(rawPath: string): boolean {
  const bytes = unescapeBytes(bytesOf(rawPath))
  return !bytes || badBytes(bytes, true)
}

/** `credentials_malformed?`: Basic credentials decoded, or else the whole Authorization header. */
export function malformedCredentials(authorization: string | undefined): boolean {
  if (!authorization) return false
  const [scheme, param = ''] = authorization.split(/ (.*)/s)
  const bytes = scheme?.toLowerCase() === 'basic' ? Buffer.from(param, 'base64') : bytesOf(authorization)
  return badBytes(bytes, true)
}

/** A decoded parameter value (JSON body), walked as `param_has_null_byte?` walks it. */
export function malformedValue(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return badString(value, depth <= NUL_DEPTH)
  if (Array.isArray(value)) return value.some((item) => malformedValue(item, depth + 1))
  if (value && typeof value === 'object')
    return Object.entries(value).some(
      ([name, item]) => badString(name, true) || malformedValue(item, depth + 1),
    )
  return false
}

/** A JSON body: raw bytes valid UTF-8, and its values (Rails wraps a non-object body as `_json`). */
function malformedJson(raw: Buffer, parsed: unknown): boolean {
  if (!isUtf8(raw)) return true
  const top = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : { _json: parsed }
  return Object.entries(top).some(([name, item]) => badString(name, true) || malformedValue(item))
}

/**
 * A multipart field: busboy reads field values as latin1 here (`defCharset`), so the raw bytes are
 * checked before they are decoded as UTF-8. Throws GitLab's 400; returns the decoded name and value.
 */
export function multipartField(name: string, latin1Value: string): [string, string] {
  const nameBytes = bytesOf(name)
  const valueBytes = bytesOf(latin1Value)
  if (badBytes(nameBytes, true) || badBytes(valueBytes, depthOf(name) <= NUL_DEPTH)) throw malformedRequest()
  return [nameBytes.toString('utf8'), valueBytes.toString('utf8')]
}

/** Options for @fastify/multipart that keep field values as raw bytes for `multipartField`. */
export const RAW_MULTIPART_FIELDS = { defCharset: 'latin1' } as const

const RAW_BODY = Symbol('raw body')
const MALFORMED = Symbol('malformed, refused once the body is read')
type WithRawBody = FastifyRequest & { [RAW_BODY]?: Buffer; [MALFORMED]?: boolean }

/** No Content-Length above 0 and no Transfer-Encoding: HTTP/1.1 says the request has no body. */
export const hasNoBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] === undefined && !(Number(headers['content-length']) > 0)
const isJson = (type: string) => /^application\/json\b/i.test(type)

/**
 * Reads the rest of a multipart body and throws GitLab's 400 if a field is malformed: for a body
 * no route reads, and for one whose caller is refused before the route reads it (GitLab checks
 * the parameters before authentication).
 */
export async function checkUnroutedParts(req: FastifyRequest) {
  try {
    for await (const part of req.parts())
      if (part.type === 'file') part.file.resume()
      else multipartField(part.fieldname, String(part.value))
  } catch (err) {
    if (err instanceof GitLabError) throw err
  }
}

/**
 * Keeps a JSON or urlencoded body's bytes for the check once it is parsed: their parsers read the
 * body whole (http/body-parsers.ts), so its Buffer is kept as it is, with no copy of the stream.
 */
export function keepBodyBytes(req: FastifyRequest, raw: Buffer): void {
  const kept: WithRawBody = req
  kept[RAW_BODY] = raw
}

/** A JSON or urlencoded body, from the raw bytes kept: throws GitLab's 400. */
function checkBody(req: FastifyRequest): void {
  const raw = (req as WithRawBody)[RAW_BODY]
  if (!raw) return
  const type = req.headers['content-type'] ?? ''
  if (isJson(type) ? malformedJson(raw, req.body) : malformedForm(raw)) throw malformedRequest()
}

/**
 * Installs the guard: path, query and credentials on arrival (before routing, as the middleware
 * runs before Grape); JSON and urlencoded bodies once parsed, from the bytes their parsers keep
 * (`keepBodyBytes`, http/body-parsers.ts). Multipart fields are checked as they are read
 * (`multipartField`).
 */
export function malformedStringGuard(app: FastifyInstance): void {
  app.addHook(
    'onRequest',
    syncHook((req) => {
      const url = req.raw.url ?? ''
      if (plainAscii(url) && !malformedCredentials(req.headers.authorization)) return
      const q = url.indexOf('?')
      const path = q < 0 ? url : url.slice(0, q)
      const malformed =
        malformedPath(path) ||
        malformedCredentials(req.headers.authorization) ||
        (q >= 0 && malformedForm(bytesOf(url.slice(q + 1))))
      if (!malformed) return
      // GitLab's JsonValidation middleware reads a JSON body before anything parses parameters, so
      // a body over its limits (too deep, too many elements) is refused first (its 400 comes from
      // the body parser): the refusal waits for the body to be read.
      if (isJson(req.headers['content-type'] ?? '')) (req as WithRawBody)[MALFORMED] = true
      else throw malformedRequest()
    }),
  )
  app.addHook('preValidation', (req, _reply, done) => {
    if ((req as WithRawBody)[MALFORMED]) throw malformedRequest()
    // Routes read multipart fields through `multipartField`; a body no route reads is read here
    // (one that does not parse is left to the 404).
    if (req.is404 && req.isMultipart?.()) return void checkUnroutedParts(req).then(() => done(), done)
    checkBody(req)
    done()
  })
}

/**
 * Fastify's router refuses a path that does not percent-decode to UTF-8 before any hook runs:
 * that is GitLab's malformed path, answered as the guard answers it. Its other refusals (a path
 * parameter over `maxParamLength`) keep Fastify's own answer.
 */
export function frameworkErrors(error: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).type('text/plain').send('Bad Request')
  const status = error.statusCode ?? 400
  const body = { error: 'Bad Request', code: error.code, message: error.message, statusCode: status }
  const text = JSON.stringify(body)
  reply.hijack()
  reply.raw.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  reply.raw.end(text)
}
