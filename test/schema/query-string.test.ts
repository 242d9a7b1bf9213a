import { withQuery } from '../../src/api/query.js'
import { toQueryString } from '../../src/schema/query-string.js'

const decoded = (qs: string) => decodeURIComponent(qs)

describe('toQueryString (Rails style)', () => {
  it('writes scalars as key=value, booleans as true/false, and skips undefined', () => {
    expect(
      toQueryString({ state: 'opened', per_page: 100, confidential: false, x: undefined, y: true }),
    ).toBe('state=opened&per_page=100&confidential=false&y=true')
  })

  it('writes arrays as key[]=a&key[]=b', () => {
    expect(decoded(toQueryString({ iids: [1, 2], assignee_username: ['alice'] }))).toBe(
      'iids[]=1&iids[]=2&assignee_username[]=alice',
    )
    expect(toQueryString({ iids: [1] })).toBe('iids%5B%5D=1')
  })

  it('writes hashes as not[labels]=x, nested as deep as given', () => {
    expect(decoded(toQueryString({ not: { labels: 'bug', iids: [3] }, a: { b: { c: 1 } } }))).toBe(
      'not[labels]=bug&not[iids][]=3&a[b][c]=1',
    )
  })

  it('encodes values (commas, spaces, &, =) so they cannot split parameters', () => {
    expect(toQueryString({ labels: 'bug,ui', search: 'a&b=c d' })).toBe(
      'labels=bug%2Cui&search=a%26b%3Dc%20d',
    )
  })

  it('sends null as an empty value (GitLab reads it as "clear") and an empty object as nothing', () => {
    expect(toQueryString({ milestone_id: null, not: {} })).toBe('milestone_id=')
    expect(toQueryString(undefined)).toBe('')
  })
})

describe('toQueryString for requests (keys in the given order)', () => {
  it('sends nothing for an empty list, which Grape would read as [""]', () => {
    expect(toQueryString({ iids: [], state: 'opened' })).toBe('state=opened')
  })
})

describe('toQueryString with hashToQuery (the links GitLab writes)', () => {
  const rails = (params: Record<string, unknown>) => decoded(toQueryString(params, { hashToQuery: true }))

  it('sorts keys at every depth, as Hash#to_query does', () => {
    expect(rails({ per_page: 20, labels: 'bug', not: { milestone: 'v1', labels: 'ui' } })).toBe(
      'labels=bug&not[labels]=ui&not[milestone]=v1&per_page=20',
    )
  })

  it('keeps an empty list as k[]= and sends null items as empty values', () => {
    expect(rails({ iids: [], b: [null, 2] })).toBe('b[]=&b[]=2&iids[]=')
  })
})

describe('withQuery', () => {
  it('appends with ? or &, and leaves a path alone when there is nothing to add', () => {
    expect(withQuery('/issues', { state: 'opened' })).toBe('/issues?state=opened')
    expect(withQuery('/issues?page=2', { per_page: 5 })).toBe('/issues?page=2&per_page=5')
    expect(withQuery('/issues', { x: undefined })).toBe('/issues')
  })
})
