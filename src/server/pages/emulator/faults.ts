import { FAULT_ACTIONS, METHODS, type FaultRule } from '../../domain/fault-rules.js'
import { html, type Html } from '../html.js'
import { table } from '../layout.js'
import { csrfField, options, type EmulatorSection } from './section.js'

/** The rule's action in words: `status 503 (Retry-After 30)`, `delay 500 ms`, `slow body 10 B/s`, `reset`. */
function action(rule: FaultRule): string {
  if (rule.action === 'status')
    return `status ${rule.status}${rule.retry_after === null ? '' : ` (Retry-After ${rule.retry_after})`}`
  if (rule.action === 'delay') return `delay ${rule.ms} ms`
  if (rule.action === 'slow_body') return `slow body ${rule.bytes_per_second} B/s`
  return 'reset the connection'
}

const any = html`<span class="muted">any</span>`

function row(rule: FaultRule, csrf: Html): Html[] {
  return [
    html`${rule.id}`,
    rule.method === null ? any : html`${rule.method}`,
    rule.path !== null
      ? html`<code>${rule.path}</code>`
      : rule.route !== null
        ? html`route <code>${rule.route}</code>`
        : any,
    rule.actor === null ? any : html`${rule.actor}`,
    html`${action(rule)}`,
    html`${rule.times ?? 'always'}`,
    html`${rule.after}`,
    html`${rule.matched}`,
    html`${rule.fired}`,
    html`${rule.remaining ?? 'unlimited'}`,
    html`<form method="post" action="/-/emulator/faults/${rule.id}/remove">
      ${csrf}
      <button type="submit">Remove rule ${rule.id}</button>
    </form>`,
  ]
}

/** The form that adds a rule; after a refusal, with what was posted and the error. */
function addForm(csrf: Html, values: Record<string, unknown>, error: string | undefined): Html {
  const value = (name: string) => (typeof values[name] === 'string' ? values[name] : '')
  const select = (name: string, label: string, choices: readonly string[], first?: string) =>
    html`<div>
      <label for="fault-${name}">${label}</label>
      <select id="fault-${name}" name="${name}">
        ${first === undefined ? null : html`<option value="">${first}</option>`}
        ${options(choices, value(name))}
      </select>
    </div>`
  const input = (name: string, label: string, type: 'text' | 'number', hint = '') =>
    html`<div>
      <label for="fault-${name}">${label}</label>
      <input type="${type}" id="fault-${name}" name="${name}" value="${value(name)}" placeholder="${hint}" />
    </div>`
  return html`<h3>Add a rule</h3>
    ${error === undefined ? null : html`<p class="error" role="alert">The rule was not added: ${error}.</p>`}
    <form method="post" action="/-/emulator/faults/add" class="fields">
      ${csrf} ${select('method', 'Method', METHODS, 'Any')}
      ${input('path', 'Path pattern', 'text', '/api/v4/projects/**')}
      ${select('action', 'Action', FAULT_ACTIONS)} ${input('status', 'Status code', 'number', '503')}
      ${input('retry_after', 'Retry-After (s)', 'number')} ${input('ms', 'Delay (ms)', 'number')}
      ${input('bytes_per_second', 'Bytes a second', 'number')} ${input('times', 'Times', 'number', 'always')}
      ${input('after', 'After', 'number', '0')}
      <div class="actions"><button type="submit">Add the rule</button></div>
    </form>`
}

const DONE: Record<string, string> = {
  added: 'The fault rule was added.',
  removed: 'The fault rule was removed.',
  cleared: 'Every fault rule was removed.',
}

/**
 * The fault rules in force (domain/fault-rules.ts) with their counts, a remove button each, "clear
 * all", and a form that adds one, checked as the JSON route checks a rule (forms.ts).
 */
export const faults: EmulatorSection = {
  id: 'faults',
  title: 'Faults',
  render({ ctx, instruments, query, refused }) {
    const csrf = csrfField(ctx)
    const rules = instruments.faults.list()
    const done = typeof query.faults === 'string' ? DONE[query.faults] : undefined
    const posted = refused?.section === 'faults' ? refused : undefined
    return html`${done ? html`<p role="status">${done}</p>` : null}
      <p class="muted">
        Matching requests fail on demand; a rule whose <em>after</em> count has passed fires, at most
        <em>times</em> times. The same rules as <code>/-/emulator/faults</code>.
      </p>
      ${
        rules.length === 0
          ? html`<p>No fault rules: every request is answered as usual.</p>`
          : html`<div class="scroll">
                ${table(
                  [
                    '#',
                    'Method',
                    'Path',
                    'Actor',
                    'Action',
                    'Times',
                    'After',
                    'Matched',
                    'Fired',
                    'Remaining',
                    'Remove',
                  ],
                  rules.map((r) => row(r, csrf)),
                  'Fault rules, tried in this order',
                )}
              </div>
              <form method="post" action="/-/emulator/faults/clear">
                ${csrf}
                <button type="submit" class="danger">Remove every fault rule</button>
              </form>`
      }
      ${addForm(csrf, posted?.values ?? {}, posted?.error)}`
  },
}
