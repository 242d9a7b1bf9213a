import type { ProtectedTag, ProtectTag } from '../../../schema/protected-tag.js'
import { isoNow } from '../../domain/clock.js'
import { forbidden, messageError, paramError, recordNotFound } from '../../grape/gitlab-errors.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import { presentProtectedTag } from '../../present/repository.js'
import type { ProjectRow } from '../../store/projects.js'
import { Level, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import type { RepositoryReads } from './reads.js'

/** `ProtectedRefAccess.allowed_access_levels`: no one, Developers, Maintainers, administrators. */
const LEVELS = new Set([0, 30, 40, 60])

/**
 * Protected tags (`lib/api/protected_tags.rb`, `authorize_admin_project`: Maintainer; 403 below,
 * 404 for those who may not see the project): list (offset pages, oldest first), get, protect a
 * name or `*` wildcard (`create_access_level`, Maintainers by default), unprotect. A tag whose name
 * matches may be created, and deleted, only by those its level lets in (`tags.ts`).
 */
export function protectedTagService(ctx: ServiceContext, reads: RepositoryReads) {
  const { store, access, clock } = ctx
  const repo = store.repository

  const maintainer = (actor: Actor, projectRef: string): ProjectRow => {
    const project = reads.readable(actor, projectRef)
    if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
    return project
  }

  /** `find_by!(name:)`: ActiveRecord's 404 `Not found`. */
  const row = (project: ProjectRow, name: string) => {
    const found = repo.protectedTag(project.id, name)
    if (!found) throw recordNotFound()
    return found
  }

  return {
    list(actor: Actor, projectRef: string, page: Page): PageOut<ProtectedTag> {
      const project = maintainer(actor, projectRef)
      return {
        items: repo.protectedTagPage(project.id, page.perPage, page.offset).map(presentProtectedTag),
        page,
        total: repo.protectedTagCount(project.id),
      }
    },

    get: (actor: Actor, projectRef: string, name: string): ProtectedTag =>
      presentProtectedTag(row(maintainer(actor, projectRef), name)),

    /**
     * `ProtectedTags::CreateService`: 400 `create_access_level does not have a valid value` (Grape's
     * `values:`), 422 `["Name can't be blank"]` or `["Name has already been taken"]` (the model's
     * validations, `render_api_error!(errors.full_messages, 422)`).
     */
    protect(actor: Actor, projectRef: string, input: ProtectTag): ProtectedTag {
      const project = maintainer(actor, projectRef)
      const level = input.create_access_level ?? Level.maintainer
      if (!LEVELS.has(level)) throw paramError('create_access_level does not have a valid value')
      if (input.name.trim() === '') throw messageError(422, ["Name can't be blank"])
      if (repo.protectedTag(project.id, input.name)) throw messageError(422, ['Name has already been taken'])
      const now = isoNow(clock)
      store.transaction(() =>
        repo.protectTag({
          project_id: project.id,
          name: input.name,
          create_access_level: level,
          created_at: now,
          updated_at: now,
        }),
      )
      return presentProtectedTag(row(project, input.name))
    },

    unprotect(actor: Actor, projectRef: string, name: string): void {
      const project = maintainer(actor, projectRef)
      row(project, name)
      store.transaction(() => repo.unprotectTag(project.id, name))
    },
  }
}
export type ProtectedTagService = ReturnType<typeof protectedTagService>
