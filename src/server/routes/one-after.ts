import type { FastifyInstance } from 'fastify'

/** What Fastify hands its plugin loader (avvio) to finish a route: `(error so far, done)`. */
type AfterCallback = (err: Error | null, done: (err?: Error | null) => void) => void

/**
 * Start-up time: Fastify finishes each route it adds (its error handler, body limit, reply
 * serializer, and a `preReady` listener for its hooks and schemas) in an `after` callback of its
 * plugin loader, avvio (`fastify/lib/route.js`), and avvio loads each callback as a plugin of its
 * own: a queue, a timer, a node of its timing tree and some ten turns of `process.nextTick`. For
 * the 240 routes of a start that was a seventh of `serve`'s CPU to its first answer, most of it in
 * `listen`. Here the callbacks `register` makes on `app` are kept, and handed to avvio as one that
 * runs them in order, at the place of the last, where nothing (no plugin) was queued in between:
 * each runs as it would have, on the same instance, with the error carried from the one before.
 * Other uses of `after` go to avvio as ever; so does everything when `app` has no `after` of its own
 * (avvio's, which it defines on the instance).
 */
export function inOneAfter(app: FastifyInstance, register: () => void): void {
  const own = Object.getOwnPropertyDescriptor(app, 'after')
  const after = own?.value as ((fn?: unknown) => unknown) | undefined
  if (typeof after !== 'function') return register()
  const kept: AfterCallback[] = []
  const keep = (fn?: unknown) => {
    if (typeof fn !== 'function' || fn.length !== 2) return after.call(app, fn)
    kept.push(fn as AfterCallback)
    return app
  }
  Object.defineProperty(app, 'after', { ...own, value: keep })
  try {
    register()
  } finally {
    Object.defineProperty(app, 'after', own!)
  }
  if (kept.length === 0) return
  after.call(app, ((err, done) => {
    let carried = err
    for (const fn of kept) fn(carried, (next) => (carried = next ?? null))
    done(carried)
  }) satisfies AfterCallback)
}
