import { html } from '../html.js'
import type { EmulatorSection } from './section.js'

/** The release the server answers as, and its edition. */
export const instance: EmulatorSection = {
  id: 'instance',
  title: 'Instance',
  render({ ctx }) {
    const { version, edition, baseUrl } = ctx.instance
    return html`<dl class="facts">
      <dt>GitLab version</dt>
      <dd>${version}</dd>
      <dt>Edition</dt>
      <dd>${edition === 'ee' ? 'Enterprise Edition (ee)' : 'Community Edition (ce)'}</dd>
      <dt>Base URL</dt>
      <dd><code>${baseUrl}</code></dd>
      <dt>OpenAPI document</dt>
      <dd><a href="/api/v4/openapi.json">/api/v4/openapi.json</a></dd>
    </dl>`
  },
}
