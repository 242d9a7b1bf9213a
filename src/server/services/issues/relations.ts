import type { MergeRequest, MergeRequestBasic, UserAgentDetail, UserBasic } from '../../../schema/index.js'
import { forbidden, notFound } from '../../grape/gitlab-errors.js'
import {
  presentMergeRequest,
  presentMergeRequestBasic,
  type MergeRequestRecords,
} from '../../present/merge-requests.js'
import { presentUser } from '../../present/users.js'
import type { MergeRequestRow } from '../../store/merge-requests.js'
import type { ProjectRow } from '../../store/projects.js'
import { Actor, Level } from '../access.js'
import { canReadInternalNotes, requireUser, type IssueDeps } from './lookup.js'

/** Merge requests, participants and the user agent of an issue (`lib/api/issues.rb`). */
export function issueRelationService(deps: IssueDeps) {
  const { store, access, instance } = deps.ctx
  const ee = instance.edition === 'ee'

  /** Merge requests are readable by all who see a public or internal project, and by Reporters of a private one. */
  const canReadMergeRequests = (actor: Actor, project: ProjectRow) =>
    access.canReadProject(actor, project) &&
    (project.visibility !== 'private' || access.atLeast(actor, project, Level.reporter))

  /** What a merge request's record shows besides its row. */
  const recordsOf = (row: MergeRequestRow): MergeRequestRecords => ({
    author: store.users.get(row.author_id),
    targetSha: store.mergeRequests.refSha(row.project_id, row.target_branch),
  })

  const visible = (actor: Actor, rows: MergeRequestRow[]) =>
    rows
      .map((row) => ({ row, project: store.projects.get(row.project_id) as ProjectRow }))
      .filter(({ project }) => project && canReadMergeRequests(actor, project))

  return {
    /** `GET .../related_merge_requests`: merge requests that mention or close the issue (full records). */
    related(actor: Actor, project: ProjectRow, iid: number): MergeRequest[] {
      const issue = deps.issues.findIssue(actor, project, iid)
      return visible(actor, store.mergeRequests.relatedTo(issue.id)).map(({ row, project: p }) =>
        presentMergeRequest(
          instance,
          row,
          p,
          {
            subscribed: actor.id !== null && row.author_id === actor.id,
            canMerge: row.state === 'opened' && access.atLeast(actor, p, Level.developer),
          },
          ee,
          recordsOf(row),
        ),
      )
    },

    /** `GET .../closed_by`: merge requests that close the issue when merged, newest first. */
    closedBy(actor: Actor, project: ProjectRow, iid: number): MergeRequestBasic[] {
      const issue = deps.issues.findIssue(actor, project, iid)
      return visible(actor, store.mergeRequests.closing(issue.id)).map(({ row, project: p }) =>
        presentMergeRequestBasic(instance, row, p, ee, recordsOf(row)),
      )
    },

    /**
     * `GET .../participants`: the author, the assignees, then the authors of user notes in the
     * order they first commented, each once, leaving out users who cannot read the issue
     * (GitLab's `visible_participants`). Like `Participable`, notes the caller may not read add
     * nobody: internal notes count for Planners, Reporters and up only (`read_internal_note`).
     */
    participants(actor: Actor, project: ProjectRow, iid: number): UserBasic[] {
      const issue = deps.issues.findIssue(actor, project, iid)
      const ids = [
        issue.author_id,
        ...store.issues.assigneesOf([issue.id]).map((a) => a.user_id),
        ...store.notes.authorsOf(issue.id, canReadInternalNotes(deps, actor, project)),
      ]
      const users: UserBasic[] = []
      for (const id of new Set(ids)) {
        const user = store.users.get(id)
        if (!user) continue
        const them = new Actor(user)
        if (access.canReadProject(them, project) && deps.issues.canReadIssue(them, project, issue))
          users.push(presentUser(user, instance))
      }
      return users
    },

    /**
     * `GET .../user_agent_detail`: administrators only (401, then 403), checked before the project;
     * 404 `UserAgentDetail Not Found` for issues not created through the API.
     */
    userAgent(actor: Actor, projectRef: string, iid: number): UserAgentDetail {
      requireUser(actor)
      if (!actor.admin) throw forbidden()
      const project = access.project(actor, projectRef)
      const issue = deps.issues.findIssue(actor, project, iid)
      if (issue.user_agent === null && issue.ip_address === null) throw notFound('UserAgentDetail')
      return {
        user_agent: issue.user_agent ?? '',
        ip_address: issue.ip_address ?? '',
        akismet_submitted: false,
      }
    },
  }
}
export type IssueRelationService = ReturnType<typeof issueRelationService>
