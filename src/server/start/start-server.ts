import { buildServer, DEFAULT_GITLAB_VERSION, type GitLabServer } from './build-server.js'
import type { TransferOptions } from './open-state.js'
import { builtInSeed, defaultSeed, freshInstanceSeed } from '../seed/default.js'
import { loadSeedFile, parseSeed } from '../seed/parse.js'
import type { ExistingRecords } from '../seed/rules.js'
import { existingRecords, rememberedSeedTokens, seedTokens } from '../services/seed.js'
import { fixedStartSeed, readStartSeed, type SeedFile } from '../services/seed-image.js'
import type { Seed } from '../../schema/seed.js'
import type { Clock } from '../domain/clock.js'
import type { RequestFilter } from '../domain/request-ring.js'
import { presentRequest } from '../present/emulator-requests.js'
import type { EmulatorFault, EmulatorFaultInput, EmulatorRequest } from '../../schema/emulator-instruments.js'
import type { EmulatorClockState, EmulatorSettled } from '../../schema/emulator-clock.js'
import { DEFAULT_SETTLE_TIMEOUT_S } from '../services/background-work.js'

export type { Seed } from '../../schema/seed.js'
export type { Clock } from '../domain/clock.js'
export { SeedError } from '../seed/parse.js'
export { FaultRuleError } from '../domain/fault-rules.js'
export type { RequestFilter } from '../domain/request-ring.js'
export type { EmulatorFault, EmulatorFaultInput, EmulatorRequest } from '../../schema/emulator-instruments.js'
export type { EmulatorClockState, EmulatorSettled, EmulatorUnsettled } from '../../schema/emulator-clock.js'
export { ClockMoveError } from '../domain/emulator-clock.js'
export { UnsettledError } from '../services/background-work.js'
export { DEFAULT_ROOT_TOKEN, DEFAULT_TRIGGER_TOKEN } from '../seed/default.js'

/**
 * A seed, in the format of docs/seed.md: an object, `'none'` for a fresh instance (only the
 * administrator `root`, whose token is `token`; as a seed to add, nothing), a path to a YAML
 * (or JSON) file, or YAML text. A string of one line is a path unless it starts with `{`; YAML text
 * has several lines (or is one flow mapping, `{ users: [...] }`).
 */
export type SeedSource = Seed | string

/** Options of {@link startServer}; all optional. */
export interface StartOptions {
  /**
   * The seed loaded into an empty store at start and restored by `reset()`. Default: the built-in
   * seed (`root` with `DEFAULT_ROOT_TOKEN`, group `demo`, project `demo/app` with three issues); off
   * loopback (`host` other than 127.x, `::1` or `localhost`) root's token is a random one, `token`.
   * `'none'`: only `root`, with the same token, as a fresh GitLab.
   */
  seed?: SeedSource
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number
  /** Address to listen on (default `127.0.0.1`); `0.0.0.0` accepts connections from other machines. */
  host?: string
  /** `:memory:` (default) keeps nothing; a directory keeps the store across restarts, and a seed is applied only while it is empty. */
  data?: string
  /** External URL used in every URL the API hands out (`web_url`, pagination links); default: `url`. */
  baseUrl?: string
  /** GitLab release to report and behave as, `13.0.0` to `18.x` (default `18.6.0`). */
  gitlabVersion?: string
  /** GitLab edition to behave as: `ee` (default) or `ce`. */
  edition?: 'ee' | 'ce'
  /** Let imports and export uploads reach local and private addresses (default false, as GitLab). */
  allowLocalRequests?: boolean
  /**
   * More names the Host header may carry, besides the listening address, its loopback names and
   * the base URL's host (DNS-rebinding protection); listening on 0.0.0.0 or ::, IP addresses pass
   * too, and names (a container's service name) only when listed here.
   */
  allowedHosts?: string[]
  /** Issue creations allowed per project and user per minute (default 300; 0 turns the limit off). */
  issuesCreateLimit?: number
  /**
   * The server's time (default: the system clock): every timestamp it writes (`created_at`,
   * `updated_at`, notes, pipelines), its jobs' progress, the rate limits' one-minute windows and the
   * `Date` header. A fixed clock makes answers repeatable; moving it on passes a rate limit's minute.
   */
  clock?: Clock
  /**
   * Start with the clock frozen at this instant (ISO 8601 text or a `Date`; `serve --clock
   * frozen:ISO`): it moves only through `clock.*` or `/-/emulator/clock`, and `reset()` returns to it.
   */
  frozenAt?: Date | string
  /**
   * The request log (`GET /-/emulator/requests`, `requests()`): `size` requests kept, the oldest
   * dropped first (default 1000; 0 keeps none); `bodies` keeps their bodies too, redacted and cut
   * at 4096 characters (default false; `serve --log-bodies`).
   */
  requestLog?: { size?: number; bodies?: boolean }
  /** Fault rules in force from the start, as `fault(rule)` adds them; a bad one rejects with a `FaultRuleError`. */
  faults?: EmulatorFaultInput[]
  /** Fastify's request log on stdout (default false). */
  logger?: boolean
  /**
   * How long `close()` lets answers still being sent finish, in ms (default 5,000): past it their
   * connections are cut. A client that stopped reading a download would otherwise hold `close()`.
   */
  closeGraceMs?: number
  /** @internal Export and import settings (an S3 endpoint, size and rate limits), for tests. */
  transfers?: TransferOptions
  /**
   * @internal Keep the store seeded from a seed file (or the built-in seed on loopback) as an image
   * for the next start of this build (`build`: its checksum), in Node's compile cache directory
   * (services/seed-image.ts); `serve` sets it.
   */
  seedImages?: { build: string }
}

/** The controls of a running emulator's clock (`RunningServer.clock`). */
export interface ServerClock {
  /** The server's time. */
  now(): Date
  /** `{now, frozen}`, as `GET /-/emulator/clock`. */
  state(): EmulatorClockState
  /** Stops the clock, at `at` (not before its time) or where it stands. */
  freeze(at?: Date | string): Promise<EmulatorSettled>
  /** Lets it run on from where it stands. */
  unfreeze(): Promise<EmulatorSettled>
  /** Jumps to `at` (not before its time), frozen or running as before. */
  set(at: Date | string): Promise<EmulatorSettled>
  /** Moves `seconds` forward (as the HTTP control: seconds, not milliseconds). */
  advance(seconds: number): Promise<EmulatorSettled>
}

/** A running emulator, from {@link startServer}. */
export interface RunningServer {
  /** Where to send requests: `http://127.0.0.1:PORT` (the loopback for a wildcard `host`). */
  url: string
  /** The REST API base: `url` + `/api/v4`. */
  apiUrl: string
  /** The address really bound, e.g. `http://0.0.0.0:PORT`. */
  address: string
  /**
   * The token of the start-up seed's first administrator that has one (`root`'s in the default
   * seed); of a `data` directory that already held data, of the seed it was first given.
   */
  token: string | undefined
  /** The token of the start-up seed's first pipeline trigger that names one (demo/app's `deploy` in the default seed). */
  triggerToken: string | undefined
  /** False when a `data` directory already held data, so `seed` was not applied. */
  seeded: boolean
  /** Back to the start-up seed (of a `data` directory: the seed it was first given), as `POST /-/emulator/reset`. */
  reset(): Promise<void>
  /** Adds more seed, whole or not at all, as `POST /-/emulator/seed`; rejects with a `SeedError` on a bad one. */
  seed(more: SeedSource): Promise<void>
  /**
   * Saves the whole store as `name` (`[A-Za-z0-9_.-]{1,64}`), as `POST /-/emulator/snapshots/:name`;
   * a taken name rejects unless `replace`. With a `data` directory the snapshot survives a restart.
   */
  snapshot(name: string, options?: { replace?: boolean }): Promise<void>
  /** Puts the store back as snapshot `name` has it, as `POST /-/emulator/snapshots/:name/restore`; `reset()` still returns to the seed. */
  restore(name: string): Promise<void>
  /**
   * The requests the log holds that match `filter` (as `GET /-/emulator/requests`), oldest first:
   * all of them, unless `filter.limit` asks for fewer.
   */
  requests(filter?: RequestFilter): EmulatorRequest[]
  /** Empties the request log, as `DELETE /-/emulator/requests`. */
  clearRequests(): void
  /** Adds a fault rule, as `POST /-/emulator/faults`; throws a `FaultRuleError` on a bad one. */
  fault(rule: EmulatorFaultInput): EmulatorFault
  /** The fault rules with their counts, as `GET /-/emulator/faults`. */
  faults(): EmulatorFault[]
  /** Removes every fault rule, as `DELETE /-/emulator/faults`. */
  clearFaults(): void
  /**
   * The server's clock, as `/-/emulator/clock` moves it: it never goes back (a `ClockMoveError`),
   * and each move applies the pipeline moves due by the new time and waits for export and import jobs.
   */
  clock: ServerClock
  /**
   * Runs all background work to its end, as `POST /-/emulator/settle`: export and import jobs,
   * pipelines move by move (the clock jumps to each), then webhook deliveries. Rejects with an
   * `UnsettledError` (`status` 409 when a pipeline waits for a manual job, 504 when jobs or deliveries
   * still run after `timeoutSeconds`, default 10).
   */
  settle(options?: { timeoutSeconds?: number }): Promise<EmulatorSettled>
  /** Stops accepting, finishes requests in flight (cutting a `slow_body` fault's answer still being sent), closes the store. */
  close(): Promise<void>
  /** The underlying server (store, Fastify app), for tests of the project itself. */
  server: GitLabServer
}

/**
 * Starts the GitLab emulator for a test suite:
 *
 * ```ts
 * const gitlab = await startServer({ seed: 'test/seed.yaml' })
 * beforeEach(() => gitlab.reset())
 * afterAll(() => gitlab.close())
 * ```
 *
 * Rejects with a `SeedError` (`seed.yaml: projects[0].path: unknown namespace x`) on a bad seed.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const { seed, file } = await startSeed(options, host)
  const server = await buildServer({
    data: options.data,
    seed,
    seedFile: file,
    baseUrl: options.baseUrl,
    edition: options.edition,
    gitlabVersion: options.gitlabVersion,
    allowLocalRequests: options.allowLocalRequests,
    allowedHosts: options.allowedHosts,
    issuesCreateLimit: options.issuesCreateLimit,
    clock: options.clock,
    frozenAt: options.frozenAt === undefined ? undefined : instant(options.frozenAt),
    logger: options.logger,
    closeGraceMs: options.closeGraceMs,
    transfers: options.transfers,
    requestLog: options.requestLog,
    faults: options.faults,
  })
  let url: string
  try {
    url = await server.listen({ host, port: options.port ?? 0 })
  } catch (err) {
    await server.close()
    throw err
  }
  // A data directory that already held data keeps the seed it was first given (and its tokens), as
  // does a seed file's image.
  const tokens = server.seeded && seed ? seedTokens(seed) : rememberedSeedTokens(server.store)
  return {
    url,
    apiUrl: `${url}/api/v4`,
    address: server.address,
    token: tokens?.admin,
    triggerToken: tokens?.trigger,
    seeded: server.seeded,
    reset: async () => server.reset(),
    seed: async (more) => server.seed(await resolveSeed(more, existingRecords(server.store))),
    snapshot: async (name, opts = {}) => void server.snapshots.save(name, opts.replace ?? false),
    restore: async (name) => void server.snapshots.restore(name),
    requests: (filter) => allRequests(server, filter),
    clearRequests: () => server.instruments.requests.clear(),
    fault: (rule) => server.instruments.faults.add([rule])[0] as EmulatorFault,
    faults: () => server.instruments.faults.list(),
    clearFaults: () => server.instruments.faults.clear(),
    clock: serverClock(server),
    settle: (opts = {}) => server.background.settle((opts.timeoutSeconds ?? DEFAULT_SETTLE_TIMEOUT_S) * 1000),
    close: () => server.close(),
    server,
  }
}

/** A `Date` from a `Date` or ISO text; a `TypeError` for text that is no time. */
function instant(at: Date | string): Date {
  const date = typeof at === 'string' ? new Date(at) : at
  if (Number.isNaN(date.getTime())) throw new TypeError(`not a time: ${String(at)}`)
  return date
}

function serverClock(server: GitLabServer): ServerClock {
  const move = (fn: Parameters<GitLabServer['background']['moveClock']>[0]) =>
    server.background.moveClock(fn, DEFAULT_SETTLE_TIMEOUT_S * 1000)
  return {
    now: () => new Date(server.background.clock().now),
    state: () => server.background.clock(),
    freeze: (at) => move((c) => c.freeze(at === undefined ? undefined : instant(at))),
    unfreeze: () => move((c) => c.unfreeze()),
    set: (at) => move((c) => c.set(instant(at))),
    advance: (seconds) => move((c) => c.advance(Math.round(seconds * 1000))),
  }
}

/** Every request of the log that matches, page after page (one page when the filter sets a `limit`). */
function allRequests(server: GitLabServer, filter: RequestFilter = {}): EmulatorRequest[] {
  const out: EmulatorRequest[] = []
  for (let since = filter.since_id; ;) {
    const { entries, more } = server.instruments.requests.find({ ...filter, since_id: since })
    out.push(...entries.map(presentRequest))
    if (!more || filter.limit !== undefined) return out
    since = entries.at(-1)?.id
  }
}

/**
 * The start's seed; of a seed whose store is kept as an image (a file, or the built-in seed on
 * loopback, whose tokens are the well-known ones), its text too, and no seed where the image was found.
 */
async function startSeed(options: StartOptions, host: string): Promise<{ seed?: Seed; file?: SeedFile }> {
  const source = options.seed ?? builtInSeed(host)
  if (source === 'none') return { seed: freshInstanceSeed(host) }
  const images = (options.data ?? ':memory:') === ':memory:' ? options.seedImages : undefined
  const key = [options.edition ?? 'ee', options.gitlabVersion ?? DEFAULT_GITLAB_VERSION]
  if (images && isSeedFile(source)) return readStartSeed(source, images.build, key)
  if (images && source === defaultSeed) return fixedStartSeed(defaultSeed, images.build, key)
  return { seed: await resolveSeed(source) }
}

/** A string of one line is a path unless it starts with `{`. */
const isSeedFile = (source: SeedSource): source is string =>
  typeof source === 'string' && source !== 'none' && !/\n|^\s*\{/.test(source)

/** A checked seed from any `SeedSource`; `'none'` is the empty seed (`startServer` starts it with `root`). */
export async function resolveSeed(source: SeedSource, existing?: ExistingRecords): Promise<Seed> {
  if (typeof source !== 'string') return parseSeed(JSON.stringify(source), 'seed', existing)
  if (source === 'none') return {}
  if (!isSeedFile(source)) return parseSeed(source, 'seed', existing)
  return loadSeedFile(source, existing)
}
