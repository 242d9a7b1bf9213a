/*
 * What the client uses of undici, loaded alone: the Agent class and the request API. undici's
 * entry (`import 'undici'`) also loads fetch, WebSocket, EventSource, the cache stores, the mocks and
 * the interceptors, and touches the global fetch classes, which makes Node load its own copy of
 * undici too; a process that only lists issues pays to compile all of it.
 * (undici has no `exports` map, so these paths are importable; its package.json pins the major.)
 */
import Agent from 'undici/lib/dispatcher/agent.js'
import apiRequest from 'undici/lib/api/api-request.js'
import type { Dispatcher } from 'undici'

export { Agent }

/** An absolute http(s) URL as undici's `makeDispatcher` splits it (parsed by `new URL`). */
export function originAndPath(url: string): { origin: string; path: string } {
  const parsed = new URL(url)
  return {
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
  }
}

/** `undici.request(url, options)` without its global dispatcher: the same URL handling, through `dispatcher`. */
export function request(
  url: string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options
  return apiRequest.call(dispatcher, { ...rest, ...originAndPath(url) })
}
