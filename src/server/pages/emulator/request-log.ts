import type { RequestEntry, RequestFilter } from '../../domain/request-ring.js'
import { METHODS } from '../../domain/fault-rules.js'
import { GitLabError } from '../../grape/gitlab-errors.js'
import { requestFilter } from '../../domain/request-filter.js'
import { html, type Html } from '../html.js'
import { table } from '../layout.js'
import { csrfField, options, type EmulatorSection } from './section.js'

/** Requests a page of the log shows. */
export const LOG_PAGE = 20
/** The filter form's fields: the JSON route's filters of the same names (and its `since_id` for paging). */
const FIELDS = ['method', 'path', 'status', 'actor'] as const

/** The values a query gives these keys, empty fields dropped (a form sends every field, filled or not). */
function picked(query: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {}
  for (const key of keys) if (typeof query[key] === 'string' && query[key] !== '') values[key] = query[key]
  return values
}

/** The message of a filter the JSON route would answer 400 to. */
const errorText = (err: GitLabError) =>
  typeof err.body === 'object' && err.body && 'error' in err.body ? String(err.body.error) : err.message

/** The page's link to another page of the log: the same filters, another `since_id`. */
function logHref(filters: Record<string, string>, sinceId: number): string {
  const query = new URLSearchParams({ ...filters, since_id: String(sinceId) })
  return `/-/emulator?${query}#requests`
}

const dash = html`<span class="muted">none</span>`

function row(e: RequestEntry): Html[] {
  return [
    html`${e.id}`,
    html`${e.method}`,
    html`<code>${e.url}</code>`,
    e.status === null ? html`<span class="muted">no answer</span>` : html`${e.status}`,
    html`${e.durationMs.toFixed(1)} ms`,
    e.actor === null ? dash : html`${e.actor}`,
    e.route === null ? dash : html`<code>${e.route}</code>`,
    e.fault === null ? dash : html`<span class="badge">#${e.fault.id} ${e.fault.action}</span>`,
    html`<code>${e.requestId}</code>`,
  ]
}

/** With `--log-bodies`: each entry's bodies, escaped, in `<pre>`. */
function bodies(entries: RequestEntry[]): Html {
  return html`<h3>Bodies</h3>
    ${entries.map(
      (e) =>
        html`<details>
          <summary>Request #${e.id}: ${e.method} <code>${e.url}</code></summary>
          <p>Request body</p>
          <pre class="trace">${e.requestBody ?? '(none)'}</pre>
          <p>Response body</p>
          <pre class="trace">${e.responseBody ?? '(none)'}</pre>
        </details>`,
    )}`
}

function filterForm(filters: Record<string, string>): Html {
  const text = (name: string, label: string, hint: string) =>
    html`<div>
      <label for="log-${name}">${label}</label>
      <input
        type="text"
        id="log-${name}"
        name="${name}"
        value="${filters[name] ?? ''}"
        placeholder="${hint}"
      />
    </div>`
  return html`<form
    method="get"
    action="/-/emulator#requests"
    class="fields"
    role="search"
    aria-label="Filter the request log"
  >
    <div>
      <label for="log-method">Method</label>
      <select id="log-method" name="method">
        <option value="">Any</option>
        ${options(METHODS, filters.method)}
      </select>
    </div>
    ${text('path', 'Path pattern', '/api/v4/projects/**')} ${text('status', 'Status', '404 or 4xx')}
    ${text('actor', 'Actor', 'username')}
    <div class="actions">
      <button type="submit">Filter</button>
      <a href="/-/emulator#requests">All requests</a>
    </div>
  </form>`
}

/**
 * The request log (`GET /-/emulator/requests`'s ring, domain/request-ring.ts): the latest requests,
 * newest first, filtered by the JSON route's own filter parser, paged by `since_id` ("older" is the
 * page that ends before the first one shown), and a "clear" form posting as the reset form does.
 */
export const requestLog: EmulatorSection = {
  id: 'requests',
  title: 'Request log',
  render({ ctx, instruments, query }) {
    const { requests } = instruments
    const filters = picked(query, FIELDS)
    let filter: RequestFilter
    try {
      filter = requestFilter({ ...filters, ...picked(query, ['since_id']) })
    } catch (err) {
      if (!(err instanceof GitLabError)) throw err
      return html`${filterForm(filters)}
        <p class="error" role="alert">The filter is invalid: ${errorText(err)}.</p>`
    }
    const since = filter.since_id ?? requests.sinceIdBefore(filter, LOG_PAGE) ?? 0
    const { entries, more } = requests.find({ ...filter, since_id: since, limit: LOG_PAGE })
    const first = entries[0]
    const older = first ? requests.sinceIdBefore(filter, LOG_PAGE, first.id) : null
    const last = entries.at(-1)
    const cleared = query.requests === 'cleared'
    return html`${cleared ? html`<p role="status">The request log was cleared.</p>` : null}
      <p class="muted">
        The last ${requests.size} requests are kept${instruments.bodies ? ', with their bodies' : ''}; reading
        or clearing the log is not logged. The same log as <code>GET /-/emulator/requests</code>.
      </p>
      ${filterForm(filters)}
      ${
        entries.length === 0
          ? html`<p>No requests${Object.keys(filters).length > 0 ? ' match these filters' : ''}.</p>`
          : html`<div class="scroll">
              ${table(
                ['#', 'Method', 'Path', 'Status', 'Duration', 'Actor', 'Route', 'Fault', 'Request ID'],
                entries.toReversed().map(row),
                'Requests, newest first',
              )}
            </div>`
      }
      ${instruments.bodies && entries.length > 0 ? bodies(entries.toReversed()) : null}
      <nav class="pager" aria-label="Request log pages">
        ${older !== null ? html`<a href="${logHref(filters, older)}" rel="prev">Older requests</a>` : null}
        ${more && last ? html`<a href="${logHref(filters, last.id)}" rel="next">Newer requests</a>` : null}
      </nav>
      <form method="post" action="/-/emulator/requests/clear">
        ${csrfField(ctx)}
        <button type="submit" class="danger">Clear the request log</button>
      </form>`
  },
}
