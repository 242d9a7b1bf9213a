import { TreeQuery, type Commit } from '../../schema/index.js'
import { isBinary } from '../domain/blob-content.js'
import { parseParams } from '../grape/params.js'
import type { RefPath } from '../services/repository/browse.js'
import type { Services } from '../services/index.js'
import { DOT, html, type Html } from './html.js'
import { layout, pager, table, type PageContext } from './layout.js'
import { pageNumber, pathOf, repoPath } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'
import { PageRedirect } from './respond.js'

const PER_PAGE = 100
/** The largest file a page shows (GitLab's blob viewer stops at 1 MB and offers the raw file). */
const MAX_SHOWN = 1024 * 1024

/** The trail of a path under a ref: the ref (its root), then each folder, each a tree page. */
function pathCrumbs(ctx: PageContext, services: Services, at: RefPath): Html {
  const p = services.projects.get(ctx.visitor.actor, at.project.full_path)
  const full = at.project.full_path
  const names = at.path === '' ? [] : at.path.split('/')
  return projectCrumbs(p, [
    { text: at.ref, href: repoPath(full, 'tree', at.ref) },
    ...names.map((name, n) => ({
      text: name,
      href: repoPath(full, n === names.length - 1 ? 'blob' : 'tree', at.ref, names.slice(0, n + 1).join('/')),
    })),
  ])
}

/** The last commit of a tree or file: its title linked, its author and date. */
export function lastCommitLine(fullPath: string, c: Commit | undefined): Html {
  if (!c) return html``
  return html`<p class="last-commit">
    Last commit: <a href="${pathOf(fullPath, 'commit', c.id)}">${c.title}</a> <code>${c.short_id}</code> by
    ${c.author_name},
    <time datetime="${c.authored_date}">${c.authored_date}</time>
  </p>`
}

/**
 * `/<full_path>/-/tree/<ref>/<path>`: a folder at a ref, folders first, each entry linked, the last
 * commit that changed it (`Projects::TreeController#show`). 404 for a ref that is none; a file
 * redirects to its blob page, a missing path to the ref's root (GitLab adds a flash message).
 */
export function treePage(
  ctx: PageContext,
  services: Services,
  fullPath: string,
  rest: string,
  query: Record<string, unknown>,
): Html {
  const { actor } = ctx.visitor
  const { browse, tree } = services.repository
  const at = browse.locate(actor, fullPath, rest)
  const full = at.project.full_path
  // `TreeController#show`: a file goes to its blob page, a missing path to the ref's root.
  const kind = browse.kind(at)
  if (kind === 'blob') throw new PageRedirect(repoPath(full, 'blob', at.ref, at.path))
  if (kind !== 'tree') throw new PageRedirect(repoPath(full, 'tree', at.ref))
  const p = services.projects.get(actor, fullPath)
  const page = pageNumber(query.page)
  const list = tree.list(actor, full, parseParams(TreeQuery, { ref: at.sha, path: at.path }), {
    page,
    perPage: PER_PAGE,
    offset: (page - 1) * PER_PAGE,
  })
  const total = 'total' in list ? (list.total ?? 0) : 0
  const up = at.path.includes('/') ? at.path.slice(0, at.path.lastIndexOf('/')) : ''
  const link = (e: (typeof list.items)[number]) =>
    e.type === 'commit'
      ? html`${e.name} <span class="muted">(submodule at <code>${e.id.slice(0, 8)}</code>)</span>`
      : html`<a href="${repoPath(full, e.type === 'tree' ? 'tree' : 'blob', at.ref, e.path)}"
          >${e.name}${e.type === 'tree' ? '/' : ''}</a
        >`
  const rows = [
    ...(at.path === '' ? [] : [[html`<a href="${repoPath(full, 'tree', at.ref, up)}">..</a>`, html`folder`]]),
    ...list.items.map((e) => [
      link(e),
      html`${e.type === 'tree' ? 'folder' : e.type === 'commit' ? 'submodule' : 'file'}`,
    ]),
  ]
  const base = repoPath(full, 'tree', at.ref, at.path)
  return layout(ctx, {
    title: at.path === '' ? 'Files' : at.path.split('/').at(-1)!,
    crumbs: pathCrumbs(ctx, services, at),
    body: html`${projectNav(p)}
      <p>
        Ref <code>${at.ref}</code> at
        <a href="${pathOf(full, 'commit', at.sha)}"><code>${at.sha.slice(0, 8)}</code></a>
      </p>
      ${lastCommitLine(full, browse.lastCommit(at))}
      ${rows.length === 0 ? html`<p class="muted">This folder is empty.</p>` : table(['Name', 'Type'], rows)}
      ${pager('Pages', page, page * PER_PAGE < total, (n) => `${base}?page=${n}`)}`,
  })
}

/** A text file's lines, numbered, each with an anchor (`#L<n>`) as GitLab's blob viewer has. */
function numberedLines(text: string): Html {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  if (lines.at(-1) === '') lines.pop()
  return html`<div class="scroll">
    <table class="code">
      <tbody>
        ${lines.map(
          (line, n) =>
            html`<tr id="L${n + 1}">
              <td class="ln"><a href="#L${n + 1}">${n + 1}</a></td>
              <td class="line">${line}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`
}

/**
 * `/<full_path>/-/blob/<ref>/<path>`: a file at a ref (`Projects::BlobController#show`), its text
 * escaped with line numbers; a binary file or one over 1 MiB is not shown, only linked raw. A
 * folder redirects to its tree page.
 */
export function blobPage(ctx: PageContext, services: Services, fullPath: string, rest: string): Html {
  const { actor } = ctx.visitor
  const { browse, files } = services.repository
  const at = browse.locate(actor, fullPath, rest)
  // `BlobController#blob`: a folder goes to its tree page.
  if (browse.kind(at) === 'tree')
    throw new PageRedirect(repoPath(at.project.full_path, 'tree', at.ref, at.path))
  const { meta, content } = files.read(actor, at.project.full_path, at.path, at.sha)
  const p = services.projects.get(actor, fullPath)
  const full = at.project.full_path
  const raw = repoPath(full, 'raw', at.ref, at.path)
  const shown = isBinary(content)
    ? html`<p class="muted">
        This is a binary file of ${meta.size} bytes: it is not shown. <a href="${raw}">Download it</a>.
      </p>`
    : content.length > MAX_SHOWN
      ? html`<p class="muted">
          This file is too large to show (${meta.size} bytes). <a href="${raw}">Open it raw</a>.
        </p>`
      : content.length === 0
        ? html`<p class="muted">This file is empty.</p>`
        : numberedLines(content.toString('utf8'))
  return layout(ctx, {
    title: meta.file_name,
    crumbs: pathCrumbs(ctx, services, at),
    body: html`${projectNav(p)} ${lastCommitLine(full, browse.lastCommit(at))}
      <p>
        ${meta.size} bytes${meta.execute_filemode ? ', executable' : ''} ${DOT}
        <a href="${raw}">Open raw</a> ${DOT}
        <a href="${repoPath(full, 'tree', at.ref, at.path.split('/').slice(0, -1).join('/'))}">Folder</a>
      </p>
      <section aria-labelledby="file-content">
        <h2 id="file-content">Content</h2>
        ${shown}
      </section>`,
  })
}
