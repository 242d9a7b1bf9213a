import type { FastifyReply } from 'fastify'
import { GitLabError } from '../grape/gitlab-errors.js'
import { sendDownload } from '../http/file-download.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { layout, statusBadge, type PageContext } from './layout.js'
import { pathOf } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'
import { ifAllowed, notFoundPage, sendPage } from './respond.js'

/**
 * `/<full_path>/edit`: the export and import status of a project, Maintainers and up (GitLab shows
 * export on this settings page, `ProjectsController#edit`, and an import's progress at
 * `/<full_path>/import`; both are here, read-only). Others get the 404 page.
 */
export function transferPage(ctx: PageContext, services: Services, fullPath: string): Html {
  const { actor } = ctx.visitor
  const p = services.projects.get(actor, fullPath)
  const exported = services.transfers.exports.status(actor, fullPath)
  const imported = services.transfers.imports.status(actor, fullPath)
  return layout(ctx, {
    title: 'Export and import',
    crumbs: projectCrumbs(p, [{ text: 'Export and import', href: `${pathOf(p.path_with_namespace)}/edit` }]),
    body: html`${projectNav(p)}
      <section aria-labelledby="export">
        <h2 id="export">Export</h2>
        <dl class="facts">
          <dt>Your latest export</dt>
          <dd>${statusBadge(exported.export_status)}</dd>
          ${
            exported._links
              ? html`<dt>Archive</dt>
                  <dd><a href="${pathOf(p.path_with_namespace)}/download_export">Download the export</a></dd>`
              : null
          }
        </dl>
      </section>
      <section aria-labelledby="import">
        <h2 id="import">Import</h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd>${statusBadge(imported.import_status)}</dd>
          ${
            imported.import_type
              ? html`<dt>Type</dt>
                  <dd>${imported.import_type}</dd>`
              : null
          }
          ${
            imported.import_error
              ? html`<dt>Error</dt>
                  <dd class="error">${imported.import_error}</dd>`
              : null
          }
          ${
            imported.failed_relations.length > 0
              ? html`<dt>Failed relations</dt>
                  <dd>
                    <ul>
                      ${imported.failed_relations.map((f) => html`<li>${f.relation_name}: ${f.exception_message}</li>`)}
                    </ul>
                  </dd>`
              : null
          }
        </dl>
      </section>`,
  })
}

/**
 * `/<full_path>/download_export`: the visitor's finished export archive, the `_links.web_url` of
 * the export status (`ProjectsController#download_export`); the 404 page when there is none or the
 * visitor is no Maintainer. The download rate limit answers as the API's does (429).
 */
export async function downloadExport(
  reply: FastifyReply,
  ctx: PageContext,
  services: Services,
  fullPath: string,
): Promise<FastifyReply> {
  const target = ifAllowed(() => services.transfers.exports.download(ctx.visitor.actor, fullPath))
  const gone = () => new GitLabError(404, { message: '404 Not found or has expired' })
  if (target)
    try {
      return await sendDownload(reply, target.file, target.name, gone)
    } catch (err) {
      if (!(err instanceof GitLabError)) throw err
    }
  return sendPage(reply, 404, notFoundPage(ctx))
}
