import { STATUS_CODES, type ServerResponse } from 'node:http'
import { pipeline, Readable, Transform } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Clock } from '../domain/clock.js'
import type { FaultRule, FaultRules } from '../domain/fault-rules.js'
import { pathOf } from '../domain/path-pattern.js'
import { requestMethod } from './head-requests.js'
import type { RecordRequest } from './request-log.js'

/**
 * The emulator's own controls and its page never fail: a fault on every path must still be
 * removable, from the API or from the page.
 */
const isControl = (url: string) => url.startsWith('/-/emulator/') || pathOf(url) === '/-/emulator'

/**
 * The faults' hooks. A `preHandler` after authentication (a rule may name the caller) asks the
 * rules whether one fires, and with no rules costs one check. `status` answers in its stead,
 * `delay` waits and goes on, `reset` destroys the socket (the log keeps the request with no
 * status), `slow_body` lets the route answer and an `onSend` hook dribbles its bytes out.
 *
 * The server's close waits for the requests in flight, so a slow answer would hold it until its last
 * byte, for as long as the client keeps its connection without reading (a body left unread). Close
 * cuts the slow answers still streaming (their connections closed, the client reads a short body),
 * and an answer made while close waits for its request goes out at full speed.
 */
export function installFaults(
  app: FastifyInstance,
  rules: FaultRules,
  options: { clock: Clock; record: RecordRequest },
): void {
  const slow = new WeakMap<object, number>()
  const streaming = new Set<ServerResponse>()
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    for (const res of streaming) res.destroy()
    done()
  })
  app.addHook('preHandler', (req, reply, done) => {
    if (rules.empty || isControl(req.url)) return done()
    const hit = rules.fire({
      method: requestMethod(req),
      route: req.routeOptions.url ?? null,
      path: pathOf(req.url),
      actor: req.actor?.user?.username ?? null,
    })
    if (!hit) return done()
    req.fault = hit.tag
    const { rule } = hit
    switch (rule.action) {
      case 'delay':
        setTimeout(done, rule.ms ?? 0)
        return
      case 'reset':
        options.record(req, reply, null)
        reply.hijack()
        req.raw.socket?.resetAndDestroy()
        return
      case 'slow_body':
        slow.set(req, rule.bytes_per_second ?? 1)
        return done()
      case 'status':
        sendStatus(reply, rule, options.clock, req.actor?.user ? 'authenticated' : 'unauthenticated')
    }
  })
  app.addHook('onSend', (req, reply, payload, done) => {
    const rate = slow.get(req)
    if (rate === undefined || closing || payload === null || payload === undefined) return done(null, payload)
    const res = reply.raw
    streaming.add(res)
    res.once('close', () => streaming.delete(res))
    // pipeline, not pipe: a client leaving mid-answer destroys the throttle, and with it the route's
    // stream (a download's file handle, closed then rather than on garbage collection).
    if (typeof (payload as Readable).pipe === 'function')
      return done(
        null,
        pipeline(payload as Readable, throttle(rate), () => undefined),
      )
    const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload))
    reply.header('content-length', bytes.length)
    done(null, Readable.from([bytes]).pipe(throttle(rate)))
  })
}

/** nginx's own error page, as the proxy in front of GitLab sends it when Puma is away. */
const nginxPage = (status: number, reason: string) =>
  `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
const NGINX_REASONS: Record<number, string> = {
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
}
/** The authenticated API throttle's default, 7,200 requests an hour (`Gitlab::Throttle`). */
const THROTTLE = { limit: 7200, periodSeconds: 3600 }

/**
 * A `status` fault's answer. 429 as Rack::Attack's throttle (`lib/gitlab/rack_attack.rb`
 * `throttled_response_headers`: `text/plain` `Retry later`, `RateLimit-*` and `Retry-After`, the
 * limit rounded to a minute); 502/503/504 as nginx; any other as GitLab's JSON `{"message": "500
 * Internal Server Error"}` (`lib/api/helpers.rb` `render_api_error!`).
 */
function sendStatus(reply: FastifyReply, rule: FaultRule, clock: Clock, who: string): void {
  const status = rule.status ?? 500
  const nginx = NGINX_REASONS[status]
  if (status === 429) {
    const retryAfter = rule.retry_after ?? 60
    const resetAt = Math.floor(clock.now().getTime() / 1000) + retryAfter
    reply
      .code(429)
      .headers({
        'ratelimit-name': `throttle_${who}_api`,
        'ratelimit-limit': String(Math.ceil((THROTTLE.limit * 60) / THROTTLE.periodSeconds)),
        'ratelimit-observed': String(THROTTLE.limit + 1),
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(resetAt),
        'ratelimit-resettime': new Date(resetAt * 1000).toUTCString(),
        'retry-after': String(retryAfter),
      })
      .type('text/plain')
      .send('Retry later\n')
  } else if (nginx) {
    if (rule.retry_after !== null) reply.header('retry-after', String(rule.retry_after))
    reply.code(status).header('server', 'nginx').type('text/html').send(nginxPage(status, nginx))
  } else
    reply
      .code(status)
      .type('application/json')
      .send(JSON.stringify({ message: `${status} ${STATUS_CODES[status] ?? 'Error'}` }))
}

/** Passes bytes on at `bytesPerSecond`, a tenth of a second's worth at a time. */
function throttle(bytesPerSecond: number): Transform {
  const step = Math.max(1, Math.ceil(bytesPerSecond / 10))
  const intervalMs = (step / bytesPerSecond) * 1000
  let timer: NodeJS.Timeout | undefined
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let offset = 0
      const tick = () => {
        timer = undefined
        if (offset >= chunk.length) return callback()
        this.push(chunk.subarray(offset, offset + step))
        offset += step
        timer = setTimeout(tick, intervalMs)
      }
      tick()
    },
    destroy(err, callback) {
      if (timer) clearTimeout(timer)
      callback(err)
    },
  })
}
