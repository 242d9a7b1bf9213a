import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import { RAW_MULTIPART_FIELDS } from './malformed-strings.js'
import { DEFAULT_EXTRACT_LIMITS } from './archive/extract-limits.js'
import { jobQueue } from './jobs/export-queue.js'
import { jobSlots } from './jobs/job-slots.js'
import { s3ObjectUrl, signV4 } from './jobs/import-s3.js'
import { pipelineRunner } from './jobs/pipeline-runner.js'
import type { Instance } from './present/context.js'
import type { Route, RouteTable } from './routes/define.js'
import { defaultMaxImportSize, supportedVersion } from './releases.js'
import { systemClock, type ServiceContext } from './services/context.js'
import { aliasService, type AliasService } from './services/aliases.js'
import { exportService, type ExportService } from './services/exports.js'
import { groupService, type GroupService } from './services/groups.js'
import { healthService, type HealthService } from './services/health.js'
import { importSources, type ImportSources, type RemoteFiles } from './services/import-sources.js'
import { CONCURRENT_IMPORTS, importService, type ImportService } from './services/imports.js'
import type { IssueDeps } from './services/issue-lookup.js'
import { issueMoveService, type IssueMoveService } from './services/issue-moves.js'
import { issueRelationService, type IssueRelationService } from './services/issue-relations.js'
import { issueService, type IssueService } from './services/issues.js'
import { jobTokenAuth } from './services/job-tokens.js'
import {
  METRIC_IMAGE_MAX_BYTES,
  metricImageService,
  type MetricImageService,
} from './services/metric-images.js'
import { noteService, type NoteService } from './services/notes.js'
import { pipelineService, type PipelineService } from './services/pipelines.js'
import { projectLabelService, type ProjectLabelService } from './services/project-labels.js'
import { projectMilestoneService, type ProjectMilestoneService } from './services/project-milestones.js'
import { projectService, type ProjectService } from './services/projects.js'
import { DEFAULT_ISSUES_CREATE_LIMIT, fixedWindowLimiter } from './services/rate-limits.js'
import { runnerService, type RunnerService } from './services/runners.js'
import { timeTrackingService, type TimeTrackingService } from './services/time-tracking.js'
import { todoService, type TodoService } from './services/todos.js'
import { userService, type UserService } from './services/users.js'
import { DEFAULT_TRANSFER_LIMITS, type TransferLimits } from './outbound/transfer-guard.js'
import { triggerService, type TriggerService } from './services/triggers.js'
import { privateDir } from './store/private-files.js'

/*
 * The composition root of the server's long-lived parts, built once, in order, before any route:
 * the issue service with its creation limit, the CI pipeline runner (started here, stopped when the
 * server closes) with the services over it, and the export and import services with their start-up
 * recovery. Route modules receive what this builds: they start no job and recover nothing.
 */

/** What the composition needs from the server being built. */
export interface Assembly {
  app: FastifyInstance
  ctx: ServiceContext
  instance: Instance
  settings: { data: string; allowLocalRequests: boolean }
  onClose(fn: () => Promise<void> | void): void
  onReset(fn: () => (() => void) | void): void
}

/** Every service of the server; route modules reach the store only through these. */
export interface Services {
  issues: IssueService
  issueMoves: IssueMoveService
  issueRelations: IssueRelationService
  todos: TodoService
  notes: NoteService
  timeTracking: TimeTrackingService
  /** EE only: undefined on `ce`, where the routes do not exist. */
  metricImages?: MetricImageService
  projects: ProjectService
  projectLabels: ProjectLabelService
  projectMilestones: ProjectMilestoneService
  groups: GroupService
  users: UserService
  aliases: AliasService
  runners: RunnerService
  health: HealthService
  pipelines: PipelineService
  triggers: TriggerService
  transfers: Transfers
}

export function composeServices(
  api: Assembly,
  options: { issuesCreateLimit?: number; transfers?: TransferOptions },
): Services {
  const createLimit = fixedWindowLimiter(
    api.ctx.clock,
    options.issuesCreateLimit ?? DEFAULT_ISSUES_CREATE_LIMIT,
  )
  const issues = issueService(api.ctx, {
    beforeCreate: (actor, project) => createLimit(`${project.id}:${actor.id}`),
  })
  // A malformed or unsupported `gitlabVersion` fails here, not as a 500 of the first runner call.
  supportedVersion(api.instance.version)
  return {
    ...issueServices(api.ctx, issues),
    metricImages:
      api.instance.edition === 'ee' ? metricImageServices(api, { ctx: api.ctx, issues }) : undefined,
    projects: projectService(api.ctx),
    projectLabels: projectLabelService(api.ctx),
    projectMilestones: projectMilestoneService(api.ctx),
    groups: groupService(api.ctx),
    users: userService(api.ctx),
    aliases: aliasService(api.ctx.store),
    runners: runnerService(api.ctx),
    health: healthService(api.ctx.store),
    ...ciServices(api),
    transfers: transferServices(api, options.transfers),
  }
}

/** The issue service and those of an issue's sub-resources, which work through it. */
function issueServices(ctx: ServiceContext, issues: IssueService) {
  const deps: IssueDeps = { ctx, issues }
  return {
    issues,
    issueMoves: issueMoveService(deps),
    issueRelations: issueRelationService(deps),
    todos: todoService(deps),
    notes: noteService(deps),
    timeTracking: timeTrackingService(deps),
  }
}

/**
 * Incident metric images (EE). Files live under `<data>/uploads/metric_images`, or a temporary
 * folder for `:memory:` that is removed when the server closes; a reset empties the folder.
 */
function metricImageServices(api: Assembly, deps: IssueDeps): MetricImageService {
  const { data } = api.settings
  const memory = data === ':memory:'
  const dir = memory
    ? mkdtempSync(join(tmpdir(), 'gitlab-actions-uploads-'))
    : join(data, 'uploads', 'metric_images')
  if (!memory) privateDir(join(data, 'uploads'))
  privateDir(dir)
  if (memory) api.onClose(() => rmSync(dir, { recursive: true, force: true }))
  api.onReset(() => () => {
    rmSync(dir, { recursive: true, force: true })
    privateDir(dir)
  })
  return metricImageService(deps, dir, api.settings.allowLocalRequests)
}

/**
 * The CI services: starts the pipeline runner (stopped when the server closes) and installs
 * `JOB-TOKEN` authentication for the routes that take it (the jobs list).
 */
function ciServices(api: Assembly): { pipelines: PipelineService; triggers: TriggerService } {
  const { ctx } = api
  const runner = pipelineRunner(ctx.store, ctx.clock)
  api.onClose(runner.start())
  const pipelines = pipelineService(ctx, runner)
  const jobTokens = jobTokenAuth(ctx.store, runner)
  jobTokens.allow('GET', '/api/v4/projects/:id/pipelines/:pipeline_id/jobs')
  api.app.decorate('jobTokenAuth', jobTokens)
  return { pipelines, triggers: triggerService(ctx, runner, pipelines) }
}

/** Start-up settings of exports and imports (ServerOptions.transfers); all optional. */
export interface TransferOptions {
  /** S3-compatible endpoint for `remote-import-s3` (path-style `<endpoint>/<bucket>/<key>`); hidden `--s3-endpoint`. */
  s3Endpoint?: string
  /** Bytes an archive may decompress to (GitLab's `max_decompressed_archive_size`, default 25 GiB; 0 = none). */
  maxDecompressedArchiveSize?: number
  /** Bytes an uploaded archive may have (`max_import_size`; default per release: 50 MB before 13.8, then 0 = none). */
  maxImportSize?: number
  /** Requests per minute (GitLab's defaults: export 6, download 1, import 6; 0 turns a limit off). */
  rateLimits?: { project_export?: number; project_download_export?: number; project_import?: number }
  /**
   * Bounds on downloads (remote and S3 imports) and export uploads: `deadlineMs` in all (default 4 h),
   * at least `minBytes` every `windowMs` (default 10 KiB per 30 s); 0 turns either off.
   */
  transferLimits?: Partial<TransferLimits>
}

/**
 * Removes what jobs of an earlier run left when the process died (a crash, SIGKILL): `.part`
 * uploads, import folders and downloads, export archives no record points to. Every job under
 * way then was just marked failed, so nothing here is still in use.
 */
function sweepAbandoned(workDir: string, kept: string[]) {
  const keep = new Set(kept.map((file) => basename(file)))
  for (const name of readdirSync(workDir))
    if (!keep.has(name)) rmSync(join(workDir, name), { recursive: true, force: true })
}

/** The HEAD checks of remote imports, with undici: loaded on the first remote import, not at start-up. */
const remoteFile = () => import('./jobs/import-remote.js')

/** The import jobs' HTTP helpers, as the source checks of services/import-sources.ts use them. */
const remoteFiles: RemoteFiles = {
  head: async (url, headers, allowLocal) => (await remoteFile()).headOf(url, headers, allowLocal),
  async refusal(headers) {
    const { validateRemoteFile, RemoteFileError } = await remoteFile()
    try {
      validateRemoteFile(headers)
    } catch (err) {
      if (err instanceof RemoteFileError) return err.message
      throw err
    }
    return undefined
  },
  s3Url: s3ObjectUrl,
  // The wall clock, not the server's: S3 checks a signature's time against its own.
  signHead: (url, source) => signV4({ method: 'HEAD', url, ...source, now: systemClock.now() }),
}

/** What the export and import routes share: their services, where uploads go, the S3 endpoint. */
export interface Transfers {
  exports: ExportService
  imports: ImportService
  uploadDir: string
  /** The sources of remote and S3 imports, checked before an import is created. */
  sources: ImportSources
  /** Bytes an uploaded archive may have; 0 = no limit. */
  maxImportSize: number
}

/**
 * The services of project export and import, and the multipart settings of their uploads. Files
 * live in `<data>/transfers` with a persistent store, else in a temporary folder removed at close;
 * jobs still running at close are told to stop and awaited. A restart marks exports and imports
 * that were under way as failed.
 */
function transferServices(api: Assembly, options: TransferOptions = {}): Transfers {
  const { store } = api.ctx
  const memory = api.settings.data === ':memory:'
  const workDir = memory
    ? mkdtempSync(join(tmpdir(), 'gitlab-actions-transfers-'))
    : join(api.settings.data, 'transfers')
  privateDir(workDir)
  const now = api.ctx.clock.now().toISOString()
  for (const row of store.exports.unfinished()) store.exports.setStatus(row.id, 'failed', 'interrupted', now)
  for (const row of store.imports.unfinished())
    store.imports.setStatus(row.project_id, 'failed', 'Import interrupted: the server stopped', now)
  if (!memory) sweepAbandoned(workDir, store.exports.files())

  // The archives of finished exports go with their rows; jobs under way remove their own files.
  api.onReset(() => {
    const files = store.exports.files()
    return () => {
      for (const file of files) rmSync(file, { force: true })
    }
  })

  const queue = jobQueue()
  const limits = options.rateLimits ?? {}
  const limiters = {
    project_export: fixedWindowLimiter(api.ctx.clock, limits.project_export ?? 6),
    project_download_export: fixedWindowLimiter(api.ctx.clock, limits.project_download_export ?? 1),
    project_import: fixedWindowLimiter(api.ctx.clock, limits.project_import ?? 6),
  }
  const env = {
    workDir,
    allowLocal: api.settings.allowLocalRequests,
    queue,
    transfer: { ...DEFAULT_TRANSFER_LIMITS, ...options.transferLimits },
    limit: (name: keyof typeof limiters, key: string) => limiters[name](key),
  }
  const maxImportSize = options.maxImportSize ?? defaultMaxImportSize(api.instance.version)
  const exports = exportService(api.ctx, env)
  const imports = importService(api.ctx, {
    ...env,
    limits: {
      ...DEFAULT_EXTRACT_LIMITS,
      ...(options.maxDecompressedArchiveSize !== undefined
        ? { maxDecompressedBytes: options.maxDecompressedArchiveSize }
        : {}),
    },
    s3Endpoint: options.s3Endpoint,
    slots: jobSlots(CONCURRENT_IMPORTS),
  })
  api.onClose(async () => {
    await queue.close()
    if (memory) rmSync(workDir, { recursive: true, force: true })
  })
  const sources = importSources(remoteFiles, {
    allowLocal: api.settings.allowLocalRequests,
    s3Endpoint: options.s3Endpoint,
  })
  return { exports, imports, uploadDir: workDir, sources, maxImportSize }
}

/** Route tables served under a body parser of their own (see `registerBodyParsers`). */
export interface ScopedRoutes {
  /** Under the metric images' multipart limits: 1 MiB files, an oversized one truncated, not 413. */
  metricImageUploads(route: Route): void
  /** With form-encoded bodies kept as text (the emulator's seed route reads YAML sent as a form). */
  textForms(scope: FastifyInstance): void
}

/**
 * The body parsers, in the order they must register: a scope inherits the parsers its parent has
 * when the scope is made, so the metric images' own multipart scope comes before the root's
 * multipart parser (uploaded archives and multipart forms everywhere else), and the text-form scope
 * after it. Registrations run when the server starts, after every route of the flat tables.
 */
export function registerBodyParsers(
  api: { app: FastifyInstance; route: RouteTable; services: Services },
  scoped: ScopedRoutes,
): void {
  const { app } = api
  if (api.services.metricImages)
    void app.register(async (scope: FastifyInstance) => {
      await scope.register(multipart, {
        ...RAW_MULTIPART_FIELDS,
        throwFileSizeLimit: false,
        limits: { fileSize: METRIC_IMAGE_MAX_BYTES },
      })
      scoped.metricImageUploads(api.route.within(scope))
    })
  const { maxImportSize } = api.services.transfers
  void app.register(multipart, {
    ...RAW_MULTIPART_FIELDS,
    limits: {
      files: 10,
      fields: 100,
      fieldSize: 1024 * 1024,
      fileSize: maxImportSize > 0 ? maxImportSize : Infinity,
    },
  })
  void app.register(async (scope: FastifyInstance) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded')
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, body),
    )
    scoped.textForms(scope)
  })
}
