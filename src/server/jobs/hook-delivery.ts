import { randomUUID } from 'node:crypto'
import type { Agent } from 'undici'
import type { Clock } from '../domain/clock.js'
import { afterFailure, afterSuccess, executable } from '../domain/web-hook-failures.js'
import type { Store } from '../store/index.js'
import type { WebHookRow } from '../store/web-hooks.js'

/** `Gitlab::CurrentSettings.webhook_timeout`'s default: 10 seconds to connect, and again to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000
/** `WebHookService::RESPONSE_BODY_SIZE_LIMIT`: the part of an answer's body kept in the log. */
export const RESPONSE_BODY_LIMIT = 8 * 1024

const RESPONSE_HEADERS_COUNT_LIMIT = 50
const RESPONSE_HEADER_SIZE_LIMIT = 1024
/** `Net::HTTPHeader#each_capitalized`: `content-type` is `Content-Type`. */
const capitalized = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())

/** `WebHookService.hook_to_event`: the `X-Gitlab-Event` of each kind of hook. */
export const HOOK_EVENT_HEADERS = {
  push_hooks: 'Push Hook',
  tag_push_hooks: 'Tag Push Hook',
  issue_hooks: 'Issue Hook',
  confidential_issue_hooks: 'Confidential Issue Hook',
  note_hooks: 'Note Hook',
  confidential_note_hooks: 'Confidential Note Hook',
  pipeline_hooks: 'Pipeline Hook',
  job_hooks: 'Job Hook',
  deployment_hooks: 'Deployment Hook',
} as const
export type HookName = keyof typeof HOOK_EVENT_HEADERS

/** One delivery's outcome, as `WebHookService#execute` hands it to the test endpoint. */
export interface DeliveryResult {
  /** The answer's status, or undefined when none came (refused, timed out). */
  status?: number
  /** The answer's body (bounded), or the error's message. */
  message: string
}

/**
 * Sends webhooks (`app/services/web_hook_service.rb`) in the background: each delivery is a POST of
 * the JSON payload through the outbound agent (local addresses only with `allowLocal`), with GitLab's
 * headers, logged in `web_hook_logs` and counted by `WebHooks::AutoDisabling`. GitLab's `WebHookWorker`
 * does not retry (`sidekiq_options retry: 0`): neither do we. A reset (`reset()`) makes deliveries
 * still in flight write nothing; `idle()` resolves when none is in flight.
 */
export function hookDelivery(
  store: Store,
  clock: Clock,
  instance: { baseUrl: string; version: string },
  allowLocal: boolean,
) {
  let generation = 0
  let closed = false
  const inFlight = new Set<Promise<unknown>>()
  // Closing the server cuts the deliveries under way rather than waiting out their timeouts.
  const stop = new AbortController()
  // One agent for every delivery (loaded on first use), so a receiver's connection is kept alive.
  let agent: Promise<Agent> | undefined
  const sharedAgent = () =>
    (agent ??= import('../outbound/outbound-agent.js').then(({ outboundAgent }) =>
      outboundAgent(allowLocal, WEBHOOK_TIMEOUT_MS),
    ))

  async function post(hook: WebHookRow, hookName: HookName, payload: unknown, eventUuid: string) {
    const { request } = await import('undici')
    // `WebHookService#build_headers`, in its order; the event's UUID is `RecursionDetection`'s header.
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': `GitLab/${instance.version}`,
      'Idempotency-Key': randomUUID(),
      'X-Gitlab-Event': HOOK_EVENT_HEADERS[hookName],
      'X-Gitlab-Webhook-UUID': randomUUID(),
      'X-Gitlab-Instance': instance.baseUrl,
    }
    if (hook.token_encrypted)
      headers['X-Gitlab-Token'] = store.secrets.open(hook.token_encrypted).replace(/\r?\n/g, '')
    headers['X-Gitlab-Event-UUID'] = eventUuid
    const body = JSON.stringify(payload)
    const started = performance.now()
    const agent = await sharedAgent()
    let result: DeliveryResult & { headers: Record<string, string>; error?: string }
    try {
      const res = await request(hook.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        headersTimeout: WEBHOOK_TIMEOUT_MS,
        bodyTimeout: WEBHOOK_TIMEOUT_MS,
        signal: stop.signal,
      })
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk)
        size += chunk.length
      }
      const flat: Record<string, string> = {}
      // `safe_response_headers`: capitalized names, the first 50, each value cut at 1 KiB.
      for (const [k, v] of Object.entries(res.headers).slice(0, RESPONSE_HEADERS_COUNT_LIMIT))
        if (v !== undefined) flat[capitalized(k)] = String(v).slice(0, RESPONSE_HEADER_SIZE_LIMIT)
      const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8')
      result = { status: res.statusCode, message: text, headers: flat }
    } catch (err) {
      const message = (err as Error).message
      result = { message, headers: {}, error: message }
    }
    const duration = (performance.now() - started) / 1000
    if (headers['X-Gitlab-Token']) headers['X-Gitlab-Token'] = '[REDACTED]'
    return { result, headers, body, duration }
  }

  /** Logs one delivery and moves the hook's failure count, unless a reset or a removal came first. */
  function record(
    hook: WebHookRow,
    hookName: HookName,
    sent: Awaited<ReturnType<typeof post>>,
    since: number,
  ): void {
    if (since !== generation || closed) return
    const current = store.webHooks.get(hook.id)
    if (!current) return
    const now = clock.now()
    // `response_category`: a success or a redirection is `:ok`.
    const ok = sent.result.status !== undefined && sent.result.status >= 200 && sent.result.status < 400
    store.transaction(() => {
      store.webHooks.insertLog({
        web_hook_id: hook.id,
        trigger: hookName,
        url: hook.url,
        request_headers: JSON.stringify(sent.headers),
        request_data: sent.body,
        response_headers: JSON.stringify(sent.result.headers),
        response_body: sent.result.error === undefined ? sent.result.message : '',
        response_status: sent.result.status === undefined ? 'internal error' : String(sent.result.status),
        execution_duration: sent.duration,
        internal_error_message: sent.result.error ?? null,
        created_at: now.toISOString(),
      })
      const next = ok ? afterSuccess() : afterFailure(current, now)
      if (next.recent_failures !== current.recent_failures || next.disabled_until !== current.disabled_until)
        store.webHooks.setFailures(hook.id, next.recent_failures, next.disabled_until)
    })
  }

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work)
    void work.finally(() => inFlight.delete(work)).catch(() => {})
    return work
  }

  async function deliver(hook: WebHookRow, hookName: HookName, payload: unknown, eventUuid: string) {
    const since = generation
    const sent = await post(hook, hookName, payload, eventUuid)
    record(hook, hookName, sent, since)
    return sent.result
  }

  return {
    /**
     * Queues one event for `hooks` (those executable now; GitLab skips the others): called once the
     * write that made the event has committed; the caller's request never waits for it.
     */
    enqueue(hooks: WebHookRow[], hookName: HookName, payload: unknown): void {
      if (closed) return
      const now = clock.now()
      const eventUuid = randomUUID()
      for (const hook of hooks.filter((h) => executable(h, now)))
        track(
          new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
            deliver(hook, hookName, payload, eventUuid),
          ),
        )
    },
    /** `TestHooks::*Service`: one delivery now, even to a disabled hook (`force: true`), awaited. */
    test: (hook: WebHookRow, hookName: HookName, payload: unknown): Promise<DeliveryResult> =>
      track(deliver(hook, hookName, payload, randomUUID())),
    /** Deliveries under way when the store was reset write nothing when they end. */
    reset(): void {
      generation++
    },
    /** Deliveries queued or under way (tests' included). */
    pending: (): number => inFlight.size,
    /** Resolves once no delivery is in flight. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
    /** Stops queueing, cuts the deliveries under way (they log nothing) and waits for them to end. */
    async close(): Promise<void> {
      closed = true
      stop.abort()
      await Promise.allSettled([...inFlight])
      if (agent) await (await agent).close()
    },
  }
}
export type HookDelivery = ReturnType<typeof hookDelivery>
