import { html } from '../html.js'
import type { EmulatorSection } from './section.js'

/** The instance's webhooks (first 50) with their state, and the newest 20 deliveries of all of them. */
export const hooks: EmulatorSection = {
  id: 'hooks',
  title: 'Webhooks and deliveries',
  render({ ctx, services }) {
    const { hooks: list, deliveries } = services.hooks.overview(ctx.visitor.actor)
    return html`<h3>Hooks</h3>
      ${
        list.length === 0
          ? html`<p>No hooks.</p>`
          : html`<ul aria-label="Hooks">
              ${list.map(
                (h) =>
                  html`<li data-hook="${h.id}">
                    #${h.id} ${h.owner_path}: <code>${h.url}</code> (${h.alert_status}${
                      h.disabled_until ? html`, until ${h.disabled_until}` : ''
                    },
                    ${h.recent_failures} recent failures)
                  </li>`,
              )}
            </ul>`
      }
      <h3>Deliveries</h3>
      ${
        deliveries.length === 0
          ? html`<p>No deliveries.</p>`
          : html`<ul aria-label="Deliveries">
              ${deliveries.map(
                (d) =>
                  html`<li data-delivery="${d.id}">
                    ${d.created_at} hook #${d.web_hook_id} ${d.trigger}: <strong>${d.response_status}</strong>
                    in ${d.execution_duration.toFixed(3)}
                    s${d.internal_error_message ? html` (${d.internal_error_message})` : ''}
                  </li>`,
              )}
            </ul>`
      }`
  },
}
