import { withQuery } from '../../src/api/query.js'
import { hashToQuery, toQueryString } from '../../src/schema/query-string.js'

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

describe('hashToQuery (Rails Hash#to_query, the links GitLab writes)', () => {
  it('sorts the key=value pairs as strings at every depth, a list or hash standing as one', () => {
    expect(
      decoded(hashToQuery({ per_page: 20, labels: ['bug'], not: { milestone: 'v1', labels: ['ui'] } })),
    ).toBe('labels[]=bug&not[labels][]=ui&not[milestone]=v1&per_page=20')
    // The pairs, not the keys: `a-b=` sorts before `a=` ('-' < '='), `a[]=` before `a0=` ('%' < '0').
    expect(hashToQuery({ a: 1, 'a-b': 2 })).toBe('a-b=2&a=1')
    expect(hashToQuery({ a0: 1, a: [2] })).toBe('a%5B%5D=2&a0=1')
  })

  it('leaves out an empty list or hash; a hash holding only empty ones is an empty pair', () => {
    expect(hashToQuery({ iids: [], b: [null, 2], c: {} })).toBe('b%5B%5D=&b%5B%5D=2')
    expect(hashToQuery({ not: { labels: [] }, page: 1 })).toBe('&page=1')
  })

  it("escapes as CGI.escape: a space as +, !'()* as %XX, ~ as itself", () => {
    expect(hashToQuery({ search: "a b!'()*~-._", 'k y': 'é/' })).toBe(
      'k+y=%C3%A9%2F&search=a+b%21%27%28%29%2A~-._',
    )
  })

  it('writes null as key=, true/false and numbers as their text', () => {
    expect(hashToQuery({ milestone: null, owned: true, page: 2 })).toBe('milestone=&owned=true&page=2')
  })
})

describe('withQuery', () => {
  it('appends with ? or &, and leaves a path alone when there is nothing to add', () => {
    expect(withQuery('/issues', { state: 'opened' })).toBe('/issues?state=opened')
    expect(withQuery('/issues?page=2', { per_page: 5 })).toBe('/issues?page=2&per_page=5')
    expect(withQuery('/issues', { x: undefined })).toBe('/issues')
  })
})
