import { parseArgs } from 'node:util'
import { buildServer } from '../server/app.js'
import { supportedVersion } from '../server/releases.js'
import { loadSeedFile } from '../server/seed/parse.js'

export const serveHelp = `Usage: gitlab-actions serve [options]

Runs the GitLab-compatible reference server (REST API v4 under /api/v4).

Options:
  --host H                 address to listen on (default 127.0.0.1)
  --port P                 port; 0 picks a free one (default 8080)
  --data DIR|:memory:      keep the store in DIR across restarts (default :memory:)
  --seed FILE              YAML seed loaded into an empty store at start
  --base-url URL           external URL used in the links the API hands out (default: the listening address)
  --allowed-host H         another name clients may reach the server by (the Host header); repeatable.
                           Always allowed: the listening address, localhost when on loopback, the
                           base URL's host; on 0.0.0.0 or :: any name unless this option is given
  --edition ee|ce          GitLab edition to behave as (default ee)
  --gitlab-version X.Y.Z   GitLab release to report and behave as, 13.0.0 to 18.x (default 18.6.0)
  --allow-local-requests   let imports and export uploads reach local and private addresses
  --issues-create-limit N  issue creations allowed per project and user per minute (default 300, 0 = off)
  --transfer-timeout S     longest a remote import's download or an export's upload may take, in seconds
                           (default 14400, 0 = off)
  --transfer-min-rate N    bytes such a transfer must move in every 30 s, or it fails (default 10240, 0 = off)
  -h, --help               show this help
`

/** `gitlab-actions serve`: prints one line with the base URL once it accepts connections. */
export async function serve(argv: string[]): Promise<number> {
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
  const whole = (name: 'issues-create-limit' | 'transfer-timeout' | 'transfer-min-rate') => {
    const value = values[name]
    if (value !== undefined && !/^\d+$/.test(value))
      throw new Error(`--${name} must be a whole number, got ${value}`)
    return value === undefined ? undefined : Number(value)
  }
  const limit = whole('issues-create-limit')
  const timeout = whole('transfer-timeout')
  const minRate = whole('transfer-min-rate')
  const s3 = values['s3-endpoint']
  if (s3 !== undefined && !/^https?:\/\/[^/]+/.test(s3))
    throw new Error(`--s3-endpoint must be an http(s) URL, got ${s3}`)
  const seed = values.seed ? await loadSeedFile(values.seed) : undefined
  const server = await buildServer({
    data: values.data,
    seed,
    baseUrl: values['base-url'],
    allowedHosts: values['allowed-host'],
    edition: values.edition,
    gitlabVersion: version,
    allowLocalRequests: values['allow-local-requests'],
    issuesCreateLimit: limit,
    transfers: {
      ...(s3 ? { s3Endpoint: s3 } : {}),
      transferLimits: {
        ...(timeout === undefined ? {} : { deadlineMs: timeout * 1000 }),
        ...(minRate === undefined ? {} : { minBytes: minRate }),
      },
    },
  })
  const url = await server.listen({ host: values.host, port })
  process.stdout.write(`gitlab-actions serve: listening on ${url} (API at ${url}/api/v4)\n`)
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close().then(resolve, (err) => {
        process.stderr.write(`error while stopping: ${String(err)}\n`)
        resolve()
      })
    }
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
  })
  return 0
}
