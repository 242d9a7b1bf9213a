import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/**
 * A hook that never waits, in Fastify's callback form: an `async` hook costs a promise and a
 * microtask turn on every request. What it throws answers the request, as from an `async` hook.
 */
export const syncHook =
  (fn: (req: FastifyRequest, reply: FastifyReply) => void) =>
  (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    fn(req, reply)
    done()
  }
