import { BranchListQuery, TagListQuery } from '../../schema/index.js'
import { parseParams } from '../grape/params.js'
import type { Services } from '../services/index.js'
import { html, type Html } from './html.js'
import { layout, pager, table, type PageContext } from './layout.js'
import { pageNumber, pathOf, repoPath } from './links.js'
import { projectCrumbs, projectNav } from './project-pages.js'

const PER_PAGE = 20

const pageOf = (page: number) => ({ page, perPage: PER_PAGE, offset: (page - 1) * PER_PAGE })

/** `/<full_path>/-/branches`: the branches by name, each its tree and last commit (`Projects::BranchesController#index`). */
export function branchesPage(
  ctx: PageContext,
  services: Services,
  fullPath: string,
  query: Record<string, unknown>,
): Html {
  const { actor } = ctx.visitor
  const page = pageNumber(query.page)
  const list = services.repository.branches.list(
    actor,
    fullPath,
    parseParams(BranchListQuery, {}),
    pageOf(page),
  )
  const p = services.projects.get(actor, fullPath)
  const full = p.path_with_namespace
  const total = 'total' in list ? (list.total ?? 0) : 0
  const base = pathOf(full, 'branches')
  return layout(ctx, {
    title: 'Branches',
    crumbs: projectCrumbs(p, [{ text: 'Branches', href: base }]),
    body: html`${projectNav(p)}
    ${
      list.items.length === 0
        ? html`<p class="muted">This repository has no branches.</p>`
        : table(
            ['Branch', 'Last commit'],
            list.items.map((b) => [
              html`<a href="${repoPath(full, 'tree', b.name)}">${b.name}</a>
                ${b.default ? html`<span class="badge">default</span>` : null}
                ${b.protected ? html`<span class="badge">protected</span>` : null}`,
              html`<a href="${pathOf(full, 'commit', b.commit.id)}"><code>${b.commit.short_id}</code></a>
                ${b.commit.title}`,
            ]),
          )
    }
    ${pager('Pages', page, page * PER_PAGE < total, (n) => `${base}?page=${n}`)}`,
  })
}

/** `/<full_path>/-/tags`: the tags, newest first, each its tree, commit and message (`Projects::TagsController#index`). */
export function tagsPage(
  ctx: PageContext,
  services: Services,
  fullPath: string,
  query: Record<string, unknown>,
): Html {
  const { actor } = ctx.visitor
  const page = pageNumber(query.page)
  const list = services.repository.tags.list(actor, fullPath, parseParams(TagListQuery, {}), pageOf(page))
  const p = services.projects.get(actor, fullPath)
  const full = p.path_with_namespace
  const total = 'total' in list ? (list.total ?? 0) : 0
  const base = pathOf(full, 'tags')
  return layout(ctx, {
    title: 'Tags',
    crumbs: projectCrumbs(p, [{ text: 'Tags', href: base }]),
    body: html`${projectNav(p)}
    ${
      list.items.length === 0
        ? html`<p class="muted">This repository has no tags.</p>`
        : table(
            ['Tag', 'Commit', 'Message'],
            list.items.map((tag) => [
              html`<a href="${repoPath(full, 'tree', tag.name)}">${tag.name}</a>
                ${tag.protected ? html`<span class="badge">protected</span>` : null}`,
              html`<a href="${pathOf(full, 'commit', tag.commit.id)}"><code>${tag.commit.short_id}</code></a>
                ${tag.commit.title}`,
              html`${tag.message ?? ''}`,
            ]),
          )
    }
    ${pager('Pages', page, page * PER_PAGE < total, (n) => `${base}?page=${n}`)}`,
  })
}
