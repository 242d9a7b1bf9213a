import type { FastifyInstance } from 'fastify'
import { openState, type StateOptions } from './open-state.js'
import { createInstruments, type InstrumentOptions, type Instruments } from '../domain/instruments.js'
import { otherBindings } from '../http/app-servers.js'
import { installEdge } from '../http/edge.js'
import type { Instance } from '../present/context.js'
import { mountRoutes } from '../routes/index.js'
import { mountPages } from '../pages/index.js'
import type { Store } from '../store/index.js'
import type { Seed } from '../../schema/seed.js'
import type { BackgroundWork } from '../services/background-work.js'
import type { EmulatorService } from '../services/emulator.js'

export { DEFAULT_GITLAB_VERSION } from './open-state.js'

/** `openState`'s options (open-state.ts `StateOptions`) and the edge's. */
export interface ServerOptions extends StateOptions, InstrumentOptions {
  logger?: boolean
  /**
   * More names the Host header may carry (`--allowed-host`), besides the listening address, its
   * loopback names and the base URL's host; listening on 0.0.0.0 or ::, IP addresses pass too.
   */
  allowedHosts?: string[]
  /**
   * How long `close` lets answers still being sent finish, in ms (default 5,000): past it their
   * connections are cut. A client that stopped reading a download would otherwise hold close for ever.
   */
  closeGraceMs?: number
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
  /** The request log and the fault rules (`/-/emulator/requests`, `/-/emulator/faults`), in memory. */
  instruments: Instruments
  /** The clock's moves and settle (`/-/emulator/clock`, `/-/emulator/settle`). */
  background: BackgroundWork
  /** `POST /-/emulator/reset`: back to the seed the store was first given, in one transaction. */
  reset(): void
  /** `POST /-/emulator/seed`: adds a validated seed, whole or not at all. */
  seed(more: Seed): void
  /** `/-/emulator/snapshots`: named snapshots of the whole store (store/named-snapshots.ts). */
  snapshots: EmulatorService['snapshots']
  /**
   * Stops accepting, waits for in-flight requests (answers still being sent: `closeGraceMs` at most,
   * then their connections are cut), closes the store.
   */
  close(): Promise<void>
}

/**
 * Builds the reference server in three steps: the state (store, seed, services), the HTTP edge
 * every request passes (http/edge.ts), and the routes (routes/index.ts).
 */
export async function buildServer(options: ServerOptions = {}): Promise<GitLabServer> {
  // Checked before the store opens: a bad fault rule or log size fails the start, leaving nothing open.
  const instruments = createInstruments(options)
  const state = openState(options)
  const { app, guard } = await installEdge(state, { ...options, instruments })
  mountRoutes(app, { ...state, instruments })
  mountPages(app, { ...state, instruments })

  let closed = false
  // Jobs and timers stop first (in reverse order of registration); the store closes last.
  app.addHook('onClose', async () => {
    closed = true
    await state.close()
  })
  let address = ''
  const { store, instance, seeded } = state
  const { reset, seed, snapshots } = state.services.emulator
  return {
    app,
    store,
    instance,
    seeded,
    instruments,
    background: state.background,
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
    snapshots,
    async close() {
      if (closed) return
      // Node's idle sweep, run once as close begins, skips a keep-alive connection whose answer is
      // still being written (a streamed download); swept again until close ends, it goes once that
      // answer has ended instead of at Node's header timeout check, 60-90 s later.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50)
      // An answer whose client stopped reading never ends: its connection is cut once the grace is over.
      const cut = setTimeout(() => {
        for (const server of [app.server, ...otherBindings(app)]) server.closeAllConnections()
      }, options.closeGraceMs ?? CLOSE_GRACE_MS)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
        clearTimeout(cut)
      }
    },
  }
}

/** `close`'s default wait for answers still being sent. */
const CLOSE_GRACE_MS = 5_000

/** An IPv6 address goes in brackets in a URL. */
const bracketed = (host: string) => (host.includes(':') ? `[${host}]` : host)
