import { Type } from '@sinclair/typebox'
import {
  Blob,
  Commit,
  CommitDiffQuery,
  Compare,
  CompareQuery,
  Contributor,
  ContributorQuery,
  Diff,
  MergeBaseQuery,
} from '../../schema/index.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const ShaPath = Type.Object({ id: Type.String(), sha: Type.String() })

/**
 * `lib/api/repositories.rb`'s `compare`, `merge_base`, `contributors` and `blobs`, and `lib/api/commits.rb`'s
 * `commits/:sha/diff`.
 */
export function repositoryCompareRoutes(api: ApiContext): void {
  const { route } = api
  const compare = api.services.repository.compare
  // `before { authorize_read_code! }` (lib/api/repositories.rb): access before the parameters.
  const before = (b: { actor: Actor; path: { id: string } }) =>
    api.services.repository.authorizeReadCode(b.actor, b.path.id)

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/compare',
      summary: 'Compare two refs: the commits of `to` not in `from`, and the diff from their merge base',
      pathParams: IdPath,
      input: CompareQuery,
      before,
      response: { 200: Compare },
    },
    (h) => compare.compare(h.actor, h.path.id, h.params),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/commits/:sha/diff',
      summary: "List a commit's diffs against its first parent",
      pathParams: ShaPath,
      input: CommitDiffQuery,
      response: { 200: Type.Array(Diff) },
    },
    (h) =>
      h.sendPage(
        compare.commitDiff(h.actor, h.path.id, h.path.sha, h.params.unidiff === true, pageOf(h.params)),
      ),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/merge_base',
      summary: 'The common ancestor of two or more refs',
      pathParams: IdPath,
      input: MergeBaseQuery,
      before,
      response: { 200: Commit },
    },
    (h) => compare.mergeBase(h.actor, h.path.id, h.params.refs),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/contributors',
      summary: 'Commit counts by author email on a ref (order_by commits, name or email)',
      pathParams: IdPath,
      input: ContributorQuery,
      before,
      response: { 200: Type.Array(Contributor) },
    },
    (h) =>
      h.sendPage(api.services.repository.contributors.list(h.actor, h.path.id, h.params, pageOf(h.params))),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/blobs/:sha',
      summary: 'Read a blob by SHA: size and Base64 content',
      pathParams: ShaPath,
      response: { 200: Blob },
    },
    (h) => compare.blobRecord(h.path.sha, compare.blob(h.actor, h.path.id, h.path.sha)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/blobs/:sha/raw',
      summary: 'Read the raw bytes of a blob by SHA',
      pathParams: ShaPath,
      response: { 200: Type.String({ description: 'the blob' }) },
    },
    // `send_git_blob` and `no_cache_headers` (lib/api/helpers.rb, headers_helpers.rb): a blob has no
    // name, so the disposition is a bare `inline`; Workhorse's type for text is UTF-8 plain text.
    (h) =>
      h.reply
        .header('cache-control', 'no-cache, no-store')
        .header('pragma', 'no-cache')
        .header('expires', 'Fri, 01 Jan 1990 00:00:00 GMT')
        .header('content-disposition', 'inline')
        .type('text/plain; charset=utf-8')
        .send(compare.blob(h.actor, h.path.id, h.path.sha)),
  )
}
