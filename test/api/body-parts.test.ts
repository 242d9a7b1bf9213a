import { BodyParts } from '../../src/api/body-parts.js'
import { createClient } from '../../src/api/client.js'
import { collect } from '../../src/api/paginate.js'
import { rootAndAcme, tokens } from '../support/seeds.js'
import { startServer, type TestServer } from '../support/server.js'

/** Feeds `bytes` to a BodyParts in chunks of `size` bytes. */
function collected(bytes: Uint8Array, size: number, json = true): BodyParts {
  const body = new BodyParts(json)
  for (let at = 0; at < bytes.length; at += size) body.add(bytes.subarray(at, at + size))
  body.end()
  return body
}

/** An issue-like record of about 1.7 KB: nested objects and arrays, as GitLab's list entities. */
const issue = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  iid: id,
  project_id: 1,
  title: `Issue number ${id}`,
  description: `Description of issue ${id} `.repeat(55),
  labels: ['bug', 'feature'],
  assignees: [
    { id: 7, username: 'bob', name: 'Bob' },
    { id: 8, username: 'eve', name: 'Eve' },
  ],
  author: { id: 3, username: 'alice', web_url: 'http://h/alice' },
  time_stats: { time_estimate: 0, total_time_spent: 0 },
  _links: { self: `http://h/api/v4/projects/1/issues/${id}`, notes: `http://h/notes/${id}` },
  ...extra,
})
const page = (items: unknown[]) => Buffer.from(JSON.stringify(items))
const sizes = [1, 7, 1000, 16_384, 65_536, 1 << 20]

/** `items` as a page, fed in chunks of every size: cut, and parsed and read back as they were. */
function expectCutAndSame(items: unknown[]) {
  const bytes = page(items)
  for (const size of sizes) {
    const body = collected(bytes, size)
    expect(body.partCount).toBeGreaterThan(1)
    expect(body.parse()).toEqual(items)
    expect(body.text()).toBe(bytes.toString())
  }
}

describe('BodyParts: a body read whole, decoded and parsed in parts', () => {
  it('cuts a large page of objects between elements, and gives back the same text and value', () => {
    const bytes = page(Array.from({ length: 100 }, (_, i) => issue(i + 1)))
    expect(bytes.length).toBeGreaterThan(150_000)
    const whole = JSON.parse(bytes.toString()) as unknown
    const parse = jest.spyOn(JSON, 'parse')
    try {
      for (const size of sizes) {
        const body = collected(bytes, size)
        expect(body.partCount).toBeGreaterThan(1)
        parse.mockClear()
        expect(body.parse()).toEqual(whole)
        // Each part parsed once, none as large as V8's large-object size: the whole was never parsed.
        expect(parse).toHaveBeenCalledTimes(body.partCount)
        for (const [text] of parse.mock.calls) expect(text.length).toBeLessThan(122_000)
        expect(body.text()).toBe(bytes.toString())
      }
    } finally {
      parse.mockRestore()
    }
  })

  it('parses as a whole when a cut falls inside a nested array of the same shape', () => {
    // The fifth element holds a long array of objects that open as the elements do (`id`, `iid`):
    // cuts are made inside it, its parts do not parse, and the whole text is parsed instead.
    const nested = Array.from({ length: 400 }, (_, i) => ({ id: i, iid: i, note: 'x'.repeat(200) }))
    const items = Array.from({ length: 40 }, (_, i) => issue(i + 1, i === 4 ? { children: nested } : {}))
    expectCutAndSame(items)
  })

  it('never cuts inside a string, and keeps what strings hold', () => {
    const tricky = '},{"id":1,"iid":2,"x":"]"} , [{"id":3,"iid":4}] \\ " \n é 🎉 漢字'
    const items = Array.from({ length: 120 }, (_, i) => issue(i + 1, { description: tricky.repeat(30) }))
    expectCutAndSame(items)
  })

  it('throws JSON.parse errors for a body that is not JSON, wherever it breaks', () => {
    const good = page(Array.from({ length: 100 }, (_, i) => issue(i + 1))).toString()
    const broken = [
      `${good}x`,
      good.replace('"title":"Issue number 50"', '"title":"Issue number 50'),
      good.replace('"iid":60,', '"iid":60,,'),
    ]
    for (const text of broken) {
      const body = collected(Buffer.from(text), 65_536)
      expect(body.partCount).toBeGreaterThan(1)
      expect(() => body.parse()).toThrow(SyntaxError)
      expect(() => body.parse()).toThrow(
        (() => {
          try {
            JSON.parse(text)
          } catch (err) {
            return (err as Error).message
          }
          return 'no error'
        })(),
      )
      expect(body.text()).toBe(text)
    }
  })

  it('decodes as TextDecoder does: characters split between chunks, a byte-order mark, bad bytes', () => {
    const items = Array.from({ length: 100 }, (_, i) => issue(i + 1, { title: `café 🎉 ${i}` }))
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), page(items)])
    for (const size of [1, 3, 65_536]) expect(collected(bom, size).parse()).toEqual(items)
    expect(collected(bom, 1).partCount).toBeGreaterThan(1)
    const bad = Buffer.concat([Buffer.from('["a'), Buffer.from([0xff, 0xc3]), Buffer.from('b"]')])
    for (const size of [1, 2, 100]) expect(collected(bad, size).text()).toBe(new TextDecoder().decode(bad))
  })

  it('leaves small bodies, other types, other shapes and elements above a part whole', () => {
    const small = page([issue(1), issue(2)])
    const text = page(Array.from({ length: 100 }, (_, i) => issue(i + 1)))
    const numbers = Buffer.from(JSON.stringify(Array.from({ length: 40_000 }, (_, i) => i)))
    const huge = page([issue(1, { description: 'y'.repeat(300_000) }), issue(2)])
    const cases: [Buffer, boolean, number][] = [
      [small, true, 1],
      [text, false, 1],
      [numbers, true, 1],
      [huge, true, 1],
    ]
    for (const [bytes, json, parts] of cases) {
      const body = collected(bytes, 65_536, json)
      expect(body.partCount).toBe(parts)
      expect(body.text()).toBe(bytes.toString())
      if (json) expect(body.parse()).toEqual(JSON.parse(bytes.toString()))
    }
  })

  it('reuses its buffers without showing an earlier body', () => {
    const long = page(Array.from({ length: 200 }, (_, i) => issue(i + 1)))
    const short = page(Array.from({ length: 60 }, (_, i) => issue(i + 1000)))
    for (let round = 0; round < 3; round++) {
      expect(collected(long, 65_536).text()).toBe(long.toString())
      expect(collected(short, 65_536).parse()).toEqual(JSON.parse(short.toString()))
      const cut = new BodyParts(true)
      cut.add(long.subarray(0, 100_000))
      cut.release() // a body that broke off: its buffer goes back, nothing of it is read again
    }
  })
})

describe('lists decoded in parts, on the reference server', () => {
  let t: TestServer
  beforeAll(async () => {
    // Long descriptions with what a cut must not be fooled by: the signature, quotes, brackets and
    // characters of two to four bytes.
    const description = JSON.stringify('},{"id":1,"iid":2,"project_id":3} ["é", "🎉"] \\ '.repeat(40))
    const issues = Array.from(
      { length: 230 },
      (_, i) => `      - { title: "issue ${i + 1} ☃", author: root, description: ${description} }`,
    )
    t = await startServer(rootAndAcme(`projects:\n  - path: acme/widgets\n    issues:\n${issues.join('\n')}`))
  })
  afterAll(() => t.close())

  it('gives the records the server sent, page by page', async () => {
    const raw: unknown[] = []
    for (let n = 1; n <= 3; n++) {
      const reply = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', {
        token: tokens.root,
        query: `per_page=100&page=${n}`,
      })
      expect(reply.status).toBe(200)
      raw.push(...(reply.body as unknown[]))
    }
    expect(Buffer.byteLength(JSON.stringify(raw.slice(0, 100)))).toBeGreaterThan(150_000)
    const client = createClient({ baseUrl: t.baseUrl, token: tokens.root })
    expect(await collect(client.issues.list('acme/widgets'))).toEqual(raw)
    expect(
      await client.request('GET', '/projects/acme%2Fwidgets/issues', { query: { per_page: 100 } }),
    ).toEqual(raw.slice(0, 100))
    await client.close()
  })
})
