import qs from 'qs'
import { parseQuery, QS_OPTIONS } from '../../../src/server/http/form-params.js'

// Queries are read without qs when they are flat (src/server/http/form-params.ts): the result must be qs's.
const rackLike = (text: string) => qs.parse(text, QS_OPTIONS)

// Rack::QueryParser#normalize_params: `params[k] = v` for a plain name, `params[k] << v` for `k[]`.
it.each([
  ['state=opened&state=closed', { state: 'closed' }],
  ['per_page=2&per_page=3', { per_page: '3' }],
  ['labels[]=a&labels[]=b', { labels: ['a', 'b'] }],
  ['a[b]=1&a[b]=2', { a: { b: '2' } }],
  ['search=one&search=two+words', { search: 'two words' }],
])('keeps the last value of a name given twice, as Rack does: %j', (text, expected) => {
  expect(parseQuery(text)).toEqual(expected)
})

it.each([
  'per_page=20&labels=bug&state=opened',
  'a=1',
  'a=',
  'a',
  '',
  '&',
  'a=1&&b=2',
  'a=1&a=2',
  'a=1;b=2',
  'a=x.y,z~*-_',
  'labels=bug,feature&search=two+words',
  'search=%C3%BCber&x=%2F',
  'labels[]=a&labels[]=b',
  'a[b][c]=1',
  'a.b=1',
  'constructor=1',
  'hasOwnProperty=x&a=1',
  '__proto__=1',
  'toString=1',
  'a=1=2',
  'A_1=ok&b9=fine',
  '=v',
])('reads %j as qs does', (text) => {
  expect(parseQuery(text)).toEqual(rackLike(text))
  expect(Object.getPrototypeOf(parseQuery(text))).toBe(Object.getPrototypeOf(rackLike(text)))
})
