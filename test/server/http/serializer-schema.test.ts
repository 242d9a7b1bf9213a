import { Type } from '@sinclair/typebox'
import fastJson from 'fast-json-stringify'
import { Issue } from '../../../src/schema/index.js'
import { serializerSchema } from '../../../src/server/http/serializer-schema.js'
import { startServer, type TestServer } from '../../support/server.js'

// Two issues, so that each nullable field is written both null and set (one closed below).
const seed = `
users: [ { username: root, admin: true, token: glpat-root-token }, { username: alice } ]
projects:
  - path: root/widgets
    labels: [ { name: bug } ]
    milestones: [ { title: v1.0 } ]
    issues:
      - { title: Crash on start, author: alice, assignees: [alice], labels: [bug], milestone: v1.0, due_date: 2026-12-01 }
      - { title: Typo, author: root }
`

describe('serializerSchema', () => {
  let gl: TestServer
  beforeAll(async () => {
    gl = await startServer(seed)
    // One closed issue, so that `closed_at` and `closed_by` are set on one record and null on others.
    const closed = await gl.http('PUT', '/api/v4/projects/root%2Fwidgets/issues/1', {
      token: 'glpat-root-token',
      json: { state_event: 'close' },
    })
    expect(closed.status).toBe(200)
  })
  afterAll(() => gl.close())

  const IssueList = Type.Array(Issue)

  it('leaves no anyOf for fast-json-stringify to validate', () => {
    expect(JSON.stringify(IssueList)).toContain('anyOf')
    expect(JSON.stringify(serializerSchema(IssueList))).not.toContain('anyOf')
  })

  it('writes real issue records exactly as the schema it came from does', async () => {
    const plain = fastJson(IssueList)
    const rewritten = fastJson(serializerSchema(IssueList) as object)
    for (const query of ['state=all', 'state=all&with_labels_details=true']) {
      const reply = await gl.http('GET', `/api/v4/issues?scope=all&${query}`, { token: 'glpat-root-token' })
      expect(reply.status).toBe(200)
      const records = reply.body as Record<string, unknown>[]
      // The seed's issues cover null and set milestones, closers, dates and both label forms.
      expect(records.some((r) => r.milestone === null) && records.some((r) => r.milestone !== null)).toBe(
        true,
      )
      expect(rewritten(records)).toBe(plain(records))
    }
  })

  it('keeps optional keys in place for a schema that says so (x-optional-in-place), and last otherwise', () => {
    const fields = { a: Type.Integer(), b: Type.Optional(Type.String()), c: Type.Integer() }
    const inPlace = fastJson(serializerSchema(Type.Object(fields, { 'x-optional-in-place': true })) as object)
    const usual = fastJson(serializerSchema(Type.Object(fields)) as object)
    expect(inPlace({ a: 1, b: 'x', c: 2 })).toBe('{"a":1,"b":"x","c":2}')
    expect(inPlace({ a: 1, c: 2 })).toBe('{"a":1,"c":2}')
    expect(usual({ a: 1, b: 'x', c: 2 })).toBe('{"a":1,"c":2,"b":"x"}')
  })
})
