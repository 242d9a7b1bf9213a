import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { parseInstant } from '../server/domain/emulator-clock.js'
import { supportedVersion } from '../server/domain/releases.js'
import { DEFAULT_ROOT_TOKEN, isLoopbackHost } from '../server/seed/default.js'
import { FaultRuleError, startServer, type EmulatorFaultInput } from '../server/start/start-server.js'

export const serveHelp = `Usage: gitlab-actions serve [options]

Runs the GitLab-compatible reference server (REST API v4 under /api/v4).

Options:
  --host H                 address to listen on (default 127.0.0.1)
  --port P                 port; 0 picks a free one (default 8080)
  --data DIR|:memory:      keep the store in DIR across restarts (default :memory:)
  --seed FILE|none         YAML seed loaded into an empty store at start (default: a built-in
                           seed with an administrator root, whose token is printed: a random one
                           unless --host is a loopback address; none: only root,
                           with that token)
  --base-url URL           external URL used in the links the API hands out (default: the listening address)
  --allowed-host H         another name clients may reach the server by (the Host header); repeatable.
                           Always allowed: the listening address, localhost when on loopback, the
                           base URL's host; on 0.0.0.0 or ::, localhost and IP addresses too. Other
                           names (a container's service name, say) are refused unless given here
  --edition ee|ce          GitLab edition to behave as (default ee)
  --gitlab-version X.Y.Z   GitLab release to report and behave as, 13.0.0 to 18.x (default 18.6.0)
  --allow-local-requests   let imports, export uploads and webhooks reach local and private addresses
  --issues-create-limit N  issue creations allowed per project and user per minute (default 300, 0 = off)
  --transfer-timeout S     longest a remote import's download or an export's upload may take, in seconds
                           (default 14400, 0 = off)
  --transfer-min-rate N    bytes such a transfer must move in every 30 s, or it fails (default 10240, 0 = off)
  --ready-file PATH        once listening, write the base URL to PATH (atomically: it appears whole)
  --request-log-size N     requests the log at /-/emulator/requests keeps, oldest dropped first
                           (default 1000, 0 = off)
  --log-bodies             keep the bodies of requests and answers in that log too (redacted, cut at 4096 characters)
  --faults FILE            fault rules in force from the start: a YAML or JSON list (docs/server.md, Faults)
  --clock frozen:ISO       start with the clock frozen at that time (e.g. frozen:2026-01-01T00:00:00Z);
                           it moves only through /-/emulator/clock (docs/server.md, Clock and settle)
  -h, --help               show this help
`

/**
 * `gitlab-actions serve`, a thin wrapper over `startServer`: prints one line with the address it
 * listens on once it accepts connections (and, with the default seed, one with root's token).
 * `build`: the checksum of the running build, under which a store seeded from a file is kept for
 * the next start (src/cli/serve-script.ts gives it; services/seed-image.ts). `listening`: called
 * once those lines are out (serve-script.ts lets go of what only the start needed).
 */
export async function serve(
  argv: string[],
  { build, listening }: { build?: string; listening?: () => void } = {},
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      data: { type: 'string', default: ':memory:' },
      seed: { type: 'string' },
      'base-url': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      edition: { type: 'string', default: 'ee' },
      'gitlab-version': { type: 'string' },
      'allow-local-requests': { type: 'boolean', default: false },
      'issues-create-limit': { type: 'string' },
      'transfer-timeout': { type: 'string' },
      'transfer-min-rate': { type: 'string' },
      'ready-file': { type: 'string' },
      'request-log-size': { type: 'string' },
      'log-bodies': { type: 'boolean', default: false },
      faults: { type: 'string' },
      clock: { type: 'string' },
      // Hidden (not in the help): an S3-compatible endpoint for remote-import-s3, for tests.
      's3-endpoint': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  })
  if (values.help) {
    process.stdout.write(serveHelp)
    return 0
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`)
  if (values.edition !== 'ee' && values.edition !== 'ce')
    throw new Error(`--edition must be ee or ce, got ${values.edition}`)
  const version = values['gitlab-version']
  if (version !== undefined) {
    try {
      supportedVersion(version)
    } catch (err) {
      throw new Error(`--gitlab-version: ${(err as Error).message}`)
    }
  }
  const whole = (
    name: 'issues-create-limit' | 'transfer-timeout' | 'transfer-min-rate' | 'request-log-size',
  ) => {
    const value = values[name]
    if (value !== undefined && !/^\d+$/.test(value))
      throw new Error(`--${name} must be a whole number, got ${value}`)
    return value === undefined ? undefined : Number(value)
  }
  const limit = whole('issues-create-limit')
  const timeout = whole('transfer-timeout')
  const minRate = whole('transfer-min-rate')
  const logSize = whole('request-log-size')
  const faults = values.faults === undefined ? undefined : readFaults(values.faults)
  const frozenAt = values.clock === undefined ? undefined : frozenClock(values.clock)
  const s3 = values['s3-endpoint']
  if (s3 !== undefined && !/^https?:\/\/[^/]+/.test(s3))
    throw new Error(`--s3-endpoint must be an http(s) URL, got ${s3}`)
  const running = await startServer({
    seed: values.seed,
    host: values.host,
    port,
    data: values.data,
    baseUrl: values['base-url'],
    allowedHosts: values['allowed-host'],
    edition: values.edition,
    gitlabVersion: version,
    allowLocalRequests: values['allow-local-requests'],
    issuesCreateLimit: limit,
    requestLog: { size: logSize, bodies: values['log-bodies'] },
    faults,
    frozenAt,
    ...(build ? { seedImages: { build } } : {}),
    transfers: {
      ...(s3 ? { s3Endpoint: s3 } : {}),
      transferLimits: {
        ...(timeout === undefined ? {} : { deadlineMs: timeout * 1000 }),
        ...(minRate === undefined ? {} : { minBytes: minRate }),
      },
    },
  }).catch((err: unknown) => {
    // A rule of the file the server refused: the message names the file and the rule.
    if (err instanceof FaultRuleError) throw new Error(`--faults ${values.faults}: ${err.message}`)
    throw err
  })
  // Before the line: whoever sees the line finds the file.
  const readyFile = values['ready-file']
  if (readyFile !== undefined)
    try {
      writeReadyFile(readyFile, running.url)
    } catch (err) {
      await running.close()
      throw new Error(
        `--ready-file: cannot write ${readyFile} (${(err as NodeJS.ErrnoException).code ?? err})`,
      )
    }
  // The signals are ours before the line: whoever reads it may stop us at once, and then finds the
  // notices below written and the server closed, not a process the default action ended.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false
    const stop = () => {
      if (stopping) return
      stopping = true
      running.close().then(resolve, (err) => {
        process.stderr.write(`error while stopping: ${String(err)}\n`)
        resolve()
      })
    }
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
    stopWithNpx(stop)
  })
  const { instance } = running.server
  process.stdout.write(
    `gitlab-actions serve: listening on ${running.address} (API at ${instance.baseUrl}/api/v4)\n`,
  )
  // Off loopback the built-in seed's token is a random one (src/server/seed/default.ts builtInSeed).
  if (values.seed === undefined && running.token)
    process.stdout.write(
      `gitlab-actions serve: default seed: administrator root, token ${running.token} (--seed FILE or --seed none to change)\n`,
    )
  if (values.seed === 'none' && running.seeded && running.token)
    process.stdout.write(`gitlab-actions serve: empty instance: administrator root, token ${running.token}\n`)
  // A line of its own: trigger-pipeline needs a trigger token, and this saves a call to list the triggers.
  if (values.seed === undefined && running.triggerToken)
    process.stdout.write(
      `gitlab-actions serve: default seed: project demo/app, pipeline trigger token ${running.triggerToken}\n`,
    )
  if (!running.seeded && values.seed !== undefined)
    process.stderr.write(
      `gitlab-actions serve: --seed ${values.seed} not applied: ${values.data} already holds data (reset returns to the seed it was first given)\n`,
    )
  // A data dir first seeded on loopback (or by an older release) keeps the well-known token.
  if (!isLoopbackHost(values.host) && running.server.store.users.tokenOwner(DEFAULT_ROOT_TOKEN))
    process.stderr.write(
      `gitlab-actions serve: warning: ${values.data} holds the well-known token ${DEFAULT_ROOT_TOKEN} and the server listens on ${values.host}, off loopback: anyone who reaches it is an administrator\n`,
    )
  listening?.()
  await stopped
  return 0
}

/**
 * `--faults FILE`: a YAML (or JSON) list of fault rules, or one rule; the rules themselves are
 * checked by the server, whose `FaultRuleError` names the rule (`faults[1].ms is missing`).
 */
function readFaults(file: string): EmulatorFaultInput[] {
  let parsed: unknown
  try {
    parsed = parseYaml(readFileSync(file, 'utf8'))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new Error(`--faults ${file}: ${code ? `cannot read it (${code})` : (err as Error).message}`)
  }
  if (parsed === null || parsed === undefined) return []
  return (Array.isArray(parsed) ? parsed : [parsed]) as EmulatorFaultInput[]
}

/**
 * `npx gitlab-actions serve` runs us under `sh -c`, and npm forwards SIGTERM and SIGINT to that
 * shell only: dash exits without passing them on, and we would hold the port as an orphan. Under
 * `npx`, the shell going away stops the server as a signal would. (Not for other parents: a
 * server started in the background by a script that then exits must keep running.)
 */
function stopWithNpx(stop: () => void) {
  if (process.env.npm_lifecycle_event !== 'npx') return
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    stop()
  }, 200)
  timer.unref()
}

/**
 * `--ready-file`: the base URL and a line break, written beside the file and renamed onto it, so a
 * script that waits for the file (`until [ -s f ]`) never reads half a URL.
 */
function writeReadyFile(path: string, url: string) {
  const partial = `${path}.${process.pid}.tmp`
  writeFileSync(partial, `${url}\n`)
  renameSync(partial, path)
}

/** `--clock frozen:ISO`: the instant the clock starts frozen at (ISO 8601 with a zone). */
function frozenClock(value: string): Date {
  const at = value.startsWith('frozen:') ? parseInstant(value.slice('frozen:'.length)) : undefined
  if (!at)
    throw new Error(
      `--clock must be frozen:TIME, an ISO 8601 time with a zone (frozen:2026-01-01T00:00:00Z), got ${value}`,
    )
  return at
}
