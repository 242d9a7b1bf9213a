import Fastify, { type FastifyInstance } from 'fastify'
import fastJson from 'fast-json-stringify'
import type { Clock } from '../domain/clock.js'
import { createInstruments, type Instruments } from '../domain/instruments.js'
import type { Instance } from '../present/context.js'
import type { Authentication } from '../services/authentication.js'
import { authenticate, credentialsOf } from './auth.js'
import { bodyParsers } from './body-parsers.js'
import { otherBindings } from './app-servers.js'
import { browserGuard, type BrowserGuard } from './browser-guard.js'
import { clientErrors } from './client-errors.js'
import { answerHitsEarly } from './early-hits.js'
import { handleError } from './error-handler.js'
import { installFaults } from './faults.js'
import { parseQuery } from './form-params.js'
import { gitlabHeaders, JSON_TYPE } from './gitlab-headers.js'
import { routeHeadAsGet } from './head-requests.js'
import { checkUnroutedParts, frameworkErrors, malformedStringGuard } from './malformed-strings.js'
import { requestIds } from './request-ids.js'
import { installRequestLog } from './request-log.js'
import { prebuiltSerializer } from './prebuilt-serializers.js'
import { requestTurns } from './request-turns.js'
import type { ResponseCache } from './response-cache.js'
import { serializerSchema } from './serializer-schema.js'
import { syncHook } from './sync-hook.js'

/** What the edge needs from the server's state. */
export interface EdgeState {
  /** Read on every request: the base URL is known only once the server listens. */
  instance: Instance
  clock: Clock
  services: { authentication: Authentication }
  /** The lists' answers, which a repeated request gets before routing (http/early-hits.ts). */
  cache: ResponseCache
}

/**
 * The HTTP edge every request passes before its route, in order: the malformed-string guard, the
 * browser guard (Host, CSRF), the turn of the event loop, authentication, the fault rules; then
 * GitLab's headers on every answer (`X-Request-Id` among them), the request log once it is sent,
 * the one error handler and GitLab's 404 and 410 for paths no route serves. `instruments` (the
 * request log and the fault rules) default to a log of 1000 requests and no rules. A cached
 * list's repeated request is answered before routing, through the same checks (http/early-hits.ts).
 */
export async function installEdge(
  state: EdgeState,
  options: { logger?: boolean; allowedHosts?: string[]; instruments?: Instruments },
): Promise<{ app: FastifyInstance; guard: BrowserGuard }> {
  const instruments = options.instruments ?? createInstruments()
  const { instance, clock } = state
  const requestId = requestIds()
  const serializers = lazySerializers()
  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { querystringParser: parseQuery, ignoreTrailingSlash: true, maxParamLength: 2000 },
    bodyLimit: 8 * 1024 * 1024,
    // Memory and time at start: Fastify loads each route's setup as a plugin step, and a timeout
    // (a timer set and cleared) on every step, 240 at each start, made Node's timer code hot enough
    // to be compiled by V8's optimizer during the start (2 MB more resident). Our plugins never hang.
    pluginTimeout: 0,
    frameworkErrors,
    clientErrorHandler: clientErrors,
    // On close: idle keep-alive sockets go at once, requests in flight finish (graceful SIGTERM).
    forceCloseConnections: 'idle',
    // HEAD is answered by each GET route without a route of its own (src/server/http/head-requests.ts).
    exposeHeadRoutes: false,
    rewriteUrl: routeHeadAsGet,
    // GitLab's X-Request-Id (http/request-ids.ts), which the request log names too.
    genReqId: () => requestId(),
    // Start-up time and memory: Fastify's default compilers load ajv (with its formats) and
    // fast-json-stringify's as Fastify is made. No route has a schema to validate (parameters are
    // parsed Grape-style, grape/params.ts), and answers go through the serializers below.
    // One serializer compiler for every scope: a scope set up on its own calls the factory again.
    schemaController: {
      compilersFactory: { buildValidator: noValidation, buildSerializer: () => serializers },
    },
  })
  await bodyParsers(app)
  app.decorateRequest('actor', null as never)
  app.setErrorHandler(handleError)
  const log = installRequestLog(app, instruments.requests, { clock, bodies: instruments.bodies })
  // Before anything else reads the request: NUL bytes and invalid UTF-8 are a plain 400. The
  // JSON and form parsers of `bodyParsers` keep each body's bytes for it.
  malformedStringGuard(app)
  // Before any route: a foreign Host (DNS rebinding) or a cross-site change (CSRF) is refused.
  const guard = browserGuard(() => instance.baseUrl, options.allowedHosts)
  app.addHook(
    'onRequest',
    syncHook((req) => guard.check(req.raw)),
  )
  // Before any handler reads the store: a busy turn of the event loop hands later requests to the next.
  const turns = requestTurns()
  app.addHook('preHandler', turns.hook)
  app.addHook('preHandler', (req, _reply, done) => {
    try {
      req.actor = authenticate(state.services.authentication, credentialsOf(req))
    } catch (refusal) {
      // HandleMalformedStrings runs before Grape authenticates: a refused caller's malformed
      // multipart field is still a 400 (the route would have read the fields after this hook).
      if (req.isMultipart?.()) return void checkUnroutedParts(req).then(() => done(refusal as Error), done)
      return done(refusal as Error)
    }
    done()
  })
  // After authentication, so that a fault rule may name the caller.
  installFaults(app, instruments.faults, { clock, record: log.record })
  app.addHook('onSend', (req, reply, payload, done) => {
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith(JSON_TYPE)) reply.header('content-type', JSON_TYPE)
    gitlabHeaders(reply, clock, req.id)
    done(null, payload)
  })
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/v3/'))
      return reply
        .code(410)
        .type('application/json')
        .send({ error: 'API V3 is no longer supported. Use API V4 instead.' })
    return reply.code(404).type('application/json').send({ error: '404 Not Found' })
  })
  // With Fastify's own log on stdout (`logger`), every request goes through Fastify to be in it.
  const early = options.logger
    ? undefined
    : answerHitsEarly({
        cache: state.cache,
        authentication: state.services.authentication,
        clock,
        guard,
        turns,
        faults: instruments.faults,
        log,
        requestId,
      })
  early?.install(app.server)
  // The servers of a name's other addresses (`localhost`) answer as `app.server` does: Fastify gives
  // only that one the parser's refusals' handler, and the early hits go on each.
  app.addHook('onListen', (done) => {
    for (const server of otherBindings(app)) {
      server.on('clientError', clientErrors)
      early?.install(server)
    }
    done()
  })
  // Fastify answers 503 once it closes: the early hits leave every request to it from then on.
  app.addHook('preClose', (done) => {
    early?.close()
    done()
  })
  return { app, guard }
}

/** Fastify's validator compiler: the routes validate nothing through Fastify (see `installEdge`). */
function noValidation(): never {
  throw new Error('a route declared a schema for Fastify to validate: parse it with grape/params.ts')
}

/**
 * Start-up time: many routes answer with the same record schema, so each schema object compiles
 * once, and only when a route first answers with it (most routes of a short run never do), in
 * the form fast-json-stringify writes without validating (src/server/http/serializer-schema.ts);
 * in the CLI's bundle, the serializers of the first answers were written at build time
 * (http/prebuilt-serializers.ts), and fast-json-stringify loads only for another.
 */
function lazySerializers(): (route: { schema?: unknown }) => (data: unknown) => string {
  const serializers = new WeakMap<object, (data: unknown) => string>()
  const compiled = (schema: object) => {
    let serialize = serializers.get(schema)
    if (!serialize)
      serializers.set(
        schema,
        (serialize = prebuiltSerializer(schema) ?? fastJson(serializerSchema(schema) as object)),
      )
    return serialize
  }
  return ({ schema }) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data) => (serialize ??= compiled(schema as object))(data)
  }
}
