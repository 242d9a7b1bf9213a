import { rm } from 'node:fs/promises'
import type { ExportStatusValue, ProjectExportParams, ProjectExportStatus } from '../../schema/index.js'
import { messageError, validationError } from '../grape/gitlab-errors.js'
import type { JobQueue } from '../jobs/export-queue.js'
import type { ExportRow } from '../store/exports.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { namespaceNames } from './groups.js'
import { BlockedUrlError, checkUrl } from '../outbound/outbound-url.js'
import type { TransferLimits } from '../outbound/transfer-guard.js'

export interface TransferEnv {
  workDir: string
  allowLocal: boolean
  queue: JobQueue
  /** Deadline and minimum rate of downloads and uploads. */
  transfer: TransferLimits
  /** Called before a counted request (GitLab's rate limits); throws 429. */
  limit: (name: 'project_export' | 'project_download_export' | 'project_import', key: string) => void
}

/**
 * `Project#export_status(user)` (`app/models/project.rb`), from the job's status and whether its file
 * exists: regeneration_in_progress, queued, started, finished, failed, none, in that order.
 */
export function exportStatus(row: ExportRow | undefined): ExportStatusValue {
  if (!row) return 'none'
  const running = row.status === 'queued' || row.status === 'started'
  if (running && row.file) return 'regeneration_in_progress'
  if (running) return row.status
  if (row.file) return 'finished'
  return row.status === 'failed' ? 'failed' : 'none'
}

/**
 * `ProjectIdentity` (`lib/api/entities/project_identity.rb`): `name_with_namespace` joins the ancestors'
 * names with ` / `.
 */
export function projectIdentity(ctx: ServiceContext, p: ProjectRow) {
  const names = namespaceNames(ctx.store, p.namespace_id)
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: [...names, p.name].join(' / '),
    path: p.path,
    path_with_namespace: p.full_path,
    created_at: p.created_at,
  }
}

/**
 * Project export (`lib/api/project_export.rb`): Maintainer+ on every route (`authorize_admin_project`,
 * 403 below it; 404 when the project is hidden), per-user exports run by the job queue.
 */
export function exportService(ctx: ServiceContext, env: TransferEnv) {
  const { access, store } = ctx
  const admin = (actor: Actor, ref: string) => {
    const project = access.project(actor, ref)
    if (!access.atLeast(actor, project, Level.maintainer)) throw messageError(403, '403 Forbidden')
    return project
  }
  return {
    /** `GET /projects/:id/export`: the caller's export status, `_links` only when finished. */
    status(actor: Actor, ref: string): ProjectExportStatus {
      const project = admin(actor, ref)
      const status = exportStatus(store.exports.byUser(project.id, actor.id!))
      const base = ctx.instance.baseUrl
      return {
        ...projectIdentity(ctx, project),
        export_status: status,
        ...(status === 'finished'
          ? {
              _links: {
                api_url: `${base}/api/v4/projects/${project.id}/export/download`,
                web_url: `${base}/${project.full_path}/download_export`,
              },
            }
          : {}),
      }
    },

    /**
     * `POST /projects/:id/export`: rate limit, the upload URL checked (`http`/`https`, no local
     * address unless allowed: 400 `{"message":{"url":["is blocked: ..."]}}`), the caller's previous
     * export removed (as GitLab's API does first), then queued.
     */
    schedule(actor: Actor, ref: string, params: ProjectExportParams): void {
      const project = admin(actor, ref)
      env.limit('project_export', String(actor.id))
      // An upload strategy only when `upload[url]` is present (Ruby's `present?`: not blank).
      const url = params.upload?.url?.trim() ? params.upload.url : undefined
      if (url) {
        try {
          checkUrl(url, ['http', 'https'], env.allowLocal)
        } catch (err) {
          if (err instanceof BlockedUrlError) throw validationError({ url: [`is blocked: ${err.message}`] })
          throw err
        }
      }
      const previous = store.exports.byUser(project.id, actor.id!)
      if (previous?.status === 'queued' || previous?.status === 'started') {
        // GitLab enqueues a second job that finds the first one's lock; ours simply keeps the first.
        return
      }
      if (previous?.file) void rm(previous.file, { force: true })
      const id = store.transaction(() => {
        if (previous?.file) store.exports.setFile(previous.id, null, null, ctx.clock.now().toISOString())
        return store.exports.queue({
          project_id: project.id,
          user_id: actor.id!,
          description: params.description ?? null,
          upload_url: url ?? null,
          upload_method: url ? (params.upload?.http_method ?? 'PUT') : null,
          now: ctx.clock.now().toISOString(),
        })
      })
      // The job's modules (undici, tar-stream) load with the first export, not at start-up.
      env.queue.run(async () =>
        (await import('../jobs/export-job.js')).runExport(
          {
            ctx,
            workDir: env.workDir,
            allowLocal: env.allowLocal,
            transfer: env.transfer,
            aborted: env.queue.aborted,
            stop: env.queue.signal,
          },
          id,
        ),
      )
    },

    /**
     * `GET /projects/:id/export/download`: the file and GitLab's name for it. 404 `Not found or has
     * expired` without an export, 404 `The project export file is not available yet` while one is
     * being made.
     */
    download(actor: Actor, ref: string): { file: string; name: string } {
      const project = admin(actor, ref)
      env.limit('project_download_export', `${actor.id}:${project.id}`)
      const row = store.exports.byUser(project.id, actor.id!)
      if (row?.file && row.file_name) return { file: row.file, name: row.file_name }
      if (row && (row.status === 'queued' || row.status === 'started'))
        throw messageError(404, 'The project export file is not available yet')
      throw messageError(404, '404 Not found or has expired')
    },
  }
}
export type ExportService = ReturnType<typeof exportService>
