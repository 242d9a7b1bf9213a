import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { request } from 'undici'
import { JsonAnswer, routeTable } from '../../../src/server/routes/define.js'
import { responseCache } from '../../../src/server/http/response-cache.js'
import { systemClock } from '../../../src/server/domain/clock.js'
import { GitLabError, notFound } from '../../../src/server/grape/gitlab-errors.js'

/*
 * How routes/define.ts sends what a handler gives back, synchronous or not: a value serialised
 * through the route's schema, a JSON answer as it is, nothing as an empty answer, a reply the
 * handler sent itself once, an error as GitLab's, each answered exactly once.
 */
const Thing = Type.Object({ name: Type.String() })
let app: FastifyInstance
let base: string
const sent: string[] = []
let listed = 0

beforeAll(async () => {
  app = Fastify()
  app.decorateRequest('actor', null as never)
  app.addHook('onRequest', (req, _reply, done) => {
    ;(req as unknown as { actor: unknown }).actor = { id: 1, user: { id: 1, username: 'alice' } }
    done()
  })
  app.addHook('onSend', (req, _reply, payload, done) => {
    sent.push(req.url)
    done(null, payload)
  })
  app.setErrorHandler((err, _req, reply) =>
    err instanceof GitLabError ? reply.code(err.status).send(err.body) : reply.code(500).send(),
  )
  const cache = responseCache({ version: () => 0, unchangedSince: () => true })
  const route = routeTable(app, { baseUrl: 'http://h', edition: 'ce', version: '18.6.0' }, systemClock, cache)
  const response = { 200: Thing }
  route({ method: 'GET', url: '/value', summary: 'a value', response }, () => ({ name: 'v', extra: 1 }))
  route({ method: 'GET', url: '/async', summary: 'a promise', response }, async () => ({ name: 'a' }))
  route({ method: 'GET', url: '/json', summary: 'JSON', response }, () => new JsonAnswer('{"name":"j"}'))
  route({ method: 'GET', url: '/nothing', summary: 'nothing', response }, () => undefined)
  route({ method: 'GET', url: '/itself', summary: 'sent', response }, (h) =>
    h.reply.code(201).send({ name: 'i' }),
  )
  route({ method: 'GET', url: '/throws', summary: 'throws', response }, () => {
    throw notFound('Thing')
  })
  route({ method: 'GET', url: '/rejects', summary: 'rejects', response }, async () => {
    throw notFound('Thing')
  })
  route({ method: 'GET', url: '/list', summary: 'cached', cached: true, response }, (h) => {
    listed++
    h.reply.header('x-total', '1')
    return { name: 'l' }
  })
  base = await app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => app.close())
beforeEach(() => void (sent.length = 0))

async function get(path: string) {
  const res = await request(`${base}${path}`)
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
}

it('serialises a value through the route schema, synchronous or a promise', async () => {
  expect(await get('/value')).toMatchObject({ status: 200, text: '{"name":"v"}' })
  expect(await get('/async')).toMatchObject({ status: 200, text: '{"name":"a"}' })
  expect(sent).toEqual(['/value', '/async'])
})

it('sends a JSON answer as it is, as application/json', async () => {
  const res = await get('/json')
  expect(res).toMatchObject({ status: 200, text: '{"name":"j"}' })
  expect(res.headers['content-type']).toMatch(/^application\/json/)
})

it('answers nothing with an empty 200, once', async () => {
  expect(await get('/nothing')).toMatchObject({ status: 200, text: '' })
  expect(sent).toEqual(['/nothing'])
})

it('leaves a reply the handler sent itself as it was sent, once', async () => {
  expect(await get('/itself')).toMatchObject({ status: 201, text: '{"name":"i"}' })
  expect(sent).toEqual(['/itself'])
})

it("answers a handler's error, thrown or rejected, through the error handler", async () => {
  expect(await get('/throws')).toMatchObject({ status: 404, text: '{"message":"404 Thing Not Found"}' })
  expect(await get('/rejects')).toMatchObject({ status: 404, text: '{"message":"404 Thing Not Found"}' })
  expect(sent).toEqual(['/throws', '/rejects'])
})

it("keeps a cached route's answer and its headers, and answers the repeat from the cache", async () => {
  const first = await get('/list')
  const again = await get('/list')
  for (const res of [first, again]) {
    expect(res).toMatchObject({ status: 200, text: '{"name":"l"}' })
    expect(res.headers['x-total']).toBe('1')
  }
  expect(sent).toEqual(['/list', '/list'])
  expect(listed).toBe(1)
})
