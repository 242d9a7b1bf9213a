import Fastify, { type FastifyInstance } from 'fastify'
import fastJson from 'fast-json-stringify'
import formbody from '@fastify/formbody'
import { parseQuery } from './form-params.js'
import { authenticate } from './auth.js'
import { browserGuard } from './browser-guard.js'
import { frameworkErrors, malformedStringGuard } from './malformed-strings.js'
import { clientErrors } from './client-errors.js'
import { responseCache } from './response-cache.js'
import { syncHook } from './sync-hook.js'
import { routeHeadAsGet } from './head-requests.js'
import { requestTurns } from './request-turns.js'
import { GitLabError, handleError, invalidJsonBody, jsonLimitError } from './gitlab-errors.js'
import { BODY_LIMITS, jsonLimitExceeded } from './json-depth.js'
import type { Instance } from './present/context.js'
import { createAccess } from './services/access.js'
import { systemClock, httpDate, isoNow, type Clock, type ServiceContext } from './services/context.js'
import { applySeed, existingRecords, rememberSeed, rememberedSeed } from './services/seed.js'
import { openStore, type Store } from './store/index.js'
import { routeTable } from './routes/define.js'
import type { ApiContext } from './routes/context.js'
import { registerRoutes, scopedRoutes } from './routes/index.js'
import { composeServices, registerBodyParsers, type TransferOptions } from './compose.js'
import { serializerSchema } from './serializer-schema.js'
import type { Seed } from '../schema/seed.js'

export interface ServerOptions {
  /** `:memory:` (default) or a directory that keeps the store across restarts. */
  data?: string
  /**
   * A validated seed, applied when the store is empty and then remembered in the store, so that a
   * reset returns to it, also after a restart of a `data` directory (see `GitLabServer.seeded`).
   */
  seed?: Seed
  /** External URL used in every URL the API hands out; defaults to the listening address. */
  baseUrl?: string
  edition?: 'ce' | 'ee'
  gitlabVersion?: string
  allowLocalRequests?: boolean
  /** Issue creations allowed per project and user per minute (GitLab's `issues_create_limit`, default 300; 0 = off). */
  issuesCreateLimit?: number
  /**
   * The server's time (default: the system clock): timestamps, jobs, the rate limits' one-minute
   * windows and the `Date` header, so that a client can tell from an answer when a window ends.
   */
  clock?: Clock
  logger?: boolean
  /** Export and import settings: S3 endpoint (hidden `--s3-endpoint`), size and rate limits. */
  transfers?: TransferOptions
  /**
   * More names the Host header may carry (`--allowed-host`), besides the listening address, its
   * loopback names and the base URL's host; listening on 0.0.0.0 or ::, a list restricts any Host.
   */
  allowedHosts?: string[]
}

export interface GitLabServer {
  app: FastifyInstance
  store: Store
  instance: Instance
  /**
   * False when `options.seed` was not applied because the store already held data (a `data`
   * directory keeps what it was first seeded with).
   */
  seeded: boolean
  /** Starts listening; resolves to the base URL (`http://HOST:PORT`, a reachable host). */
  listen(opts: { host?: string; port?: number }): Promise<string>
  /** The address really bound, `http://0.0.0.0:PORT` for a wildcard host; set by `listen`. */
  readonly address: string
  /** `POST /-/emulator/reset`: back to the seed the store was first given, in one transaction. */
  reset(): void
  /** `POST /-/emulator/seed`: adds a validated seed, whole or not at all. */
  seed(more: Seed): void
  /** Stops accepting, waits for in-flight requests, closes the store. */
  close(): Promise<void>
}

export const DEFAULT_GITLAB_VERSION = '18.6.0'

/** Builds the reference server: store, services, routes and the one error handler. */
export async function buildServer(options: ServerOptions = {}): Promise<GitLabServer> {
  const clock = options.clock ?? systemClock
  const data = options.data ?? ':memory:'
  const store = openStore(data)
  const empty = store.isEmpty()
  if (options.seed && empty)
    store.transaction(() => {
      applySeed(store, options.seed!, clock)
      rememberSeed(store, options.seed!)
    })
  // Read only when a reset needs it (a large seed kept in memory for nothing costs the server its
  // footprint). A directory seeded before seeds were remembered resets to the seed it is started with.
  const resetSeed = () => rememberedSeed(store) ?? options.seed

  const instance: Instance = {
    baseUrl: (options.baseUrl ?? 'http://localhost').replace(/\/+$/, ''),
    edition: options.edition ?? 'ee',
    version: options.gitlabVersion ?? DEFAULT_GITLAB_VERSION,
  }
  const access = createAccess(store)
  const ctx: ServiceContext = { store, access, instance, clock }

  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { querystringParser: parseQuery, ignoreTrailingSlash: true, maxParamLength: 2000 },
    bodyLimit: 8 * 1024 * 1024,
    frameworkErrors,
    clientErrorHandler: clientErrors,
    // On close: idle keep-alive sockets go at once, requests in flight finish (graceful SIGTERM).
    forceCloseConnections: 'idle',
    // HEAD is answered by each GET route without a route of its own (src/server/head-requests.ts).
    exposeHeadRoutes: false,
    rewriteUrl: routeHeadAsGet,
  })
  await app.register(formbody, { parser: parseQuery })
  // Grape reads an empty JSON body as no parameters, and answers bad JSON with its own words;
  // GitLab's JSON validation middleware refuses a body over its limits before that (and before any
  // authentication): what an anonymous body can make JSON.parse build is bounded.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    const exceeded = jsonLimitExceeded(body as Buffer, BODY_LIMITS)
    if (exceeded) return done(jsonLimitError(exceeded), undefined)
    const text = (body as Buffer).toString('utf8').trim()
    if (text === '') return done(null, {})
    try {
      done(null, JSON.parse(text))
    } catch {
      done(invalidJsonBody(), undefined)
    }
  })
  for (const type of ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain'])
    app.addContentTypeParser(type, { parseAs: 'string' }, (_req, body, done) => done(null, body))

  // Start-up time: many routes answer with the same record schema, so each schema object compiles
  // once, and only when a route first answers with it (most routes of a short run never do), in
  // the form fast-json-stringify writes without validating (src/server/serializer-schema.ts).
  const serializers = new WeakMap<object, (data: unknown) => string>()
  const compiled = (schema: object) => {
    let serialize = serializers.get(schema)
    if (!serialize) serializers.set(schema, (serialize = fastJson(serializerSchema(schema) as object)))
    return serialize
  }
  app.setSerializerCompiler(({ schema }) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data) => (serialize ??= compiled(schema as object))(data)
  })
  app.decorateRequest('actor', null as never)
  app.decorate('responseCache', responseCache(store.changes))
  app.setErrorHandler(handleError)
  // Before anything else reads the request: NUL bytes and invalid UTF-8 are a plain 400.
  malformedStringGuard(app)
  // Before any route: a foreign Host (DNS rebinding) or a cross-site change (CSRF) is refused.
  const guard = browserGuard(() => instance.baseUrl, options.allowedHosts)
  app.addHook('onRequest', syncHook(guard.check))
  const now = () => isoNow(clock)
  // Before any handler reads the store: a busy turn of the event loop hands later requests to the next.
  app.addHook('preHandler', requestTurns())
  app.addHook(
    'preHandler',
    syncHook((req) => {
      req.actor = authenticate(store, req, now)
    }),
  )
  // GitLab answers `application/json` with no charset parameter (Grape's JSON formatter in `lib/api/api.rb`);
  // some clients compare it exactly. `Date` follows the injected clock (rate-limit windows are read from it).
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith('application/json'))
      reply.header('content-type', 'application/json')
    reply.header('date', httpDate(clock))
    reply.header('x-frame-options', 'SAMEORIGIN')
    reply.header('x-content-type-options', 'nosniff')
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

  const closers: (() => Promise<void> | void)[] = []
  const resetters: (() => (() => void) | void)[] = []
  const assembly = {
    app,
    instance,
    ctx,
    settings: { data: options.data ?? ':memory:', allowLocalRequests: options.allowLocalRequests ?? false },
    onClose: (fn: () => Promise<void> | void) => void closers.push(fn),
    onReset: (fn: () => (() => void) | void) => void resetters.push(fn),
  }
  const services = composeServices(assembly, {
    issuesCreateLimit: options.issuesCreateLimit,
    transfers: options.transfers,
  })
  const api: ApiContext = { ...assembly, route: routeTable(app, instance, clock), access, services }
  // The first reset seeds again and keeps the result; later ones copy it back (src/server/store/snapshot.ts).
  const { snapshot } = store
  const reset = () => {
    if (!snapshot.taken) snapshot.attach()
    const afterCommit = store.transaction(() => {
      const after = resetters.map((fn) => fn())
      if (snapshot.taken) snapshot.restore()
      else {
        store.emptyDataTables()
        const startSeed = resetSeed()
        if (startSeed) applySeed(store, startSeed, clock)
        after.push(snapshot.take())
      }
      return after
    })
    for (const after of afterCommit) after?.()
  }
  const seed = (more: Seed) => store.transaction(() => applySeed(store, more, clock))
  const emulator = { reset, seed, existing: () => existingRecords(store) }
  registerBodyParsers(api, scopedRoutes(api, { emulator }))
  registerRoutes(api, { emulator })

  let closed = false
  // Jobs and timers stop first (in reverse order of registration); the store closes last.
  app.addHook('onClose', async () => {
    closed = true
    for (const close of closers.reverse()) await close()
    store.close()
  })
  let address = ''
  return {
    app,
    store,
    instance,
    seeded: options.seed === undefined || empty,
    get address() {
      return address
    },
    async listen({ host = '127.0.0.1', port = 0 }) {
      await app.listen({ host, port })
      const bound = app.server.address()
      const actual = typeof bound === 'object' && bound ? bound.port : port
      address = `http://${bracketed(host)}:${actual}`
      // A wildcard address accepts connections but is no address to send them to: links name the loopback.
      const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
      const url = `http://${bracketed(reachable)}:${actual}`
      if (!options.baseUrl) instance.baseUrl = url
      guard.listening(host, url)
      return url
    },
    reset,
    seed,
    async close() {
      if (closed) return
      // Node's idle sweep, run once as close begins, skips a keep-alive connection whose answer is
      // still being written (a streamed download); swept again until close ends, it goes once that
      // answer has ended instead of at Node's header timeout check, 60-90 s later.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
      }
    },
  }
}

/** An IPv6 address goes in brackets in a URL. */
const bracketed = (host: string) => (host.includes(':') ? `[${host}]` : host)

export { GitLabError }
