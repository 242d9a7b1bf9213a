import {
  IMPORTABLE_RELATIONS,
  type RelationImportParams,
  type RelationImportTracker,
} from '../../schema/index.js'
import type { ExtractLimits } from '../archive/extract-limits.js'
import { messageError } from '../grape/gitlab-errors.js'
import type { JobSlots } from '../jobs/job-slots.js'
import type { RelationImportRow } from '../store/relation-imports.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import type { TransferEnv } from './exports.js'
import { correlationId } from './imports.js'

/** A tracker still `created` or `started` after this long is stale (`RelationImportTracker#stale?`): 24 hours. */
const STALE_MS = 24 * 60 * 60 * 1000

/** `IMPORTABLE_RELATIONS.to_sentence(last_word_connector: ', or ')`. */
const RELATION_LIST = `${IMPORTABLE_RELATIONS.slice(0, -1).join(', ')}, or ${IMPORTABLE_RELATIONS.at(-1)}`

export interface RelationImportEnv extends Pick<TransferEnv, 'workDir' | 'queue' | 'limit'> {
  limits: ExtractLimits
  /** The import slots: a relation import waits for one as a project import does. */
  slots: JobSlots
}

/**
 * Single relation imports (`Projects::ImportExport::RelationImportService`,
 * app/services/projects/import_export/relation_import_service.rb): one relation of an export archive
 * re-imported into an existing project, items whose iid the project holds skipped.
 */
export function relationImportService(ctx: ServiceContext, env: RelationImportEnv) {
  const { store, access } = ctx
  const now = () => ctx.clock.now().toISOString()

  const present = (row: RelationImportRow, project: ProjectRow): RelationImportTracker => ({
    id: row.id,
    project_path: project.full_path,
    relation: row.relation,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  })

  /** `Project#any_import_in_progress?`: its import scheduled or started, or a tracker under way and not stale. */
  const importInProgress = (projectId: number) => {
    const status = store.imports.byProject(projectId)?.status
    if (status === 'scheduled' || status === 'started') return true
    return store.relationImports.running(
      projectId,
      new Date(ctx.clock.now().getTime() - STALE_MS).toISOString(),
    )
  }

  return {
    /**
     * Checks as GitLab's service does, in its order: the project by full path (`Project.find_by_full_path`,
     * no visibility check: 404 `Project not found`), the relation (400), `admin_project` (Maintainer+, 403
     * `You are not authorized to perform this action`; so a non-member learns that a private path exists, as
     * on GitLab), no import under way (409); then the tracker `created` and the job queued with `file`
     * (the caller's upload, which the job removes). A refused request writes nothing; the caller removes
     * `file` then. The rate limit `project_import` and `check` (`validate_file!`) come first, as in the route.
     */
    create(
      actor: Actor,
      params: RelationImportParams,
      file: string,
      check?: () => void,
    ): RelationImportTracker {
      env.limit('project_import', String(actor.id))
      check?.()
      const project = store.projects.byPath(params.path)
      if (!project) throw messageError(404, 'Project not found')
      if (!(IMPORTABLE_RELATIONS as readonly string[]).includes(params.relation))
        throw messageError(400, `Imported relation must be one of ${RELATION_LIST}`)
      if (!access.atLeast(actor, project, Level.maintainer))
        throw messageError(403, 'You are not authorized to perform this action')
      if (importInProgress(project.id))
        throw messageError(409, 'A relation import is already in progress for this project')
      const id = store.relationImports.insert({
        project_id: project.id,
        user_id: actor.id!,
        relation: params.relation,
        correlation_id: correlationId(),
        now: now(),
      })
      env.queue.run(() =>
        env.slots.run(String(actor.id), async () => {
          if (env.queue.aborted()) return
          await (
            await import('../jobs/relation-import-job.js')
          ).runRelationImport(
            { ctx, workDir: env.workDir, limits: env.limits, aborted: env.queue.aborted },
            id,
            file,
          )
        }),
      )
      return present(store.relationImports.get(id)!, project)
    },

    /**
     * `GET /projects/:id/relation-imports`: the project's trackers, oldest first, unpaged as GitLab presents
     * them; a hidden project is 404, a reader below Maintainer 403 `403 Forbidden - Project`.
     */
    list(actor: Actor, ref: string): RelationImportTracker[] {
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer))
        throw messageError(403, '403 Forbidden - Project')
      return store.relationImports.byProject(project.id).map((row) => present(row, project))
    },
  }
}
export type RelationImportService = ReturnType<typeof relationImportService>
