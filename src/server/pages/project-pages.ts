import { PipelineListQuery, type BasicProjectDetails, type Project } from '../../schema/index.js'
import { isBinary } from '../domain/blob-content.js'
import { parseParams } from '../grape/params.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { crumbs, layout, statusBadge, type PageContext } from './layout.js'
import { groupPath, pathOf, repoPath, userPath } from './links.js'
import { readme } from './markdown.js'
import { ifAllowed } from './respond.js'
import { paragraphs } from './text.js'

type ProjectRecord = Project | BasicProjectDetails

/** Anonymous visitors get `BasicProjectDetails`, which has no visibility: they see public projects only. */
export const visibilityOf = (p: ProjectRecord): string => ('visibility' in p ? p.visibility : 'public')

/** The trail of a project's pages: its namespace, the project, then `more`. */
export function projectCrumbs(p: ProjectRecord, more: { text: string; href?: string }[] = []): Html {
  const ns = p.namespace
  const nsHref = ns.kind === 'group' ? groupPath(ns.full_path) : userPath(ns.full_path)
  return crumbs([
    { text: ns.name, href: nsHref },
    { text: p.name, href: pathOf(p.path_with_namespace) },
    ...more,
  ])
}

/** The navigation of a project's pages (`nav` with a label). */
export function projectNav(p: ProjectRecord): Html {
  const base = p.path_with_namespace
  return html`<nav aria-label="Project">
    <ul class="filters">
      <li><a href="${pathOf(base)}">Project overview</a></li>
      <li><a href="${pathOf(base, 'issues')}">Issues</a></li>
      <li><a href="${pathOf(base, 'pipelines')}">Pipelines</a></li>
      ${
        p.default_branch
          ? html`<li><a href="${repoPath(base, 'tree', p.default_branch)}">Files</a></li>
              <li><a href="${pathOf(base, 'branches')}">Branches</a></li>
              <li><a href="${pathOf(base, 'tags')}">Tags</a></li>`
          : null
      }
    </ul>
  </nav>`
}

/** `/<full_path>`: a project's overview (`ProjectsController#show`). */
export function projectPage(ctx: PageContext, services: Services, fullPath: string): Html {
  const { actor } = ctx.visitor
  const p = services.projects.get(actor, fullPath)
  const open = 'open_issues_count' in p ? p.open_issues_count : undefined
  const pipelines = ifAllowed(() => {
    const project = services.pipelines.project(actor, fullPath)
    return services.pipelines.list(actor, project, parseParams(PipelineListQuery, { per_page: '5' })).items
  })
  const readmeFile = ifAllowed(() => {
    const { browse, files } = services.repository
    const at = browse.locate(actor, fullPath, '')
    const name = browse.readmeName(at.sha)
    return name === undefined ? undefined : { name, file: files.read(actor, fullPath, name, at.sha) }
  })
  return layout(ctx, {
    title: p.name,
    crumbs: projectCrumbs(p),
    body: html`${projectNav(p)}
      <section aria-labelledby="about">
        <h2 id="about">About</h2>
        ${p.description ? paragraphs(p.description) : html`<p class="muted">No description.</p>`}
        <dl class="facts">
          <dt>Path</dt>
          <dd>${p.path_with_namespace}</dd>
          <dt>Visibility</dt>
          <dd>${visibilityOf(p)}</dd>
          <dt>Default branch</dt>
          <dd>${p.default_branch ?? 'none'}</dd>
          ${
            open === undefined
              ? null
              : html`<dt>Open issues</dt>
                  <dd><a href="${pathOf(p.path_with_namespace, 'issues')}">${open}</a></dd>`
          }
          <dt>Created</dt>
          <dd><time datetime="${p.created_at}">${p.created_at}</time></dd>
        </dl>
      </section>
      <section aria-labelledby="recent-pipelines">
        <h2 id="recent-pipelines">Recent pipelines</h2>
        ${
          !pipelines || pipelines.length === 0
            ? html`<p class="muted">No pipelines yet.</p>`
            : html`<ul>
                ${pipelines.map(
                  (pl) =>
                    html`<li>
                      <a href="${pathOf(p.path_with_namespace, 'pipelines', pl.id)}">Pipeline #${pl.id}</a>
                      ${statusBadge(pl.status)} on <code>${pl.ref}</code>
                    </li>`,
                )}
              </ul>`
        }
        <p><a href="${pathOf(p.path_with_namespace, 'pipelines')}">All pipelines</a></p>
      </section>
      ${
        readmeFile
          ? html`<section aria-labelledby="readme">
              <h2 id="readme">${readmeFile.name}</h2>
              ${isBinary(readmeFile.file.content) ? html`<p class="muted">Binary file.</p>` : readme(readmeFile.name, readmeFile.file.content.toString('utf8'))}
            </section>`
          : null
      }`,
  })
}
