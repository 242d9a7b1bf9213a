import { createClient } from '../../src/api/client.js'
import { describeBody, GitLabApiError, GitLabTimeoutError, pathOnly, redact } from '../../src/api/errors.js'
import { scripted } from './fake-send.js'

describe('describeBody (GitLab error body shapes)', () => {
  it.each([
    [{ message: '404 Project Not Found' }, '404 Project Not Found'],
    [{ error: 'title is missing' }, 'title is missing'],
    [
      { message: { title: ["can't be blank"], labels: ['is invalid', 'is too long'] } },
      "title can't be blank; labels is invalid, is too long",
    ],
    [
      { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
      'This endpoint has been requested too many times. Try again later.',
    ],
    [{ error: 'invalid_token', error_description: 'Token is expired.' }, 'invalid_token: Token is expired.'],
    ['Retry later\n', 'Retry later'],
    [undefined, 'no body'],
    ['', 'no body'],
    [[1, 2], '[1,2]'],
  ])('%j -> %s', (body, text) => {
    expect(describeBody(body)).toBe(text)
  })
})

describe('GitLabApiError', () => {
  it('reads "METHOD path -> status: message" and keeps the body as sent', () => {
    const body = { message: { title: ["can't be blank"] } }
    const err = new GitLabApiError(400, 'POST', '/projects/acme%2Fwidgets/issues', body)
    expect(err.message).toBe("POST /projects/acme%2Fwidgets/issues -> 400: title can't be blank")
    expect(err).toMatchObject({ name: 'GitLabApiError', status: 400, method: 'POST', body })
    expect(err.gitlabMessage).toBe("title can't be blank")
  })

  it('never shows a query string', () => {
    const err = new GitLabApiError(401, 'GET', '/projects?private_token=glpat-x&page=2', {
      message: '401 Unauthorized',
    })
    expect(err.message).toBe('GET /projects -> 401: 401 Unauthorized')
    expect(err.path).toBe('/projects')
    expect(pathOnly('/a/b?c=d#e')).toBe('/a/b')
  })

  it('GitLabTimeoutError names the call and the limit, not the query', () => {
    const err = new GitLabTimeoutError('GET', '/issues?search=x', 100)
    expect(err.message).toBe('GET /issues timed out after 100 ms')
    expect(err.code).toBe('GITLAB_TIMEOUT')
  })

  it('redact scrubs a secret from strings at any depth', () => {
    expect(redact({ a: ['xx glpat-1 yy'], b: 3, c: { d: 'glpat-1' } }, ['glpat-1'])).toEqual({
      a: ['xx [REDACTED] yy'],
      b: 3,
      c: { d: '[REDACTED]' },
    })
    expect(redact('same', [''])).toBe('same')
  })
})

describe('the token never reaches an error', () => {
  it('for each token type, even when the server echoes the token and the path had a query', async () => {
    for (const tokenType of ['private', 'job', 'oauth'] as const) {
      const token = `secret-${tokenType}-token`
      const { send, calls } = scripted([
        {
          status: 401,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: `401 Unauthorized - token ${token} is unknown` }),
        },
      ])
      const client = createClient({ baseUrl: 'https://gitlab.test/gitlab', token, tokenType, send })
      const err = await client.request('GET', '/user', { query: { search: 'x' } }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(GitLabApiError)
      const shown = `${String(err)} ${JSON.stringify(err)} ${(err as Error).stack}`
      expect(shown).not.toContain(token)
      expect((err as GitLabApiError).message).toBe(
        'GET /user -> 401: 401 Unauthorized - token [REDACTED] is unknown',
      )
      expect(calls[0]?.path).toBe('/user?search=x')
      expect(calls[0]?.path).not.toContain(token)
    }
  })
})
