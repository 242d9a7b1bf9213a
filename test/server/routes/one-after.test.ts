import Fastify, { type FastifyInstance } from 'fastify'
import { request } from 'undici'
import { inOneAfter } from '../../../src/server/routes/one-after.js'

/*
 * Start-up time (src/server/routes/one-after.ts): the `after` callbacks in which Fastify finishes
 * each route are handed to its plugin loader as one. The routes must come out as Fastify makes
 * them one by one: the instance's error handler, hooks and reply serializer set after the routes
 * still apply, a route's response schema still serialises its answers, and an `after` of the
 * caller's own is left alone.
 */

let app: FastifyInstance
let url: string | undefined
afterEach(async () => {
  url = undefined
  await app?.close()
})

async function get(path: string) {
  url ??= await app.listen({ host: '127.0.0.1', port: 0 })
  const res = await request(`${url}${path}`)
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() }
}

/** Counts what reaches avvio's `after`, then hands it on. */
function countAfters(target: FastifyInstance): { calls: number } {
  const seen = { calls: 0 }
  const real = target.after.bind(target) as (fn?: unknown) => unknown
  Object.defineProperty(target, 'after', {
    value: (fn?: unknown) => {
      seen.calls++
      return real(fn)
    },
    configurable: true,
    writable: true,
  })
  return seen
}

describe('routes registered in one after', () => {
  it('reach avvio as one callback, and answer as routes registered one by one', async () => {
    app = Fastify()
    const seen = countAfters(app)
    inOneAfter(app, () => {
      for (let i = 0; i < 50; i++) app.get(`/r${i}`, async () => ({ n: i }))
      app.get(
        '/typed',
        { schema: { response: { 200: { type: 'object', properties: { kept: { type: 'string' } } } } } },
        async () => ({ kept: 'yes', dropped: 'by the schema' }),
      )
      app.get('/fails', async () => {
        throw new Error('boom')
      })
    })
    expect(seen.calls).toBe(1)
    // Set after the routes, before the start: Fastify applies them to the routes all the same.
    app.setErrorHandler((err: Error, _req, reply) => void reply.code(418).send({ handled: err.message }))
    app.addHook('onSend', async (_req, reply) => void reply.header('x-hooked', 'yes'))

    expect(await get('/r49')).toMatchObject({ status: 200, body: '{"n":49}' })
    const typed = await get('/typed')
    expect([typed.status, typed.body, typed.headers['x-hooked']]).toEqual([200, '{"kept":"yes"}', 'yes'])
    const fails = await get('/fails')
    expect([fails.status, fails.body]).toEqual([418, '{"handled":"boom"}'])
    expect((await get('/nowhere')).status).toBe(404)
  })

  it("leaves the caller's own after callbacks to avvio, in their place", async () => {
    app = Fastify()
    const order: string[] = []
    inOneAfter(app, () => {
      app.get('/a', async () => 'a')
      app.after(() => void order.push('own after'))
      app.get('/b', async () => 'b')
    })
    app.after(() => void order.push('later after'))
    await app.ready()
    expect(order).toEqual(['own after', 'later after'])
    expect((await get('/b')).body).toBe('b')
  })

  it('registers as ever on an instance without an after of its own', async () => {
    app = Fastify()
    let child: FastifyInstance | undefined
    await app.register(async (scope) => {
      child = scope
      inOneAfter(scope, () => scope.get('/in-scope', async () => 'scoped'))
    })
    expect(Object.getOwnPropertyDescriptor(child!, 'after')).toBeUndefined()
    expect((await get('/in-scope')).body).toBe('scoped')
  })
})
