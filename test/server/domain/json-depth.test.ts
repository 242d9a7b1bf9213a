import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'
import {
  BODY_LIMITS,
  DOCUMENT_LIMITS,
  JsonShape,
  jsonLimitExceeded,
  type JsonLimits,
} from '../../../src/server/domain/json-depth.js'

/*
 * The shape limits checked before JSON.parse: GitLab's `Gitlab::Middleware::JsonValidation` on
 * request bodies (answered before authentication), and the per-document limits of archive lines,
 * which the ndjson reader checks byte by byte as a line streams in.
 */
const ROOT = 'glpat-root-token'
const ISSUES = '/api/v4/projects/acme%2Fwidgets/issues'
type Json = Record<string, unknown>
const exceeded = (text: string, limits: JsonLimits) => jsonLimitExceeded(Buffer.from(text), limits)

/** `{"title":...,"x":[1,1,...]}` with `n` entries in `x`. */
const withArray = (title: string, n: number) => `{"title":"${title}","x":[${Array(n).fill(1).join(',')}]}`

describe('JsonShape', () => {
  it('counts elements as GitLab’s StreamValidator does: array entries, hash keys and hash entries', () => {
    const shape = new JsonShape(DOCUMENT_LIMITS)
    expect(shape.bytes(Buffer.from('{"a":1,"b":[1,{"c":null}],"d":{}}'))).toBeUndefined()
    // a, a=1, b, 1, {c}, c, c=null, b=[...], d, d={}
    expect(shape.elements).toBe(10)
    expect(exceeded('[[],{},"",0]', DOCUMENT_LIMITS)).toBeUndefined()
  })

  it('stops at the first limit broken, in GitLab’s words', () => {
    const limits = { maxDepth: 3, maxArraySize: 2, maxHashSize: 2, maxTotalElements: 10 }
    expect(exceeded('[[[1]]]', limits)).toBeUndefined()
    expect(exceeded('[[[[1]]]]', limits)).toBe('Parameters nested too deeply')
    expect(exceeded('[[1,1],[[1,1],[1]]]', limits)).toBeUndefined() // 9 elements
    expect(exceeded('[1,2]', limits)).toBeUndefined()
    expect(exceeded('[1,2,3]', limits)).toBe('Array parameter too large')
    expect(exceeded('{"a":1,"b":2}', limits)).toBeUndefined()
    expect(exceeded('{"a":1,"b":2,"c":3}', limits)).toBe('Hash parameter too large')
    expect(exceeded('[[1,1],[[1,1],[1,1]]]', limits)).toBe('Too many total parameters')
    // Brackets and separators inside strings, escaped quotes included, are text.
    expect(exceeded('["[[[[,,,,{\\"]]]]", "\\\\"]', limits)).toBeUndefined()
  })

  it('starts over clean after reset, whatever the last document left (a limit broken, a string open)', () => {
    const shape = new JsonShape({ maxDepth: 2, maxArraySize: 0, maxHashSize: 0, maxTotalElements: 0 })
    const read = (text: string) => shape.bytes(Buffer.from(text))
    expect(read('[[[')).toBe('Parameters nested too deeply')
    shape.reset()
    expect(read('[["a"],1]')).toBeUndefined()
    expect(shape.elements).toBe(3)
    read('["unclosed \\')
    shape.reset()
    expect(read('[[1]]')).toBeUndefined()
    expect(shape.elements).toBe(2)
  })

  it('reads a document in byte pieces cut anywhere as it reads it whole', () => {
    const text = '{"é\\"[":[1,"\\\\",{"k":"ü{"}],"z":[[[]]]}'
    const bytes = Buffer.from(text)
    const whole = new JsonShape(BODY_LIMITS)
    whole.bytes(bytes)
    for (let cut = 0; cut <= bytes.length; cut++) {
      const pieces = new JsonShape(BODY_LIMITS)
      pieces.bytes(bytes, 0, cut)
      pieces.bytes(bytes, cut)
      expect(pieces.elements).toBe(whole.elements)
    }
    expect(whole.elements).toBe(11)
  })
})

describe('JSON request bodies over GitLab’s limits', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startServer(widgetsSeed)
  })
  afterAll(() => t.close())

  const post = (body: string, token?: string) =>
    t.http('POST', ISSUES, { token, headers: { 'content-type': 'application/json' }, form: body })
  const issueCount = async () => (await t.http('GET', ISSUES, { token: ROOT })).headers['x-total']

  it('an array of 50,000 entries is read; one of 50,001 is refused with 400 before the route', async () => {
    const before = await issueCount()
    const ok = await post(withArray('fifty thousand', 50_000), ROOT)
    expect(ok.status).toBe(201)
    expect((ok.body as Json).title).toBe('fifty thousand')
    const refused = await post(withArray('one too many', 50_001), ROOT)
    expect(refused.status).toBe(400)
    expect(refused.headers['content-type']).toBe('application/json')
    expect(refused.body).toEqual({ error: 'Array parameter too large' })
    expect(Number(await issueCount())).toBe(Number(before) + 1)
  })

  it('100,000 elements in all are too many, however they are spread', async () => {
    const ones = (n: number) => Array(n).fill(1).join(',')
    const body = `{"title":"spread","a":[${ones(40_000)}],"b":[${ones(40_000)}],"c":[${ones(20_000)}]}`
    const refused = await post(body, ROOT)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ error: 'Too many total parameters' })
  })

  it('an anonymous body over a limit gets the 400, not the 401: it is refused before anyone authenticates', async () => {
    const refused = await post(withArray('anonymous', 50_001))
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ error: 'Array parameter too large' })
    const small = await post(withArray('anonymous', 10))
    expect(small.status).toBe(401)
    expect(small.body).toEqual({ message: '401 Unauthorized' })
  })
})
