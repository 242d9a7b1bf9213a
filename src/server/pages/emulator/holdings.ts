import { html } from '../html.js'
import { pager } from '../layout.js'
import { pageNumber, pathOf } from '../links.js'
import { listedItems, visibleProjects } from '../namespace-pages.js'
import type { EmulatorSection } from './section.js'

/** What the instance holds: its counts, then its projects (20 a page, by path) linking to their pages. */
export const holdings: EmulatorSection = {
  id: 'holdings',
  title: 'What the instance holds',
  render({ ctx, services, query }) {
    const counts = services.pageReads.counts()
    const page = pageNumber(query.projects_page)
    const { items, more } = visibleProjects(services, ctx.visitor.actor, page, 'path')
    const entries: [string, number][] = [
      ['Users', counts.users],
      ['Groups', counts.groups],
      ['Projects', counts.projects],
      ['Issues', counts.issues],
      ['Pipelines', counts.pipelines],
    ]
    return html`<ul class="counts" aria-label="Counts">
        ${entries.map(
          ([name, n]) => html`<li data-count="${name.toLowerCase()}"><strong>${n}</strong> ${name}</li>`,
        )}
      </ul>
      <h3>Projects</h3>
      ${listedItems(items, (p) => pathOf(p.full_path), 'No projects.')}
      ${pager('Project pages', page, more, (n) => `/-/emulator?projects_page=${n}#holdings`, [
        'Previous projects',
        'More projects',
      ])}`
  },
}
