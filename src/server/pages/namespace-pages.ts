import { ProjectListQuery } from '../../schema/index.js'
import { parseParams } from '../grape/params.js'
import type { Actor } from '../services/access.js'
import type { Listed } from '../services/page-reads.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { crumbs, layout, pager, type PageContext } from './layout.js'
import { groupPath, pageNumber, pathOf } from './links.js'
import { paragraphs } from './text.js'

const PER_PAGE = 20

/** A list of projects or groups, each a link with its visibility and description. */
export function listedItems(items: Listed[], href: (item: Listed) => string, none: string): Html {
  if (items.length === 0) return html`<p class="muted">${none}</p>`
  return html`<ul>
    ${items.map(
      (item) =>
        html`<li>
          <a href="${href(item)}">${item.name}</a>
          <span class="badge">${item.visibility}</span
          >${item.description ? html` <span class="muted">${item.description}</span>` : null}
        </li>`,
    )}
  </ul>`
}

/** `/groups/<full_path>`: a group, its subgroups and its projects (`GroupsController#show`). */
export function groupPage(ctx: PageContext, services: Services, fullPath: string): Html {
  const { group, projects, subgroups } = services.pageReads.group(ctx.visitor.actor, fullPath)
  const parts = group.full_path.split('/')
  return layout(ctx, {
    title: group.name,
    crumbs: crumbs(
      parts.map((_, n) => ({ text: parts[n]!, href: groupPath(parts.slice(0, n + 1).join('/')) })),
    ),
    body: html`${group.description ? paragraphs(group.description) : null}
      <dl class="facts">
        <dt>Path</dt>
        <dd>${group.full_path}</dd>
        <dt>Visibility</dt>
        <dd>${group.visibility}</dd>
      </dl>
      <section aria-labelledby="subgroups">
        <h2 id="subgroups">Subgroups</h2>
        ${listedItems(subgroups, (g) => groupPath(g.full_path), 'No subgroups.')}
      </section>
      <section aria-labelledby="projects">
        <h2 id="projects">Projects</h2>
        ${listedItems(projects, (p) => pathOf(p.full_path), 'No projects.')}
      </section>`,
  })
}

/** `/<username>`: a user's profile and personal projects (`UsersController#show`). */
export function userPage(ctx: PageContext, services: Services, username: string): Html {
  const { user, projects } = services.pageReads.user(ctx.visitor.actor, username)
  return layout(ctx, {
    title: user.name,
    body: html`<dl class="facts">
        <dt>Username</dt>
        <dd>@${user.username}</dd>
        <dt>State</dt>
        <dd>${user.state}</dd>
      </dl>
      <section aria-labelledby="projects">
        <h2 id="projects">Personal projects</h2>
        ${listedItems(projects, (p) => pathOf(p.full_path), 'No personal projects.')}
      </section>`,
  })
}

/**
 * One page of the projects the visitor may see (`GET /projects`' rules), `PER_PAGE` long, as listed
 * items, and whether another page follows.
 */
export function visibleProjects(
  services: Services,
  actor: Actor,
  page: number,
  orderBy: 'name' | 'path',
): { items: Listed[]; more: boolean } {
  const list = services.projects.list(
    actor,
    parseParams(ProjectListQuery, {
      order_by: orderBy,
      sort: 'asc',
      page: String(page),
      per_page: String(PER_PAGE),
    }),
  )
  const items = list.items.map((p) => ({
    name: p.name_with_namespace,
    full_path: p.path_with_namespace,
    description: p.description,
    // Anonymous visitors get `BasicProjectDetails` (no visibility): they see public projects only.
    visibility: 'visibility' in p ? String(p.visibility) : 'public',
  }))
  const total = 'total' in list ? list.total : undefined
  return { items, more: total !== undefined && page * PER_PAGE < total }
}

/** `/explore/projects`: the projects the visitor may see, by name (`Explore::ProjectsController#index`). */
export function exploreProjectsPage(
  ctx: PageContext,
  services: Services,
  query: Record<string, unknown>,
): Html {
  const page = pageNumber(query.page)
  const { items, more } = visibleProjects(services, ctx.visitor.actor, page, 'name')
  return layout(ctx, {
    title: 'Explore projects',
    body: html`${listedItems(items, (p) => pathOf(p.full_path), 'No projects to show.')}
    ${pager('Pages', page, more, (n) => `/explore/projects?page=${n}`)}`,
  })
}
