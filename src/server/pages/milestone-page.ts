import { MilestoneListQuery } from '../../schema/index.js'
import { recordNotFound } from '../grape/gitlab-errors.js'
import { parseParams } from '../grape/params.js'
import type { Access } from '../services/access.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { layout, statusBadge, type PageContext } from './layout.js'
import { pathOf } from './links.js'
import { projectIssues } from './issue-pages.js'
import { projectCrumbs, projectNav } from './project-pages.js'
import { paragraphs } from './text.js'

/** Issues a milestone page lists; the rest are counted and reached through the issue list. */
const MAX_ISSUES = 50

/** `/<full_path>/-/milestones/<iid>`: a project milestone and its issues (`Projects::MilestonesController#show`). */
export function milestonePage(
  ctx: PageContext,
  deps: { access: Access; services: Services },
  fullPath: string,
  iid: number,
): Html {
  const { actor } = ctx.visitor
  const { services } = deps
  const p = services.projects.get(actor, fullPath)
  const [milestone] = services.projectMilestones.list(
    actor,
    fullPath,
    parseParams(MilestoneListQuery, { iids: [String(iid)] }),
  ).items
  if (!milestone) throw recordNotFound()
  const list = projectIssues(deps, actor, fullPath, {
    milestone: milestone.title,
    state: 'all',
    per_page: String(MAX_ISSUES),
    order_by: 'created_at',
    sort: 'asc',
  })
  const { issues } = list
  return layout(ctx, {
    title: milestone.title,
    crumbs: projectCrumbs(p, [
      { text: 'Milestones' },
      { text: milestone.title, href: pathOf(p.path_with_namespace, 'milestones', milestone.iid) },
    ]),
    body: html`${projectNav(p)}
      <dl class="facts">
        <dt>State</dt>
        <dd>${statusBadge(milestone.state)}</dd>
        <dt>Start date</dt>
        <dd>${milestone.start_date ?? 'None'}</dd>
        <dt>Due date</dt>
        <dd>${milestone.due_date ?? 'None'}${milestone.expired ? ' (expired)' : null}</dd>
      </dl>
      ${milestone.description ? paragraphs(milestone.description) : null}
      <section aria-labelledby="issues">
        <h2 id="issues">Issues</h2>
        ${
          issues.length === 0
            ? html`<p class="muted">No issues.</p>`
            : html`<ul>
                ${issues.map(
                  (i) =>
                    html`<li>
                      <a href="${pathOf(p.path_with_namespace, 'issues', i.iid)}">${i.title}</a>
                      ${statusBadge(i.state)}
                    </li>`,
                )}
              </ul>`
        }
        ${
          list.total !== undefined && list.total > issues.length
            ? html`<p class="muted">${list.total - issues.length} more issues not shown.</p>`
            : null
        }
      </section>`,
  })
}
