import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { httpDate, today, type Clock } from '../domain/clock.js'
import type { FaultRules } from '../domain/fault-rules.js'
import type { Actor } from '../services/access.js'
import type { Authentication } from '../services/authentication.js'
import { authenticate, urlMayAuthenticate } from './auth.js'
import type { BrowserGuard } from './browser-guard.js'
import { gitlabHeaders, JSON_TYPE, type HeaderSink } from './gitlab-headers.js'
import { hasNoBody, malformedCredentials, plainAscii } from './malformed-strings.js'
import { redactUrl } from './redact.js'
import { requestBody, responseBody, type RequestLog } from './request-log.js'
import type { RequestTurns } from './request-turns.js'
import {
  cacheKey,
  type CachedResponse,
  type CachedRoute,
  type EarlyHead,
  type ResponseCache,
} from './response-cache.js'

/** The edge's parts an early hit runs through: the very ones Fastify's hooks call (http/edge.ts). */
export interface EarlyHitParts {
  cache: ResponseCache
  authentication: Authentication
  clock: Clock
  guard: BrowserGuard
  turns: RequestTurns
  faults: FaultRules
  log: RequestLog
  /** The request ids' sequence Fastify's `genReqId` draws from too. */
  requestId: () => string
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/**
 * What the edge's checks make of a URL alone, found once per URL (a client repeats its URLs):
 * `plain`, no malformed string and no credential in its query (`plainAscii`, `urlMayAuthenticate`);
 * `logged`, the URL as the request log writes it (`redactUrl`); `key`, its last cache key, kept
 * with the caller and day it names: the same string again is not hashed again.
 */
interface UrlFacts {
  plain: boolean
  logged: string
  key: { actor: number | null; day: string; text: string }
}
/** URLs whose facts are remembered; past it the memo starts again. */
const MAX_URLS = 10_000

/** An answer's headers as Node's `writeHead` takes them: names and values, in order. */
class HeaderList implements HeaderSink {
  readonly pairs: string[] = []
  header(name: string, value: string): void {
    this.pairs.push(name, value)
  }
}

/**
 * A kept answer's headers as an early hit sends them (the route's, `Content-Type`, GitLab's,
 * `Content-Length`, in that order), made once per kept answer: a hit copies them and writes only
 * what changes per request, the `Date` and the request id, at the places `gitlabHeaders` put them.
 */
function earlyHead(hit: CachedResponse, clock: Clock): EarlyHead {
  const head = new HeaderList()
  for (const name in hit.headers) head.header(name, hit.headers[name] as string)
  head.header('content-type', JSON_TYPE)
  gitlabHeaders(head, clock, '')
  head.header('content-length', String(hit.body.length))
  const { pairs } = head
  return { pairs, dateAt: pairs.lastIndexOf('date') + 1, idAt: pairs.lastIndexOf('x-request-id') + 1 }
}

/**
 * Answers a cached list's repeated GET from Node's request, before Fastify routes it and builds
 * its request and reply: a hit's body is bytes the response cache holds, and Fastify's routing,
 * hooks and reply were most of its time. The edge's checks run as its hooks run them, through the
 * same functions and in the same order: the malformed-string guard, the Host check, the turn of
 * the event loop, authentication with the token's scopes and the fault rules; then the cached
 * answer with the headers a hit gets through Fastify (the route's, `Content-Type`, GitLab's,
 * `Content-Length`, in that order), a request id from the same sequence and the same request-log
 * entry. The route's `auth` rule needs no check: an answer is cached under its caller, who passed
 * it. Everything else goes on to Fastify, which answers as it always has (a refused Host or caller
 * with GitLab's answer): a method other than GET, a URL no answer was kept for, a body, a token or
 * `sudo` in the query, a malformed string, any fault rule in force, a miss, and every request
 * once `close` is called (Fastify's close answers them 503).
 *
 * `install` takes Fastify's request listener off a server and calls it for those: every server of
 * the app, the one Fastify makes at once and those `listen` adds for a name's other addresses
 * (`localhost`: 127.0.0.1 and ::1). Hooks added outside `installEdge` would not run for an early
 * hit: none is added for a cached route.
 */
export function answerHitsEarly(parts: EarlyHitParts): { install(server: Server): void; close(): void } {
  const { cache, authentication, clock, guard, turns, faults, log, requestId } = parts
  let open = true
  const urls = new Map<string, UrlFacts>()
  const factsOf = (url: string): UrlFacts => {
    let facts = urls.get(url)
    if (!facts) {
      if (urls.size >= MAX_URLS) urls.clear()
      facts = {
        plain: plainAscii(url) && !urlMayAuthenticate(url),
        logged: redactUrl(url),
        key: { actor: null, day: '', text: '' },
      }
      urls.set(url, facts)
    }
    return facts
  }

  /** Fastify answers (`routed`, its listener): with its turn already taken when it was taken here. */
  const toFastify = (req: IncomingMessage, res: ServerResponse, letIn: boolean, routed: Listener) => {
    if (letIn) turns.letIn(req)
    routed(req, res)
  }

  /** `cacheKey`, the same string while the URL's caller and day stay. */
  const keyOf = (facts: UrlFacts, actor: number | null, url: string) => {
    const day = today(clock)
    const { key } = facts
    if (key.actor !== actor || key.day !== day) facts.key = { actor, day, text: cacheKey(actor, day, url) }
    return facts.key.text
  }

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    route: CachedRoute,
    facts: UrlFacts,
    started: number,
    routed: Listener,
  ) => {
    const url = req.url as string
    let actor: Actor
    let hit: CachedResponse | undefined
    try {
      if (!faults.empty) return toFastify(req, res, true, routed)
      actor = authenticate(authentication, {
        headers: req.headers,
        query: undefined,
        body: undefined,
        method: 'GET',
        route: route.pattern,
        jobToken: route.jobToken,
      })
      hit = cache.get(keyOf(facts, actor.id, url))
    } catch {
      // A refused caller: Fastify's authentication hook refuses it again, with GitLab's answer.
      return toFastify(req, res, true, routed)
    }
    if (!hit) return toFastify(req, res, true, routed)
    const id = requestId()
    const head = (hit.early ??= earlyHead(hit, clock)).pairs.slice()
    head[hit.early.dateAt] = httpDate(clock)
    head[hit.early.idAt] = id
    res.writeHead(200, head)
    res.end(hit.body)
    log.keep({
      id: 0,
      time: 0,
      method: 'GET',
      url: facts.logged,
      status: 200,
      durationMs: performance.now() - started,
      actor: actor.user?.username ?? null,
      route: route.pattern,
      requestId: id,
      fault: null,
      requestBody: log.bodies ? requestBody(req.headers, undefined) : null,
      responseBody: log.bodies ? responseBody(JSON_TYPE, hit.body) : null,
    })
  }

  /** A request: answered here when it is a hit, else handed to Fastify's listener `routed`. */
  const early = (routed: Listener) => (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now()
    const url = req.url as string
    const route = open && req.method === 'GET' ? cache.routeOf(url) : undefined
    const facts = route && factsOf(url)
    const { headers } = req
    if (!route || !facts?.plain || !hasNoBody(headers) || malformedCredentials(headers.authorization))
      return toFastify(req, res, false, routed)
    try {
      guard.check(req)
    } catch {
      return toFastify(req, res, false, routed)
    }
    turns.run(() => answer(req, res, route, facts, started, routed))
  }

  return {
    install(server) {
      const [fastify, ...others] = server.listeners('request') as Listener[]
      if (!fastify || others.length > 0)
        throw new Error('answerHitsEarly: expected Fastify as the one request listener')
      server.removeListener('request', fastify)
      server.on('request', early(fastify.bind(server)))
    },
    close() {
      open = false
    },
  }
}
