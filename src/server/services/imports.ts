import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import type { ProjectImportParams, ProjectImportStatus } from '../../schema/index.js'
import { messageError, notFound } from '../grape/gitlab-errors.js'
import type { ImportSource } from '../jobs/import-job.js'
import type { JobSlots } from '../jobs/job-slots.js'
import type { ExtractLimits } from '../archive/extract-limits.js'
import { importRoleFor } from '../domain/releases.js'
import type { NamespaceRow } from '../store/namespaces.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import type { Removals } from './removals.js'
import { projectIdentity, type TransferEnv } from './exports.js'
import { settingsOf } from './project-settings.js'

/** GitLab's project path rule (`Gitlab::PathRegex.project_path_format_message`). */
const PATH = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/
const PATH_MESSAGE =
  "Path can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
const MASKED_ERROR = 'Ask a maintainer to check the import status for more details.'
/** `failed_relations` holds at most this many (GitLab's doc/api/project_import_export.md). */
const FAILED_RELATIONS_LIMIT = 100
/**
 * Imports that run at once; the others stay `scheduled` until a slot frees, as they wait in
 * GitLab's Sidekiq queue. Each may decompress up to `limits.maxDecompressedBytes` (25 GiB). One
 * user holds at most all but one (see `jobSlots`), so a user's stalled remote imports cannot keep
 * everyone else's waiting until their transfer deadline; GitLab's own per-user bound is the
 * `project_import` rate limit, applied in `create`.
 */
export const CONCURRENT_IMPORTS = 3

export interface ImportEnv extends TransferEnv {
  limits: ExtractLimits
  /** CONCURRENT_IMPORTS slots that imports wait for, keyed by the importing user. */
  slots: JobSlots
  s3Endpoint?: string
  /** How an overwrite removes the project it replaces. */
  removals: Removals
}

/** What `create` needs besides the parameters: where the archive comes from, checked beforehand. */
export type ImportPlan = ImportSource

/** A new correlation id (as labkit makes one per request or job). */
export const correlationId = () => randomBytes(16).toString('base64url').slice(0, 22)

/**
 * Project import (`lib/api/project_import.rb`): the target namespace and rights checked, the project
 * created at once with its import record `scheduled`, and the job queued. GitLab's errors:
 * `404 Namespace Not Found` (missing or hidden), 400 `Namespace is not valid` (no right to create
 * projects there), 400 `User is not allowed to import projects` (a group role below the import role:
 * Maintainer from 16.0, Developer before; this exact wording is our reading of
 * `Projects::CreateService`), 400 `Path has already been taken`.
 */
export function importService(ctx: ServiceContext, env: ImportEnv) {
  const { store, access } = ctx
  const now = () => ctx.clock.now().toISOString()
  const { slots } = env

  const namespaceFor = (actor: Actor, ref: string | undefined): NamespaceRow => {
    const byRef = ref === undefined || ref === '' ? undefined : ref
    const ns = byRef
      ? /^\d+$/.test(byRef)
        ? store.namespaces.get(Number(byRef))
        : store.namespaces.byPath(byRef)
      : store.namespaces.byPath(actor.user!.username)
    if (!ns) throw notFound('Namespace')
    if (ns.kind === 'group' && !access.canReadGroup(actor, ns)) throw notFound('Namespace')
    if (actor.admin) return ns
    if (ns.kind === 'user') {
      if (ns.owner_id !== actor.id) throw messageError(400, 'Namespace is not valid')
      return ns
    }
    const level = access.groupLevel(actor, ns)
    if (level < Level.developer) throw messageError(400, 'Namespace is not valid')
    if (level < importRoleFor(ctx.instance.version))
      throw messageError(400, 'User is not allowed to import projects')
    return ns
  }

  return {
    /**
     * Checks the target (`check` runs after the namespace and rights, before anything is
     * written, e.g. the remote file's HEAD), creates the project and queues the import. A refused
     * request writes nothing; the caller removes an uploaded file it refused. The import's
     * `correlation_id` is `requestId`, the request's `X-Request-Id` (`ProjectImportState` records
     * `Labkit::Correlation::CorrelationId.current_or_new_id`, app/models/project_import_state.rb).
     */
    async create(
      actor: Actor,
      params: ProjectImportParams,
      importType: string,
      source: ImportPlan,
      requestId: string,
      check?: () => Promise<void>,
    ): Promise<ProjectImportStatus> {
      const ns = namespaceFor(actor, params.namespace)
      env.limit('project_import', String(actor.id))
      if (check) await check()
      const path = params.path
      if (!PATH.test(path) || path.endsWith('.git') || path.endsWith('.atom'))
        throw messageError(400, PATH_MESSAGE)
      const fullPath = `${ns.full_path}/${path}`
      const taken = store.projects.byPath(fullPath)
      if (taken && !params.overwrite) throw messageError(400, 'Path has already been taken')
      const actualPath = taken ? `${path}-${randomBytes(4).toString('hex')}` : path
      const stamp = now()
      const projectId = store.transaction(() => {
        const id = store.projects.insert({
          namespace_id: ns.id,
          path: actualPath,
          full_path: `${ns.full_path}/${actualPath}`,
          name: params.name || path,
          description: null,
          visibility: 'private',
          archived: 0,
          default_branch: null,
          creator_id: actor.id,
          ci_config: 0,
          ci_jobs: '["build"]',
          ci_outcome: 'success',
          ci_job_duration_ms: 2000,
          created_at: stamp,
          last_activity_at: stamp,
        })
        store.imports.insert({
          project_id: id,
          user_id: actor.id!,
          import_type: importType,
          correlation_id: requestId,
          source: source.kind,
          override_params: JSON.stringify({
            ...(params.override_params ?? {}),
            ...(params.name ? { name: params.name } : {}),
          }),
          overwrite_path: taken ? fullPath : null,
          now: stamp,
        })
        return id
      })
      // The job's modules (undici, tar-stream) load with the first import, not at start-up.
      env.queue.run(() =>
        slots.run(String(actor.id), async () => {
          // Closing while it waited: it stays `scheduled`, and the next start marks it failed.
          if (env.queue.aborted()) return
          await (
            await import('../jobs/import-job.js')
          ).runImport(
            {
              ctx,
              workDir: env.workDir,
              allowLocal: env.allowLocal,
              limits: env.limits,
              maxDownloadBytes: 10 * 1024 * 1024 * 1024,
              transfer: env.transfer,
              aborted: env.queue.aborted,
              stop: env.queue.signal,
              removals: env.removals,
            },
            projectId,
            source,
          )
        }),
      )
      return this.record(actor, store.projects.get(projectId)!.id)
    },

    /** `GET /projects/:id/import`: readable project; the error masked below Maintainer. */
    status(actor: Actor, ref: string): ProjectImportStatus {
      const project = access.project(actor, ref)
      return this.record(actor, project.id)
    },

    record(actor: Actor, projectId: number): ProjectImportStatus {
      const project = store.projects.get(projectId)!
      const row = store.imports.byProject(projectId)
      const failures = row
        ? store.imports.failures(projectId, row.correlation_id, FAILED_RELATIONS_LIMIT)
        : []
      const canReadError = access.atLeast(actor, project, Level.maintainer)
      const settings = settingsOf(store, projectId)
      return {
        ...projectIdentity(ctx, project),
        // A fork has no import of ours but an `import_state` all the same: `finished` once copied,
        // with its fork request's correlation id.
        import_status: row?.status ?? (settings.import_status as ProjectImportStatus['import_status']),
        import_type: row?.import_type ?? null,
        correlation_id: row?.correlation_id ?? settings.import_correlation_id,
        failed_relations: failures.map((f) => ({
          id: f.id,
          created_at: f.created_at,
          exception_class: f.exception_class,
          exception_message: null,
          source: f.source,
          relation_name: f.relation_key,
          line_number: f.relation_index,
        })),
        import_error: row?.error ? (canReadError ? row.error : MASKED_ERROR) : null,
        stats: null,
      }
    },

    /** Removes an uploaded file that a refused request left behind. */
    discard: (file: string | undefined) => (file ? rm(file, { force: true }) : Promise.resolve()),
  }
}
export type ImportService = ReturnType<typeof importService>
