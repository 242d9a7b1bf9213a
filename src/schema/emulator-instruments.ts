import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp } from './common.js'

/*
 * The reference server's request log and faults (`/-/emulator/requests`, `/-/emulator/faults`):
 * controls of ours, not GitLab's. Their fields are a contract (docs/server.md): add, never rename.
 */

/** One request of the log (`GET /-/emulator/requests`), oldest first. */
export const EmulatorRequest = Type.Object({
  id: Type.Integer({ description: 'Increases by one per request since the server started' }),
  time: Timestamp,
  method: Type.String({ description: 'As sent: HEAD stays HEAD' }),
  path: Type.String({ description: 'The path as sent, still URL-encoded' }),
  query: Nullable(
    Type.String({
      description: 'The query as sent, without `?`; tokens, secrets and passwords `[FILTERED]`',
    }),
  ),
  status: Nullable(Type.Integer({ description: 'Null when no answer was sent (a `reset` fault)' })),
  duration_ms: Type.Number(),
  actor: Nullable(Type.String({ description: 'The username the request authenticated as' })),
  route: Nullable(
    Type.String({ description: 'The route pattern it matched, e.g. `/api/v4/projects/:id/issues`' }),
  ),
  request_id: Type.String({ description: 'The `X-Request-Id` header of the answer' }),
  fault: Nullable(Type.Object({ id: Type.Integer(), action: Type.String() })),
  request_body: Nullable(
    Type.String({ description: 'With `--log-bodies`, redacted and cut at 4096 characters' }),
  ),
  response_body: Nullable(
    Type.String({ description: 'With `--log-bodies`, redacted and cut at 4096 characters' }),
  ),
})
export type EmulatorRequest = Static<typeof EmulatorRequest>

/** The request log's filters. */
export const EmulatorRequestFilter = Type.Object({
  method: Type.Optional(Type.String()),
  path: Type.Optional(
    Type.String({ description: 'A glob (`*` one segment, `**` any depth) or a path and what is under it' }),
  ),
  status: Type.Optional(Type.String({ pattern: '^[1-5]([0-9][0-9]|xx)$', description: '`404` or `4xx`' })),
  since_id: Type.Optional(Type.Integer({ minimum: 0 })),
  route: Type.Optional(Type.String()),
  actor: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
})
export type EmulatorRequestFilter = Static<typeof EmulatorRequestFilter>

const FaultAction = Type.Union([
  Type.Literal('status'),
  Type.Literal('delay'),
  Type.Literal('reset'),
  Type.Literal('slow_body'),
])

/** A fault rule as written (`POST /-/emulator/faults`, `--faults FILE`, `startServer({ faults })`). */
export const EmulatorFaultInput = Type.Object(
  {
    method: Type.Optional(Type.String({ description: 'GET, HEAD, POST, PUT, PATCH or DELETE' })),
    route: Type.Optional(Type.String({ description: 'A route pattern, e.g. `/api/v4/projects/:id/issues`' })),
    path: Type.Optional(Type.String({ description: 'A path pattern, as the request log filter' })),
    actor: Type.Optional(Type.String({ description: 'A username' })),
    action: FaultAction,
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599, description: 'Action `status`' })),
    retry_after: Type.Optional(Type.Integer({ minimum: 0, description: 'Status 429 (default 60) or 503' })),
    ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000, description: 'Action `delay`' })),
    bytes_per_second: Type.Optional(Type.Integer({ minimum: 1, description: 'Action `slow_body`' })),
    times: Type.Optional(Type.Integer({ minimum: 1, description: 'Firings; default unlimited' })),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'Matches let through first; default 0' })),
  },
  { additionalProperties: false },
)
export type EmulatorFaultInput = Static<typeof EmulatorFaultInput>

/** A fault rule as listed: every key (null where unset) and its counts. */
export const EmulatorFault = Type.Object({
  id: Type.Integer(),
  method: Nullable(Type.String()),
  route: Nullable(Type.String()),
  path: Nullable(Type.String()),
  actor: Nullable(Type.String()),
  action: FaultAction,
  status: Nullable(Type.Integer()),
  retry_after: Nullable(Type.Integer()),
  ms: Nullable(Type.Integer()),
  bytes_per_second: Nullable(Type.Integer()),
  times: Nullable(Type.Integer()),
  after: Type.Integer(),
  matched: Type.Integer({ description: 'Requests that fit it so far, fired on or let through' }),
  fired: Type.Integer(),
  remaining: Nullable(Type.Integer({ description: 'Firings left; null when unlimited' })),
})
export type EmulatorFault = Static<typeof EmulatorFault>
