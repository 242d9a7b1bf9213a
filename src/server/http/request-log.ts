import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { epochMs, type Clock } from '../domain/clock.js'
import type { RequestEntry, RequestRing } from '../domain/request-ring.js'
import { requestMethod } from './head-requests.js'
import { cut, loggedText, redactUrl, redactValue } from './redact.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault that fired on this request (http/faults.ts), for the request log. */
    fault: { id: number; action: string } | null
    /** With `--log-bodies`: the answer's body as the log keeps it. */
    loggedResponse: string | null
  }
}

/**
 * Reading or clearing the log is not logged: a test that polls it would only see itself. Nor is
 * the emulator page, which shows it (pages/emulator/request-log.ts).
 */
const isLogControl = (url: string) =>
  url.charCodeAt(1) === 45 &&
  (url.startsWith('/-/emulator/requests') || url === '/-/emulator' || url.startsWith('/-/emulator?'))

/** Keeps `req`'s entry in the ring: `status` null when no answer was sent (the connection reset). */
export type RecordRequest = (req: FastifyRequest, reply: FastifyReply, status: number | null) => void

/** The request log as the edge writes it: from Fastify's hooks, and for the early hits (http/early-hits.ts). */
export interface RequestLog {
  record: RecordRequest
  /**
   * Keeps an entry given with no `id` or `time` (both 0), its URL as the log writes it (`redactUrl`):
   * the ring numbers it, the clock stamps it. Nothing for the log's own controls.
   */
  keep(entry: RequestEntry): void
  /** With `--log-bodies`: the bodies are kept (`requestBody`, `responseBody`). */
  bodies: boolean
}

/**
 * The request log's hooks: one entry per answered request, made when the answer has been sent (its
 * duration is Fastify's `reply.elapsedTime`). Without bodies the entry holds references to strings
 * the request has already (method, URL, route, actor, request id): no string is built, no JSON
 * written, unless the query holds a secret. A ring of size 0 installs nothing.
 */
export function installRequestLog(
  app: FastifyInstance,
  ring: RequestRing,
  options: { clock: Clock; bodies: boolean },
): RequestLog {
  const { clock, bodies } = options
  app.decorateRequest('fault', null)
  app.decorateRequest('loggedResponse', null)
  const logged = (url: string) => ring.size > 0 && !isLogControl(url)
  const keep = (entry: RequestEntry) => {
    if (!logged(entry.url)) return
    entry.time = epochMs(clock)
    ring.push(entry)
  }
  const record: RecordRequest = (req, reply, status) => {
    if (!logged(req.url)) return
    keep({
      id: 0,
      time: 0,
      method: requestMethod(req),
      url: redactUrl(req.url),
      status,
      durationMs: reply.elapsedTime,
      actor: req.actor?.user?.username ?? null,
      route: req.routeOptions.url ?? null,
      requestId: req.id,
      fault: req.fault,
      requestBody: bodies ? requestBody(req.headers, req.body) : null,
      responseBody: bodies ? req.loggedResponse : null,
    })
  }
  const log = { record, keep, bodies }
  if (ring.size === 0) return log
  if (bodies)
    app.addHook('onSend', (req, reply, payload, done) => {
      req.loggedResponse = responseBody(String(reply.getHeader('content-type') ?? ''), payload)
      done(null, payload)
    })
  app.addHook('onResponse', (req, reply, done) => {
    record(req, reply, reply.statusCode)
    done()
  })
  return log
}

const isJson = (type: string) => /^application\/(?:[\w.+-]*\+)?json\b/i.test(type)
const isText = (type: string) =>
  /^(?:text\/|application\/(?:x-www-form-urlencoded|(?:x-)?yaml|xml)\b)/i.test(type)

/** A request's body as the log keeps it: redacted, bounded; a multipart or binary one by its size. */
export function requestBody(headers: IncomingHttpHeaders, body: unknown): string | null {
  const type = headers['content-type'] ?? ''
  if (/^multipart\//i.test(type)) return `[multipart body, ${headers['content-length'] ?? 'unknown'} bytes]`
  if (body === undefined || body === null) return null
  if (Buffer.isBuffer(body)) return `[binary body, ${body.length} bytes]`
  if (typeof body === 'string') return loggedText(body, isJson(type))
  if (typeof body === 'object') return cut(JSON.stringify(redactValue(body)))
  return null
}

/** An answer's body as the log keeps it: JSON and text redacted and bounded, others by their size. */
export function responseBody(type: string, payload: unknown): string | null {
  if (payload === null || payload === undefined || payload === '') return null
  if (typeof (payload as Readable).pipe === 'function') return '[streamed body]'
  const bytes = Buffer.isBuffer(payload) ? payload : undefined
  if (bytes && !isJson(type) && !isText(type)) return `[binary body, ${bytes.length} bytes]`
  const text = bytes ? bytes.toString('utf8') : String(payload)
  return loggedText(text, isJson(type))
}
