import { request } from 'undici'
import { buildServer, type GitLabServer, type ServerOptions } from '../../src/server/app.js'
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
