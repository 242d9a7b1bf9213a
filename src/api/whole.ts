/*
 * A call whose body is read whole (`Http.request`, list pages) on undici's dispatch API: the chunks
 * are collected as they arrive (body-parts.ts), without the Readable stream, the async resource and
 * the consume machinery that undici's `request` builds for every response.
 */
import type { Dispatcher } from 'undici'
import { BodyParts } from './body-parts.js'
import type { ApiResponse } from './transport.js'

/**
 * Dispatches `options` and resolves with the response head when it arrives; its body holds the
 * chunks until the last one. `signal` aborts the exchange, body included, and so does `timeoutMs`
 * (one timer: an `AbortSignal.timeout` joined to the other signal by `AbortSignal.any` cost 6% of
 * a 10,000-issue list's instructions). Network errors and aborts go through `mapError` (undiciSend's
 * mapping, told whether the timeout struck) and reject the head or, once the head has come, `text()`.
 * Memory: the whole body as text, which a caller of `text()` holds anyway. Each chunk is copied as it
 * comes into a buffer kept for the next body, so undici's read buffers are freed at once, and a
 * JSON array is decoded, then parsed by `json()`, in parts (body-parts.ts).
 */
export function dispatchWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  limits: { signal?: AbortSignal; timeoutMs?: number },
  mapError: (err: unknown, timedOut: boolean) => unknown,
): Promise<ApiResponse> {
  const { signal, timeoutMs } = limits
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined
    let headed = false
    let timedOut = false
    let body: BodyParts | undefined
    let finish: (body: BodyParts) => void = () => undefined
    let fail: (err: unknown) => void = () => undefined
    const whole = new Promise<BodyParts>((done, failed) => ((finish = done), (fail = failed)))
    whole.catch(() => undefined) // surfaced by text(); dump() ignores it
    const onAbort = () => controller?.abort(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    const timer = timeoutMs
      ? setTimeout(() => ((timedOut = true), controller?.abort(timeoutReason())), timeoutMs).unref()
      : undefined
    const settle = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
    dispatcher.dispatch(options, {
      onRequestStart(c) {
        controller = c
        if (signal?.aborted) c.abort(signal.reason)
        else if (timedOut) c.abort(timeoutReason())
      },
      onResponseStart(_c, status, headers) {
        if (status < 200) return // 1xx: informational, the answer follows
        headed = true
        const type = headers['content-type']
        body = new BodyParts(JSON_TYPE.test(Array.isArray(type) ? (type[0] ?? '') : (type ?? '')))
        resolve({
          status,
          headers,
          body: {
            text: () => whole.then((b) => b.text()),
            json: () => whole.then((b) => b.parse()),
            dump: () =>
              whole.then(
                () => undefined,
                () => undefined,
              ),
            async *[Symbol.asyncIterator]() {
              yield (await whole).text()
            },
          },
        })
      },
      onResponseData(_c, chunk) {
        body?.add(chunk)
      },
      onResponseEnd() {
        settle()
        const b = body ?? new BodyParts(false)
        b.end()
        finish(b)
      },
      onResponseError(_c, err) {
        settle()
        body?.release()
        const mapped = mapError(err, timedOut)
        if (headed) fail(mapped)
        else reject(mapped)
      },
    })
  })
}

/** The reason `AbortSignal.timeout` aborts with; made only when a timeout strikes. */
const timeoutReason = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError')

/** A JSON content type, as `Http.read` tells JSON (`application/json`, `...+json`). */
const JSON_TYPE = /[/+]json\b/i
