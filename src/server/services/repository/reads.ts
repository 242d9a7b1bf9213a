import { forbidden } from '../../grape/gitlab-errors.js'
import type { ProjectRow } from '../../store/projects.js'
import { Level, writable, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { inJobTokenScope } from '../job-tokens.js'

/**
 * Who may read and write a project's repository (`app/policies/project_policy.rb`): the project
 * itself 404s to those who may not see it, and to a job token of another project's job (the job
 * token scope); `download_code` needs Reporter in a private project (403 below it); `push_code` needs
 * Developer in a project that is not archived.
 */
export function repositoryReads(ctx: ServiceContext) {
  const { access } = ctx
  return {
    readable(actor: Actor, projectRef: string): ProjectRow {
      const project = inJobTokenScope(actor, access.project(actor, projectRef))
      if (project.visibility === 'private' && !access.atLeast(actor, project, Level.reporter))
        throw forbidden()
      return project
    },
    pushCode: (actor: Actor, project: ProjectRow) =>
      actor.user !== null && writable(project) && access.atLeast(actor, project, Level.developer),
  }
}
export type RepositoryReads = ReturnType<typeof repositoryReads>
