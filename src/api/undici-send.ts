/*
 * The bottom of the transport stack: the adapter from the `Send` contract (transport.ts) to undici.
 * It sits above transport.ts and whole.ts, so imports run one way: client, adapter, whole, transport.
 */
import type { Dispatcher } from 'undici'
import { GitLabConnectionError, GitLabTimeoutError } from './errors.js'
import type { Send } from './transport.js'
import { Agent, originAndPath, request } from './undici.js'
import { dispatchWhole } from './whole.js'

/**
 * The bottom of the stack: undici over one keep-alive Agent, against `root` (`apiRoot(baseUrl)`, or
 * `serverRoot(baseUrl)` for the emulator's controls; taken as given): `request`, or for a body read
 * whole (`req.whole`) the `dispatch` API (whole.ts).
 * `req.timeoutMs` covers the whole exchange, body included, and rejects with GitLabTimeoutError;
 * the caller's `req.signal` rejects with its own reason. Network errors become GitLabConnectionError,
 * keeping their `code` (`UND_ERR_SOCKET`, `ECONNRESET`, ...) for retry.ts to classify.
 */
export function undiciSend(
  root: string,
  dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 30_000 }),
): Send {
  return async (req) => {
    const mapError = (err: unknown, timedOut: boolean) => {
      if (timedOut && !req.signal?.aborted)
        return new GitLabTimeoutError(req.method, req.path, req.timeoutMs ?? 0)
      const code = networkCode(err)
      if (code === undefined || req.signal?.aborted) return err
      return new GitLabConnectionError(req.method, req.path, root, code, { cause: err })
    }
    if (req.whole) {
      const { method, headers, body, signal, timeoutMs } = req
      return dispatchWhole(
        dispatcher,
        { ...originAndPath(`${root}${req.path}`), method, headers, body },
        { signal, timeoutMs },
        mapError,
      )
    }
    const timeout = req.timeoutMs ? AbortSignal.timeout(req.timeoutMs) : undefined
    const signal = timeout && req.signal ? AbortSignal.any([timeout, req.signal]) : (timeout ?? req.signal)
    const asTimeout = (err: unknown) => mapError(err, timeout?.aborted === true)
    try {
      const res = await request(`${root}${req.path}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher,
      })
      const body = res.body
      return {
        status: res.statusCode,
        headers: res.headers,
        body: {
          text: () => body.text().catch((err: unknown) => Promise.reject(asTimeout(err))),
          dump: () => body.dump(),
          [Symbol.asyncIterator]: () => body[Symbol.asyncIterator](),
        },
      }
    } catch (err) {
      throw asTimeout(err)
    }
  }
}

/** The system or undici error code of a network failure (on the error or its cause), else undefined. */
function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code
    if (
      typeof code === 'string' &&
      /^(E[A-Z_]+|UND_ERR_(SOCKET|CLOSED|CONNECT_TIMEOUT)|ERR_TLS_\w+|ERR_SSL_\w+|[A-Z_]*CERT[A-Z_]*|UNABLE_TO_\w+)$/.test(
        code,
      )
    )
      return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}
