import { Type } from '@sinclair/typebox'
import { CommitStatus, CommitStatusCreate, CommitStatusListQuery } from '../../schema/index.js'
import type { CommitStatusService } from '../services/commit-statuses.js'
import type { ApiContext } from './context.js'
import { ShaPath } from './paths.js'

/** Commit statuses (`lib/api/commit_statuses.rb`): external CI systems post them; a commit lists them. */
export function commitStatusRoutes(api: ApiContext, statuses: CommitStatusService): void {
  const { route } = api

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/commits/:sha/statuses',
      summary:
        "List a commit's statuses (posted ones and its pipelines' jobs), the latest of each name unless all",
      auth: 'required',
      pathParams: ShaPath,
      input: CommitStatusListQuery,
      response: { 200: Type.Array(CommitStatus) },
    },
    (h) => h.sendPage(statuses.list(h.actor, h.path.id, h.path.sha, h.params)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/statuses/:sha',
      summary: "Create or update a commit's status of a name (context) in its pipeline's external stage",
      auth: 'required',
      pathParams: ShaPath,
      input: CommitStatusCreate,
      response: { 201: CommitStatus },
    },
    (h) => h.reply.code(201).send(statuses.create(h.actor, h.path.id, h.path.sha, h.params)),
  )
}
