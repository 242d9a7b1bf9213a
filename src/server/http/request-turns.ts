import type { IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/** The turns of the event loop that requests run in, shared by Fastify's hook and the early hits. */
export interface RequestTurns {
  /** The `preHandler` hook: the request goes on now or in a later turn; one already let in goes on. */
  hook(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void
  /** Runs `go` now, or in a later turn behind those waiting (http/early-hits.ts). */
  run(go: () => void): void
  /** `req` ran through `run` and goes on to Fastify: its hook lets it through without a second wait. */
  letIn(req: IncomingMessage): void
}

/**
 * Keeps each turn of the event loop short while requests queue up, so that the server keeps
 * accepting connections and reading sockets under load.
 *
 * libuv accepts one connection per turn of the loop, and a turn runs every request that the
 * sockets ready in it carry (the store is synchronous). With 64 busy connections a turn took
 * 64 requests' time, so each new connection waited that long to be accepted, one after another:
 * its first request waited seconds while the others took milliseconds. Here the handlers of a
 * turn run until `budgetMs` of it has passed; the requests after that wait, in arrival order,
 * for the next turns (`setImmediate`), while the loop accepts and reads in between. A request
 * that arrives while none wait, within the budget, goes on at once, without a queue.
 */
export function requestTurns(budgetMs = 2): RequestTurns {
  const waiting: (() => void)[] = []
  const letIn = new WeakSet<IncomingMessage>()
  /** When the current turn's first handler began; undefined between busy turns. */
  let turnStarted: number | undefined
  const nextTurn = () => {
    turnStarted = undefined
    if (waiting.length === 0) return
    turnStarted = performance.now()
    setImmediate(nextTurn)
    while (waiting.length > 0 && performance.now() - turnStarted < budgetMs) waiting.shift()!()
  }
  const run = (go: () => void): void => {
    if (waiting.length > 0) return void waiting.push(go)
    const now = performance.now()
    if (turnStarted === undefined) {
      turnStarted = now
      setImmediate(nextTurn)
    } else if (now - turnStarted >= budgetMs) return void waiting.push(go)
    go()
  }
  return {
    hook: (req, _reply, done) => (letIn.has(req.raw) ? done() : run(done)),
    run,
    letIn: (req) => void letIn.add(req),
  }
}
