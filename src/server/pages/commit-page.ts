import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { layout, statusBadge, table, type PageContext } from './layout.js'
import { pathOf, repoPath } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * `/<full_path>/-/commit/<sha>`: a commit (`Projects::CommitController#show`): its title and message,
 * author and committer, parents linked, its newest pipeline's status, and the files it changed
 * against its first parent, each linked at the commit (a deleted one at the parent).
 */
export function commitPage(ctx: PageContext, services: Services, fullPath: string, sha: string): Html {
  const { actor } = ctx.visitor
  const { commits, browse } = services.repository
  const c = commits.get(actor, fullPath, sha, true)
  const changes = browse.changes(actor, fullPath, c.id)
  const p = services.projects.get(actor, fullPath)
  const full = p.path_with_namespace
  const body = c.message.slice(c.title.length).trim()
  const parent = c.parent_ids[0]
  const fileLink = (path: string, deleted: boolean) =>
    deleted && parent
      ? html`<a href="${repoPath(full, 'blob', parent, path)}"><code>${path}</code></a>`
      : html`<a href="${repoPath(full, 'blob', c.id, path)}"><code>${path}</code></a>`
  return layout(ctx, {
    title: c.title === '' ? `Commit ${c.short_id}` : c.title,
    crumbs: projectCrumbs(p, [{ text: `Commit ${c.short_id}`, href: pathOf(full, 'commit', c.id) }]),
    body: html`${projectNav(p)} ${body === '' ? null : html`<pre class="message">${body}</pre>`}
      <dl class="facts">
        <dt>Commit</dt>
        <dd><code>${c.id}</code></dd>
        <dt>Author</dt>
        <dd>${c.author_name}, <time datetime="${c.authored_date}">${c.authored_date}</time></dd>
        ${
          c.committer_name === c.author_name && c.committed_date === c.authored_date
            ? null
            : html`<dt>Committer</dt>
                <dd>${c.committer_name}, <time datetime="${c.committed_date}">${c.committed_date}</time></dd>`
        }
        <dt>${c.parent_ids.length === 1 ? 'Parent' : 'Parents'}</dt>
        <dd>
          ${
            c.parent_ids.length === 0
              ? html`<span class="muted">none (a root commit)</span>`
              : c.parent_ids.map(
                  (id, n) =>
                    html`${n > 0 ? ' ' : ''}<a href="${pathOf(full, 'commit', id)}"
                        ><code>${id.slice(0, 8)}</code></a
                      >`,
                )
          }
        </dd>
        ${
          c.last_pipeline
            ? html`<dt>Pipeline</dt>
                <dd>
                  <a href="${pathOf(full, 'pipelines', c.last_pipeline.id)}">#${c.last_pipeline.id}</a>
                  ${statusBadge(c.last_pipeline.status)}
                </dd>`
            : null
        }
      </dl>
      <p><a href="${repoPath(full, 'tree', c.id)}">Browse files at this commit</a></p>
      <section aria-labelledby="changes">
        <h2 id="changes">Changes</h2>
        <p>
          ${plural(changes.length, 'file')} changed
          ${'stats' in c ? html`with ${plural(c.stats.additions, 'addition')} and ${plural(c.stats.deletions, 'deletion')}` : null}
        </p>
        ${
          changes.length === 0
            ? null
            : table(
                ['Status', 'File'],
                changes.map((f) => [
                  html`${f.status}`,
                  f.old_path === undefined
                    ? fileLink(f.path, f.status === 'deleted')
                    : html`${fileLink(f.path, false)}
                        <span class="muted">from <code>${f.old_path}</code></span>`,
                ]),
              )
        }
      </section>`,
  })
}
