import { Type } from '@sinclair/typebox'
import {
  Commit,
  CommitCreate,
  CommitDetailAnswer,
  CommitGetQuery,
  CommitNote,
  CommitNoteCreate,
  CommitNoteListQuery,
  CommitListQuery,
  CommitRef,
  CommitRefsQuery,
  CommitStats,
} from '../../schema/index.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'
import { IdPath, ShaPath } from './paths.js'

/** `lib/api/commits.rb`: list, get, `POST` with `actions[]`, the refs that hold a commit, and its comments. */
export function repositoryCommitRoutes(api: ApiContext): void {
  const { route } = api
  const commits = api.services.repository.commits
  // `before { authorize_read_code! }` (lib/api/commits.rb): access before the parameters.
  const before = (b: { actor: Actor; path: { id: string } }) =>
    api.services.repository.authorizeReadCode(b.actor, b.path.id)

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/commits',
      summary: 'List the commits of a ref (default branch), newest first; path, since, until',
      pathParams: IdPath,
      before,
      input: CommitListQuery,
      response: { 200: Type.Array(Type.Object({ ...Commit.properties, stats: Type.Optional(CommitStats) })) },
    },
    (h) => h.sendPage(commits.list(h.actor, h.path.id, h.params, pageOf(h.params))),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/repository/commits',
      summary: 'Commit actions[] (create, delete, move, update, chmod) on a branch',
      auth: 'required',
      pathParams: IdPath,
      before,
      input: CommitCreate,
      response: { 201: CommitDetailAnswer },
    },
    (h) => h.reply.code(201).send(commits.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/commits/:sha',
      // A CI/CD job token reads it (doc/ci/jobs/ci_job_token.md), in its own project only.
      jobToken: true,
      summary: 'Read a commit by SHA, branch or tag, with its stats',
      pathParams: ShaPath,
      before,
      input: CommitGetQuery,
      response: { 200: CommitDetailAnswer },
    },
    (h) => commits.get(h.actor, h.path.id, h.path.sha, h.params.stats !== false),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/commits/:sha/refs',
      summary: 'The branches and tags that hold a commit (type branch, tag or all)',
      pathParams: ShaPath,
      before,
      input: CommitRefsQuery,
      response: { 200: Type.Array(CommitRef) },
    },
    (h) => h.sendPage(commits.refs(h.actor, h.path.id, h.path.sha, h.params, pageOf(h.params))),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/commits/:sha/comments',
      summary: "List a commit's comments, oldest first",
      pathParams: ShaPath,
      before,
      input: CommitNoteListQuery,
      response: { 200: Type.Array(CommitNote) },
    },
    (h) =>
      h.sendPage(api.services.repository.commitNotes.list(h.actor, h.path.id, h.path.sha, pageOf(h.params))),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/repository/commits/:sha/comments',
      summary: 'Comment on a commit, or on a line of its diff (path, line, line_type new or old)',
      auth: 'required',
      pathParams: ShaPath,
      before,
      input: CommitNoteCreate,
      response: { 201: CommitNote },
    },
    (h) =>
      h.reply
        .code(201)
        .send(api.services.repository.commitNotes.create(h.actor, h.path.id, h.path.sha, h.params)),
  )
}
