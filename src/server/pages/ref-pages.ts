import { BranchListQuery, TagListQuery, type Commit } from '../../schema/index.js'
import { parseParams } from '../grape/params.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { layout, pager, table, type PageContext } from './layout.js'
import { pageNumber, pathOf, repoPath } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'

const PER_PAGE = 20

/** A ref as a list row shows it: its name, its badges, its commit, and (tags) its message. */
interface RefRow {
  name: string
  badges: string[]
  commit: Commit
  message?: string | null
}

/**
 * `/<full_path>/-/branches` and `/-/tags` (`Projects::BranchesController#index`,
 * `Projects::TagsController#index`): the API's list (branches by name, tags newest first), 20 a
 * page, each ref linked to its tree and its commit.
 */
export function refListPage(
  ctx: PageContext,
  services: Services,
  fullPath: string,
  query: Record<string, unknown>,
  kind: 'branches' | 'tags',
): Html {
  const { actor } = ctx.visitor
  const { branches, tags } = services.repository
  const page = pageNumber(query.page)
  const at = { page, perPage: PER_PAGE, offset: (page - 1) * PER_PAGE }
  const list =
    kind === 'branches'
      ? branches.list(actor, fullPath, parseParams(BranchListQuery, {}), at)
      : tags.list(actor, fullPath, parseParams(TagListQuery, {}), at)
  const rows: RefRow[] = list.items.map((r) =>
    'default' in r
      ? {
          name: r.name,
          commit: r.commit,
          badges: [r.default && 'default', r.protected && 'protected'].filter((b) => b !== false),
        }
      : { name: r.name, commit: r.commit, badges: r.protected ? ['protected'] : [], message: r.message },
  )
  const p = services.projects.get(actor, fullPath)
  const full = p.path_with_namespace
  const total = 'total' in list ? (list.total ?? 0) : 0
  const base = pathOf(full, kind)
  const title = kind === 'branches' ? 'Branches' : 'Tags'
  return layout(ctx, {
    title,
    crumbs: projectCrumbs(p, [{ text: title, href: base }]),
    body: html`${projectNav(p)}
    ${
      rows.length === 0
        ? html`<p class="muted">This repository has no ${kind}.</p>`
        : table(
            [kind === 'branches' ? 'Branch' : 'Tag', 'Last commit', ...(kind === 'tags' ? ['Message'] : [])],
            rows.map((r) => [
              html`<a href="${repoPath(full, 'tree', r.name)}">${r.name}</a>
                ${r.badges.map((b) => html`<span class="badge">${b}</span>`)}`,
              html`<a href="${pathOf(full, 'commit', r.commit.id)}"><code>${r.commit.short_id}</code></a>
                ${r.commit.title}`,
              ...(kind === 'tags' ? [html`${r.message ?? ''}`] : []),
            ]),
          )
    }
    ${pager('Pages', page, page * PER_PAGE < total, (n) => `${base}?page=${n}`)}`,
  })
}
