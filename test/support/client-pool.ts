import { createClient, GitLabApiError, type ClientOptions, type GitLabClient } from '../../src/api/client.js'

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

/** The GitLabApiError a call rejects with (fails the test when it resolves or throws anything else). */
export async function apiFailure(p: Promise<unknown>): Promise<GitLabApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GitLabApiError)
  return err as GitLabApiError
}
