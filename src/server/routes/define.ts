import { Type, type TObject, type TSchema, type Static } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { parseParams, parsePath } from '../grape/params.js'
import { multipartParams } from '../http/form-params.js'
import { GitLabError, badRequest, forbidden, paramError, unauthorized } from '../grape/gitlab-errors.js'
import { setPageLinks, type LinkContext, type PageOut } from '../grape/pagination.js'
import { grapeParams } from '../grape/grape-params.js'
import type { Instance } from '../present/context.js'
import type { Actor } from '../services/access.js'
import { today, type Clock } from '../domain/clock.js'
import { cacheKey, type ResponseCache } from '../http/response-cache.js'
import type { ListWatch } from '../services/watched-issue-lists.js'
import { ownBytes, ownJsonArray } from '../http/own-bytes.js'
import { requestMethod } from '../http/head-requests.js'

/** One route of the API, as the OpenAPI document describes it. */
export interface RouteDoc {
  method: HTTPMethods
  url: string
  summary: string
  params?: TObject
  query?: TObject
  body?: TObject
  response: Record<number, TSchema>
  /** Who may call it: `optional` routes take anonymous callers too. */
  auth?: AuthRule
  /** 4xx statuses besides those every route may answer (400, 401, 403, 404), e.g. 405, 409, 429. */
  errors?: number[]
  /** The path as the OpenAPI document names it, where the router needs a wildcard (`/ref/*`). */
  docUrl?: string
  /** CI/CD job tokens authenticate here (GitLab's `route_setting :authentication, job_token_allowed: true`). */
  jobToken?: boolean
}

const NO_PARAMS = Type.Object({})
/** The schema of a route without parameters. */
export type NoParams = typeof NO_PARAMS

/**
 * A handler's answer already written as JSON (issue lists put theirs together from kept records):
 * text, which Node writes in one chunk with the headers, or UTF-8 bytes.
 */
export class JsonAnswer {
  constructor(readonly body: string | Buffer) {}
  /** A JSON array of these JSON values, as bytes of their own (a list's answer is cached). */
  static array(items: string[]): JsonAnswer {
    return new JsonAnswer(ownJsonArray(items))
  }
}

/**
 * `required`: GitLab's `authenticate!`; `non_get`: `authenticate_non_get!`; `optional`: anonymous welcome;
 * `admin`: `authenticated_as_admin!` (401 anonymous, 403 to others), before the parameters are read.
 */
export type AuthRule = 'required' | 'non_get' | 'optional' | 'admin'

/** A route as its module declares it: the documented parts, the parameters' schemas and how it is served. */
export interface RouteSpec<P extends TObject, Path extends TObject> extends Omit<
  RouteDoc,
  'params' | 'query' | 'body'
> {
  input?: P
  in?: 'query' | 'body'
  pathParams?: Path
  /** Serve repeated GETs from the response cache while the store is unchanged (lists). */
  cached?: boolean
  /** The handler reads a multipart body's parts itself (file uploads); others get its fields as params. */
  readsParts?: boolean
  /**
   * Grape's `before` block (`before { authorize_read_code! }`): runs with the checked path before the
   * declared parameters are, so a caller who may not read answers 403 or 404 rather than a 400.
   */
  before?: (b: { actor: Actor; path: Static<Path> }) => void
  /**
   * The parameters of GitLab's own `head` route for the URL, where it declares fewer than the GET
   * (lib/api/files.rb's blame): a HEAD request is parsed against these, a subset of `input`, and the
   * handler, told by `h.head`, reads only them. Without it, HEAD is parsed and answered as its GET.
   */
  headInput?: TObject
}

export interface Handled<P, Path> {
  req: FastifyRequest
  reply: FastifyReply
  actor: Actor
  /**
   * The path parameters `pathParams` declares: its `Type.Integer()` ones as numbers, checked as Grape
   * checks them; the others as given (an `:id` is a number or a URL-encoded full path). A route that
   * reads its parts itself has its path checked when it first reads it, after the parts.
   */
  path: Path
  /** Query and body merged, parsed against the route's schema as Grape does (src/server/grape/params.ts). */
  params: P
  /** A HEAD request on a route with a `headInput` (its `params` are those only). */
  head: boolean
  /**
   * A cached route's answer reads only these scopes (`project:<id>`, `group:<path>`;
   * src/server/store/changes.ts), so writes elsewhere keep it; unsaid, any write drops it. With
   * `watch`, the page of an issue list it shows, only a write that can have changed it does.
   */
  cachedUnder(scopes: string[], watch?: ListWatch): void
  /**
   * Sets the page's headers (X-Page and the others, or a keyset `Link`) with links carrying the
   * route's declared parameters as Grape sees them, and returns the page's items.
   */
  sendPage<T>(page: PageOut<T>): T[]
}

/** Registers one route on the API (see `routeTable`). */
export type Route = <P extends TObject = typeof NO_PARAMS, Path extends TObject = typeof NO_PARAMS>(
  spec: RouteSpec<P, Path>,
  handler: (h: Handled<Static<P>, Static<Path>>) => unknown,
) => void

export interface RouteTable extends Route {
  /** Registers on an encapsulated scope (one with its own multipart settings), documented all the same. */
  within(scope: FastifyInstance): Route
  /** Documents a route its module serves by hand (a streamed upload). */
  document(doc: RouteDoc): void
  /** Every route, in the order registered, for `/api/v4/openapi.json`. */
  readonly docs: readonly RouteDoc[]
}

/**
 * The `route(spec, handler)` that route modules register with: parameters parsed by our Grape-style
 * parser, responses serialised through their schemas, each route recorded for the OpenAPI document,
 * a `cached` route's answers kept in `cache`.
 */
export function routeTable(
  app: FastifyInstance,
  instance: Instance,
  clock: Clock,
  cache: ResponseCache,
): RouteTable {
  const docs: RouteDoc[] = []
  const on =
    (scope: FastifyInstance): Route =>
    (spec, handler) => {
      docs.push(docOf(spec))
      register(scope, { instance, clock, cache }, spec, handler)
    }
  return Object.assign(on(app), {
    within: on,
    document: (doc: RouteDoc) => void docs.push(doc),
    docs,
  })
}

function docOf<P extends TObject, Path extends TObject>(spec: RouteSpec<P, Path>): RouteDoc {
  const where = spec.in ?? (spec.method === 'GET' || spec.method === 'DELETE' ? 'query' : 'body')
  return {
    method: spec.method,
    url: spec.url,
    summary: spec.summary,
    ...(spec.pathParams ? { params: spec.pathParams } : {}),
    ...(spec.input ? { [where]: spec.input } : {}),
    response: spec.response,
    auth: spec.auth ?? 'optional',
    ...(spec.errors ? { errors: spec.errors } : {}),
    ...(spec.docUrl ? { docUrl: spec.docUrl } : {}),
    ...(spec.jobToken ? { jobToken: true } : {}),
  }
}

/** What every route of a table shares: the instance, the clock and the lists' response cache. */
interface Shared {
  instance: Instance
  clock: Clock
  cache: ResponseCache
}

function register<P extends TObject, Path extends TObject>(
  scope: FastifyInstance,
  { instance, clock, cache: lists }: Shared,
  spec: RouteSpec<P, Path>,
  handler: (h: Handled<Static<P>, Static<Path>>) => unknown,
): void {
  const pathSchema = spec.pathParams ?? NO_PARAMS
  const input = spec.input ?? NO_PARAMS
  // Pagination links carry Grape's `params` (`lib/gitlab/pagination/offset_header_builder.rb`,
  // `keyset/header_builder.rb`): the path's parameters, the declared ones as Grape coerced them,
  // with the defaults it filled in, never whatever undeclared a caller adds.
  const pathKeys = Object.keys(pathSchema.properties)
  // What the early hits need of the route to answer a URL it answered again (http/early-hits.ts).
  const cachedRoute = { pattern: spec.url, jobToken: spec.jobToken ?? false }
  scope.route({
    method: spec.method,
    url: spec.url,
    schema: { response: spec.response },
    config: { jobToken: spec.jobToken ?? false },
    // Clients such as gitbeaker send forms as multipart/form-data; Rack reads its fields as params
    // before any API code runs, so a malformed field is refused before authentication and access
    // hooks (src/server/http/malformed-strings.ts).
    preValidation: (req, _reply, done) => {
      if (spec.readsParts || !req.isMultipart?.()) return done()
      formFields(req).then((fields) => {
        req.body = fields
        done()
      }, done)
    },
    // Synchronous up to a cache hit, which is sent at once (no promise, no later turn);
    // everything else goes on in `answer`.
    handler: (req, reply) => {
      const auth = spec.auth ?? 'optional'
      if (
        !req.actor.user &&
        (auth === 'required' || auth === 'admin' || (auth === 'non_get' && spec.method !== 'GET'))
      )
        throw unauthorized()
      if (auth === 'admin' && !req.actor.admin) throw forbidden()
      // A cached answer was made for this caller, URL and day from the same store generation,
      // so its parameter and access checks have passed already (errors are never cached). The
      // early hits (http/early-hits.ts) answer with it before routing, by the same key.
      const cache = spec.cached ? lists : undefined
      const key = cache ? cacheKey(req.actor.id, today(clock), req.url) : ''
      const hit = cache?.get(key)
      if (cache && hit) {
        // Answered here, the URL's route had been forgotten (or the request was not a plain one).
        cache.routed(req.url, cachedRoute)
        reply.headers(hit.headers).type('application/json').send(hit.body)
        return undefined
      }
      return answer(req, reply, cache, key)
    },
  })

  // A list's link context is all its path's, its declared parameters' as given and the base URL's:
  // one per such key, so that its links are made once (grape/pagination.ts keeps them by context);
  // parameters the route does not declare never reach a link. Bounded: past it, anew. Made at the
  // first list (memory after start: a Set and a Map for each of 300-odd routes, most never listing).
  let declared: Set<string> | undefined
  let linkContexts: Map<string, LinkContext> | undefined
  const linkContext = (req: FastifyRequest, path: Record<string, unknown>): LinkContext => {
    declared ??= new Set(Object.keys(input.properties))
    linkContexts ??= new Map()
    const query = (req.query ?? {}) as Record<string, unknown>
    const given: unknown[] = [instance.baseUrl, req.url.split('?')[0]]
    for (const name in query) if (declared.has(name)) given.push(name, query[name])
    const key = JSON.stringify(given)
    let link = linkContexts.get(key)
    if (!link) {
      if (linkContexts.size >= 1000) linkContexts.clear()
      link = {
        baseUrl: instance.baseUrl,
        path: req.url.split('?')[0] as string,
        params: {
          ...grapeParams(input, req.query),
          ...Object.fromEntries(pathKeys.map((key) => [key, path[key]])),
        },
      }
      linkContexts.set(key, link)
    }
    return link
  }

  async function answer(
    req: FastifyRequest,
    reply: FastifyReply,
    cache: ResponseCache | undefined,
    key: string,
  ) {
    // Taken on a miss only, before the handler reads the store: a hit checks its own entry.
    const generation = cache?.generation() ?? 0
    const merged = {
      ...(req.query as Record<string, unknown>),
      ...(req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}),
    }
    // Grape checks the path's integers and the declared parameters in one pass, path first. A
    // handler that reads its parts itself checks its path after them: the malformed-string guard
    // reads every field before Grape validates anything.
    const path = parsePath(pathSchema, req.params as Record<string, string>)
    if (spec.before && path.errors.length === 0) spec.before({ actor: req.actor, path: path.path })
    const head = spec.headInput !== undefined && requestMethod(req) === 'HEAD'
    const params = parseParams(head ? spec.headInput! : input, merged, spec.readsParts ? [] : path.errors)
    let scopes: string[] | undefined
    let watch: ListWatch | undefined
    const handled: Handled<Static<P>, Static<Path>> = {
      req,
      reply,
      actor: req.actor,
      path: path.path,
      params: params as Static<P>,
      head,
      cachedUnder: (s, w) => {
        scopes = s
        watch = w
      },
      sendPage: (page) => setPageLinks(reply, linkContext(req, path.path as Record<string, unknown>), page),
    }
    if (spec.readsParts)
      Object.defineProperty(handled, 'path', {
        get: () => {
          if (path.errors.length > 0) throw paramError(path.errors.join(', '))
          return path.path
        },
      })
    // A watch the cache does not take (`set` releases one it declines) is released here.
    let taken = false
    try {
      const result = await handler(handled)
      if (reply.sent) return result
      const json = result instanceof JsonAnswer ? result.body : undefined
      if (!cache) return json === undefined ? result : reply.type('application/json').send(json)
      // Kept in the cache: bytes of their own, never a slice of the shared pool (src/server/http/own-bytes.ts).
      const body = typeof json === 'object' ? json : ownBytes(json ?? (reply.serialize(result) as string))
      const headers: Record<string, string> = {}
      const set = reply.getHeaders()
      for (const name in set)
        if (set[name] !== undefined && name !== 'content-type') headers[name] = String(set[name])
      taken = true
      cache.set(key, generation, { body, headers }, scopes, watch)
      cache.routed(req.url, cachedRoute)
      return reply.type('application/json').send(body)
    } finally {
      if (!taken) watch?.release()
    }
  }
}

/** A multipart body's fields (files drained); a body over the limits is 413, a broken one 400. */
async function formFields(req: FastifyRequest): Promise<Record<string, unknown>> {
  try {
    return await multipartParams(req)
  } catch (err) {
    throw err instanceof GitLabError ? err : badRequest()
  }
}
