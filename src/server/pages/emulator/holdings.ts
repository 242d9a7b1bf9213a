import { ProjectListQuery } from '../../../schema/index.js'
import { parseParams } from '../../grape/params.js'
import { html } from '../html.js'
import { pageNumber, pathOf } from '../links.js'
import type { EmulatorSection } from './section.js'

const PER_PAGE = 20

/** What the instance holds: its counts, then its projects (20 a page, by path) linking to their pages. */
export const holdings: EmulatorSection = {
  id: 'holdings',
  title: 'What the instance holds',
  render({ ctx, services, query }) {
    const counts = services.pageReads.counts()
    const page = pageNumber(query.projects_page)
    const list = services.projects.list(
      ctx.visitor.actor,
      parseParams(ProjectListQuery, {
        order_by: 'path',
        sort: 'asc',
        page: String(page),
        per_page: String(PER_PAGE),
      }),
    )
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
      ${
        list.items.length === 0
          ? html`<p class="muted">No projects.</p>`
          : html`<ul>
              ${list.items.map(
                (p) => html`<li><a href="${pathOf(p.path_with_namespace)}">${p.path_with_namespace}</a></li>`,
              )}
            </ul>`
      }
      <nav class="pager" aria-label="Project pages">
        ${page > 1 ? html`<a href="/-/emulator?projects_page=${page - 1}#holdings" rel="prev">Previous projects</a>` : null}
        ${page * PER_PAGE < counts.projects ? html`<a href="/-/emulator?projects_page=${page + 1}#holdings" rel="next">More projects</a>` : null}
      </nav>`
  },
}
