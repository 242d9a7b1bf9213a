import { Agent, request } from 'undici'
import { startServer, type TestServer } from '../support/server.js'

/*
 * List filters of any length: GitLab declares `labels`, `iids`, `assignee_username` and their
 * `not[...]` forms as plain arrays with no cap (lib/api/issues.rb), so thousands of entries are a
 * valid, anonymous request on a public project. They must filter, never answer 500. `labels` and
 * `iids` split a comma-separated string into entries; `assignee_username` takes one string whole
 * (`CheckAssigneesCount.coerce` is `Array.wrap`): thousands of commas make one long username.
 */
const seed = `
users:
  - { username: u, token: glpat-u-token }
  - { username: v }
groups:
  - { path: g, visibility: public, members: { u: developer, v: developer } }
projects:
  - path: g/p
    visibility: public
    labels: [ { name: b }, { name: c } ]
    issues:
      - { title: One, author: u, labels: [b, c], assignees: [u] }
      - { title: Two, author: u, labels: [c] }
      - { title: Three, author: u }
`
const N = 5000
let t: TestServer
// The Link header repeats the whole query for each relation, as GitLab's does: past undici's 16 KiB.
const client = new Agent({ maxHeaderSize: 1024 * 1024 })
beforeAll(async () => {
  t = await startServer(seed)
})
afterAll(async () => {
  await client.close()
  await t.close()
})

const titles = async (path: string, query: string) => {
  const res = await request(`${t.baseUrl}${path}?${query}&per_page=100`, { dispatcher: client })
  const text = await res.body.text()
  expect([res.statusCode, text.slice(0, 200)]).toEqual([200, expect.any(String)])
  return (JSON.parse(text) as { title: string }[]).map((i) => i.title).sort()
}
const repeat = (value: string, n = N) => Array(n).fill(value).join(',')
/** `value` once among n - 1 distinct names that match nothing (short enough for the URL). */
const distinct = (value: string, n: number) =>
  [value, ...Array.from({ length: n - 1 }, (_, i) => `z${i.toString(36)}`)].join(',')

describe.each([
  ['project', '/api/v4/projects/g%2Fp/issues', ''],
  ['global', '/api/v4/issues', 'scope=all&'],
])('%s issue list with 5,000-entry filters', (_name, path, scope) => {
  it.each([
    ['labels', `labels=${repeat('b')}`, ['One']],
    ['not[labels]', `not[labels]=${repeat('b')}`, ['Three', 'Two']],
    ['assignee_username', `assignee_username=${repeat('u')}`, []],
    ['not[assignee_username]', `not[assignee_username]=${repeat('u')}`, ['One', 'Three', 'Two']],
    ['iids', `iids=${repeat('1')}`, ['One']],
    ['not[iids]', `not[iids]=${repeat('1')}`, ['Three', 'Two']],
  ])('%s', async (_param, query, expected) => {
    expect(await titles(path, `${scope}${query}`)).toEqual(expected)
  })
})

describe('thousands of distinct names', () => {
  const path = '/api/v4/projects/g%2Fp/issues'
  it('labels: every one must be present, so an unknown one matches nothing', async () => {
    expect(await titles(path, `labels=${distinct('c', 2000)}`)).toEqual([])
    expect(await titles(path, `not[labels]=${distinct('b', 2000)}`)).toEqual(['Three', 'Two'])
  })
  it('assignee_username: issues assigned to all of them', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `assignee_username[]=z${i.toString(36)}`)
    expect(await titles(path, ['assignee_username[]=u', ...names].join('&'))).toEqual([])
    expect(await titles(path, `not[assignee_username]=${distinct('u', 2000)}`)).toEqual([
      'One',
      'Three',
      'Two',
    ])
    const notNames = names.map((n) => `not[${n.replace('[]', '][]')}`)
    expect(await titles(path, ['not[assignee_username][]=u', ...notNames].join('&'))).toEqual([
      'Three',
      'Two',
    ])
  })
  it('iids: any of them', async () => {
    const iids = ['2', ...Array.from({ length: 1999 }, (_, i) => `${i + 10}`)].join(',')
    expect(await titles(path, `iids=${iids}`)).toEqual(['Two'])
  })
})
