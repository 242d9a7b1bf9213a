import qs from 'qs'
import { parseQuery } from '../../src/server/form-params.js'

// Queries are read without qs when they are flat (src/server/form-params.ts): the result must be qs's.
const rackLike = (text: string) => qs.parse(text, { depth: 5, arrayLimit: 1000, parameterLimit: 10_000 })

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
