import type { Services } from '../services/index.js'
import { commitPage } from './commit-page.js'
import type { Html } from './html.js'
import type { PageContext } from './layout.js'
import { refListPage } from './ref-pages.js'
import { blobPage, treePage } from './repository-pages.js'

type RepositoryRender = (ctx: PageContext, query: Record<string, unknown>) => Html

/**
 * The repository's page for `/<project>/-/<kind>/<rest>` (`config/routes/repository.rb`,
 * `config/routes/project.rb`): `tree` (no ref: the default branch), `blob`, `commit`, `branches`,
 * `tags`; undefined for any other kind. Refs and paths may hold slashes, so `rest` is split by the
 * service (`browse.locate`).
 */
export function repositoryPage(
  services: Services,
  project: string,
  kind: string,
  rest: string,
): RepositoryRender | undefined {
  if (kind === 'tree') return (ctx, query) => treePage(ctx, services, project, rest, query)
  if (kind === 'blob' && rest !== '') return (ctx) => blobPage(ctx, services, project, rest)
  // `resources :commit, constraints: { id: /\h{7,40}/ }`: a SHA or a prefix of one, never a ref name.
  if (kind === 'commit' && /^[0-9a-fA-F]{7,40}$/.test(rest))
    return (ctx) => commitPage(ctx, services, project, rest.toLowerCase())
  if ((kind === 'branches' || kind === 'tags') && rest === '')
    return (ctx, query) => refListPage(ctx, services, project, query, kind)
  return undefined
}

/** The project and `<ref>/<path>` of a raw file's address (`/<project>/-/raw/<ref>/<path>`); undefined: none. */
export function rawTarget(path: string): { project: string; rest: string } | undefined {
  // The first `/-/` parts the project from the resource: a file may hold `/-/raw/` in its path.
  const at = path.indexOf('/-/')
  return at < 0 || !path.startsWith('/-/raw/', at)
    ? undefined
    : { project: path.slice(0, at), rest: path.slice(at + '/-/raw/'.length) }
}
