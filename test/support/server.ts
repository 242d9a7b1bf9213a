import { request } from 'undici'
import { buildServer, type GitLabServer, type ServerOptions } from '../../src/server/start/build-server.js'
import { parseSeed } from '../../src/server/seed/parse.js'

export interface Reply {
  status: number
  headers: Record<string, string>
  body: unknown
  text: string
}

export interface RequestOptions {
  token?: string
  headers?: Record<string, string>
  json?: unknown
  form?: string
  query?: string
}

export interface TestServer {
  server: GitLabServer
  baseUrl: string
  /** Raw HTTP against the server: what a GitLab client sends and receives, nothing interpreted. */
  http(method: string, path: string, options?: RequestOptions): Promise<Reply>
  close(): Promise<void>
}

/** Starts the real reference server on port 0 with a YAML seed. Close it in `afterAll`/`afterEach`. */
export async function startServer(
  seedYaml: string,
  options: Omit<ServerOptions, 'seed'> = {},
): Promise<TestServer> {
  const server = await buildServer({ ...options, seed: parseSeed(seedYaml, 'test-seed.yaml') })
  const baseUrl = await server.listen({ host: '127.0.0.1', port: 0 })
  return {
    server,
    baseUrl,
    async http(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers['private-token'] = options.token
      let body: string | undefined
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(options.json)
      } else if (options.form !== undefined) {
        headers['content-type'] ??= 'application/x-www-form-urlencoded'
        body = options.form
      }
      const url = `${baseUrl}${path}${options.query ? `?${options.query}` : ''}`
      const res = await request(url, { method: method as 'GET', headers, body })
      const text = await res.body.text()
      const flat: Record<string, string> = {}
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v
      let parsed: unknown = undefined
      if (text && flat['content-type']?.startsWith('application/json')) parsed = JSON.parse(text)
      return { status: res.statusCode, headers: flat, body: parsed, text }
    },
    close: () => server.close(),
  }
}

/**
 * A server started from `seedYaml` before each test of the file and closed after it, reached through
 * the handle returned (its `server`, `baseUrl` and `http` are the running test's). Options given as a
 * function are made afresh for each test (a manual clock no test shares).
 */
export function serverEach(
  seedYaml: string,
  options: Omit<ServerOptions, 'seed'> | (() => Omit<ServerOptions, 'seed'>) = {},
): TestServer {
  let current: TestServer | undefined
  beforeEach(async () => {
    current = await startServer(seedYaml, typeof options === 'function' ? options() : options)
  })
  afterEach(() => current?.close())
  return handle(() => current)
}

/**
 * One server for the file, started from `seedYaml` before its first test, put back to the seed
 * (`reset()`) after each test and closed after the last, reached through the handle returned.
 */
export function serverResetEach(seedYaml: string, options: Omit<ServerOptions, 'seed'> = {}): TestServer {
  let current: TestServer | undefined
  beforeAll(async () => {
    current = await startServer(seedYaml, options)
  })
  afterAll(() => current?.close())
  afterEach(() => current?.server.reset())
  return handle(() => current)
}

/** A TestServer that reaches whichever server `current` gives while a test runs. */
function handle(current: () => TestServer | undefined): TestServer {
  const running = () => {
    const t = current()
    if (!t) throw new Error('the test server runs only inside a test')
    return t
  }
  return {
    get server() {
      return running().server
    },
    get baseUrl() {
      return running().baseUrl
    },
    http: (method, path, options) => running().http(method, path, options),
    close: () => running().close(),
  }
}
