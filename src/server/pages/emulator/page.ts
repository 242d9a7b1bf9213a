import { forbidden } from '../../grape/gitlab-errors.js'
import { html, type Html } from '../html.js'
import { layout } from '../layout.js'
import type { SectionInput } from './section.js'
import { SECTIONS } from './sections.js'

/**
 * `/-/emulator`: the emulator's own page, administrators only (others get the 404 page, as
 * GitLab's admin area answers them): a table of contents, then each section under its `h2`.
 */
export function emulatorPage(input: SectionInput): Html {
  if (!input.ctx.visitor.actor.admin) throw forbidden()
  const reset = (input.query.reset as string | undefined) === 'done'
  return layout(input.ctx, {
    title: 'Emulator',
    body: html`${reset ? html`<p role="status">The instance was reset to its seed.</p>` : null}
      <nav aria-label="Sections">
        <ul class="filters">
          ${SECTIONS.map((s) => html`<li><a href="#${s.id}">${s.title}</a></li>`)}
        </ul>
      </nav>
      ${SECTIONS.map(
        (s) =>
          html`<section id="${s.id}" aria-labelledby="${s.id}-title">
            <h2 id="${s.id}-title">${s.title}</h2>
            ${s.render(input)}
          </section>`,
      )}`,
  })
}
