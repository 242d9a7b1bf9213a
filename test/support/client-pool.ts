import { createClient, GitLabApiError, type ClientOptions, type GitLabClient } from '../../src/api/client.js'
import { startServer, type TestServer } from './server.js'

/**
 * Typed clients for the tests under test/api: each checks every body against src/schema
 * (`validate`), never retries (a test sees the first answer), and is closed by `closeAll`.
 */
export function clientPool(baseUrl: () => string) {
  const clients: GitLabClient[] = []
  return {
    as(token?: string, options: Partial<ClientOptions> = {}) {
      const c = createClient({
        baseUrl: baseUrl(),
        token,
        validate: true,
        retry: { maxRetries: 0 },
        ...options,
      })
      clients.push(c)
      return c
    },
    closeAll: () => Promise.all(clients.splice(0).map((c) => c.close())),
  }
}

/**
 * A server started from `seed` before each test of the file and closed after it, with `as(token)`
 * clients on it (closed after each test too): the set-up every client test over one seed repeats.
 */
export function clientsOnSeed(seed: string) {
  let t: TestServer
  const { as, closeAll } = clientPool(() => t.baseUrl)
  beforeEach(async () => {
    t = await startServer(seed)
  })
  afterEach(async () => {
    await closeAll()
    await t.close()
  })
  return { as }
}

/** The GitLabApiError a call rejects with (fails the test when it resolves or throws anything else). */
export async function apiFailure(p: Promise<unknown>): Promise<GitLabApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GitLabApiError)
  return err as GitLabApiError
}
