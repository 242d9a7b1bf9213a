import type { EmulatorRequest } from '../../schema/emulator-instruments.js'
import type { RequestEntry } from '../domain/request-ring.js'

/** A request log entry as `GET /-/emulator/requests` lists it (the contract of docs/server.md). */
export function presentRequest(e: RequestEntry): EmulatorRequest {
  const q = e.url.indexOf('?')
  return {
    id: e.id,
    time: new Date(e.time).toISOString(),
    method: e.method,
    path: q < 0 ? e.url : e.url.slice(0, q),
    query: q < 0 ? null : e.url.slice(q + 1),
    status: e.status,
    duration_ms: Math.round(e.durationMs * 1000) / 1000,
    actor: e.actor,
    route: e.route,
    request_id: e.requestId,
    fault: e.fault,
    request_body: e.requestBody,
    response_body: e.responseBody,
  }
}
