import { rmSync } from 'node:fs'
import { DEFAULT_EXTRACT_LIMITS } from '../archive/extract-limits.js'
import { systemClock, today, type Clock } from '../domain/clock.js'
import { emulatorClock, type EmulatorClock } from '../domain/emulator-clock.js'
import { defaultMaxImportSize, supportedVersion } from '../domain/releases.js'
import { responseCache, type ResponseCache } from '../http/response-cache.js'
import { jobQueue } from '../jobs/export-queue.js'
import { jobSlots } from '../jobs/job-slots.js'
import { pipelineRunner } from '../jobs/pipeline-runner.js'
import { remoteFiles } from '../jobs/remote-files.js'
import { remoteIncludes } from '../jobs/remote-includes.js'
import { DEFAULT_TRANSFER_LIMITS, type TransferLimits } from '../outbound/transfer-guard.js'
import type { Instance } from '../present/context.js'
import { createAccess, type Access } from '../services/access.js'
import { aliasService } from '../services/aliases.js'
import { authentication } from '../services/authentication.js'
import type { ServiceContext } from '../services/context.js'
import { emulatorService } from '../services/emulator.js'
import { snapshotFiles } from '../services/snapshot-files.js'
import { exportService } from '../services/exports.js'
import { groupService } from '../services/groups.js'
import { groupWriteService } from '../services/group-writes.js'
import { healthService } from '../services/health.js'
import { importSources } from '../services/import-sources.js'
import { CONCURRENT_IMPORTS, importService } from '../services/imports.js'
import { relationImportService } from '../services/relation-imports.js'
import type { Services, Transfers } from '../services/index.js'
import { issueService, type IssueService } from '../services/issues/issues.js'
import type { IssueDeps } from '../services/issues/lookup.js'
import { issueMoveService } from '../services/issues/moves.js'
import { issueRelationService } from '../services/issues/relations.js'
import { issueLinkService } from '../services/issues/links.js'
import { awardEmojiService } from '../services/award-emoji.js'
import { discussionService } from '../services/discussions.js'
import { resourceEventService } from '../services/resource-events.js'
import { memberService } from '../services/members/members.js'
import { jobTokens } from '../services/job-tokens.js'
import { metricImageService, type MetricImageService } from '../services/metric-images.js'
import { noteService } from '../services/notes.js'
import { pipelineService } from '../services/pipelines.js'
import { commitStatusService } from '../services/commit-statuses.js'
import { ciLintService } from '../services/ci-lint.js'
import { jobService } from '../services/jobs.js'
import { projectLabelService } from '../services/project-labels.js'
import { projectMilestoneService } from '../services/project-milestones.js'
import { projectService } from '../services/projects.js'
import { projectWriteService } from '../services/project-writes.js'
import { projectForkService } from '../services/project-forks.js'
import { removals, type Removals, type RemovedFiles } from '../services/removals.js'
import { DEFAULT_ISSUES_CREATE_LIMIT, fixedWindowLimiter } from '../services/rate-limits.js'
import { runnerService } from '../services/runners.js'
import { openStartStore, seedStartStore, type SeedFile } from '../services/seed-image.js'
import { timeTrackingService } from '../services/time-tracking.js'
import { todoService } from '../services/todos.js'
import { triggerService } from '../services/triggers.js'
import { jobTokenScopeService } from '../services/job-token-scopes.js'
import { pipelineScheduleService } from '../services/pipeline-schedules.js'
import { environmentService } from '../services/environments.js'
import {
  ciGroupVariableService,
  ciInstanceVariableService,
  ciVariableService,
} from '../services/ci-variables.js'
import { userService } from '../services/users.js'
import { userAdminService } from '../services/user-admin.js'
import { personalAccessTokenService } from '../services/personal-access-tokens.js'
import { impersonationTokenService } from '../services/impersonation-tokens.js'
import { resourceAccessTokenService } from '../services/resource-access-tokens.js'
import { namespaceService } from '../services/namespaces.js'
import { pageReadService } from '../services/page-reads.js'
import { pageSessions } from '../services/page-sessions.js'
import type { Store } from '../store/index.js'
import { sweepAbandoned, workDir, type WorkDir } from '../store/work-dirs.js'
import type { Seed } from '../../schema/seed.js'
import { groupLabelService } from '../services/group-labels.js'
import { groupMilestoneService } from '../services/group-milestones.js'
import { promotionService } from '../services/promotions.js'
import { backgroundWork, type BackgroundWork } from '../services/background-work.js'
import type { JobQueue } from '../jobs/export-queue.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import { hookDelivery, type HookDelivery } from '../jobs/hook-delivery.js'
import { hookEvents, type HookEvents } from '../services/hooks/events.js'
import { hookService } from '../services/hooks/hooks.js'
import {
  withCommitNoteHooks,
  withDeploymentHooks,
  withIssueHooks,
  withNoteHooks,
} from '../services/hooks/observe.js'
import { repositoryService, type RepositoryService } from '../services/repository/repository.js'
import { withPushPipelines } from '../services/push-pipelines.js'
import { withPushHooks } from '../services/hooks/push-events.js'
import { eventService } from '../services/events/events.js'
import {
  withCommitNoteEvents,
  withImportEvents,
  withIssueEvents,
  withMemberEvents,
  withMilestoneEvents,
  withMoveEvents,
  withNoteEvents,
  withProjectEvents,
  withPushEvents,
} from '../services/events/observe.js'
import { eventRecorder, type EventRecorder } from '../services/events/record.js'

/*
 * The composition root of the server's long-lived parts, built once, in order, before any route:
 * the store with its seed, the issue service with its creation limit, the CI pipeline runner
 * (started here, stopped when the server closes) with the services over it, the export and import
 * services with their start-up recovery, and the emulator's reset over all of them. Route modules
 * receive what this builds: they start no job and recover nothing.
 */

/** How the state opens (build-server.ts `ServerOptions` adds the edge's options). */
export interface StateOptions {
  /** `:memory:` (default) or a directory that keeps the store across restarts. */
  data?: string
  /**
   * A validated seed, applied when the store is empty and then remembered in the store, so that a
   * reset returns to it, also after a restart of a `data` directory (see `GitLabServer.seeded`).
   */
  seed?: Seed
  /**
   * The seed file `seed` was read from, for a start that keeps its seeded store as an image
   * (services/seed-image.ts); `seed` is left out where its image was found.
   */
  seedFile?: SeedFile
  /** External URL used in every URL the API hands out; defaults to the listening address. */
  baseUrl?: string
  edition?: 'ce' | 'ee'
  gitlabVersion?: string
  allowLocalRequests?: boolean
  /** Issue creations allowed per project and user per minute (GitLab's `issues_create_limit`, default 300; 0 = off). */
  issuesCreateLimit?: number
  /**
   * The server's time (default: the system clock): timestamps, jobs, the rate limits' one-minute
   * windows and the `Date` header, so that a client can tell from an answer when a window ends.
   */
  clock?: Clock
  /** Start with the clock frozen at this instant (`serve --clock frozen:ISO`); it moves only when told. */
  frozenAt?: Date
  /** Export and import settings: S3 endpoint (hidden `--s3-endpoint`), size and rate limits. */
  transfers?: TransferOptions
}

export const DEFAULT_GITLAB_VERSION = '18.6.0'

/** The server's state: the store, what it was seeded with, and every service over it. */
export interface State {
  store: Store
  instance: Instance
  /** The start-up clock as `/-/emulator/clock` moves it. */
  clock: EmulatorClock
  access: Access
  services: Services
  /** The clock's moves and settle over the pipelines and the export and import jobs (`/-/emulator/settle`). */
  background: BackgroundWork
  /** Serialised list answers, kept until what they were made from changes. */
  cache: ResponseCache
  /** False when `seed` was not applied because the store already held data. */
  seeded: boolean
  /** Stops jobs and timers (in reverse order of start), then closes the store. */
  close(): Promise<void>
}

/**
 * Opens the store, applies the start-up seed to an empty one (and remembers it, so that a reset
 * returns to it, also after a restart of a `data` directory), and builds every service.
 */
export function openState(options: StateOptions): State {
  const clock = emulatorClock(
    options.clock ?? systemClock,
    options.frozenAt && { frozenAt: options.frozenAt },
  )
  const data = options.data ?? ':memory:'
  const { store, seed, fromImage } = openStartStore(data, options.seed, options.seedFile, clock)
  // A `--data` directory keeps the clock's moves across a restart (a reset forgets them).
  clock.keepIn(store.meta.entry('clock'))
  // Memberships whose `expires_at` has come give no access: the day is the server's clock's.
  store.members.useToday(() => today(clock))
  const empty = !fromImage && store.isEmpty()
  if (seed && empty) seedStartStore(store, seed, clock, options.seedFile)
  const instance: Instance = {
    baseUrl: (options.baseUrl ?? 'http://localhost').replace(/\/+$/, ''),
    edition: options.edition ?? 'ee',
    version: options.gitlabVersion ?? DEFAULT_GITLAB_VERSION,
  }
  const access = createAccess(store, clock)
  const ctx: ServiceContext = { store, access, instance, clock }
  const closers: (() => Promise<void> | void)[] = []
  const resetters: (() => (() => void) | void)[] = []
  const rewound: (() => void)[] = []
  // A reset removes what the moved clock stamped, so the clock returns to the start-up one too.
  resetters.push(() => clock.reset)
  const workers: Assembly['workers'] = {}
  // The work dirs' files go into named snapshots with the tables (services/snapshot-files.ts).
  const files = snapshotFiles(data)
  closers.push(files.close)
  const assembly: Assembly = {
    ctx,
    instance,
    settings: { data, allowLocalRequests: options.allowLocalRequests ?? false },
    onClose: (fn) => void closers.push(fn),
    onReset: (fn) => void resetters.push(fn),
    onRewind: (fn) => void rewound.push(fn),
    onSnapshot: files.add,
    workers,
    clockFrozen: () => clock.state().frozen,
  }
  const services = composeServices(assembly, options, emulatorService(ctx, seed, resetters, files, rewound))
  return {
    store,
    instance,
    clock,
    access,
    services,
    background: backgroundWork({
      store,
      clock,
      runner: workers.runner!,
      queue: workers.queue!,
      deliveries: workers.deliveries!,
      schedules: services.pipelineSchedules,
      autoStops: services.environments,
      artifacts: services.jobs,
    }),
    cache: responseCache(store.changes),
    seeded: fromImage || seed === undefined || empty,
    async close() {
      for (const close of closers.reverse()) await close()
      store.close()
    },
  }
}

/** What the composition needs from the server being built. */
interface Assembly {
  ctx: ServiceContext
  instance: Instance
  settings: { data: string; allowLocalRequests: boolean }
  onClose(fn: () => Promise<void> | void): void
  onReset(fn: () => (() => void) | void): void
  /** Runs after a reset or a snapshot restore has put the store back to an earlier state. */
  onRewind(fn: () => void): void
  /** A work dir whose files named snapshots keep, under `key`. */
  onSnapshot(key: string, dir: WorkDir): void
  /** True while the emulator's clock stands still. */
  clockFrozen(): boolean
  /** The background workers, set as they are built, for the emulator's settle. */
  workers: { runner?: PipelineRunner; queue?: JobQueue; deliveries?: HookDelivery }
}

function composeServices(
  api: Assembly,
  options: { issuesCreateLimit?: number; transfers?: TransferOptions },
  emulator: Services['emulator'],
): Services {
  const createLimit = fixedWindowLimiter(
    api.ctx.clock,
    options.issuesCreateLimit ?? DEFAULT_ISSUES_CREATE_LIMIT,
  )
  api.onReset(() => createLimit.clear)
  const delivery = hookDelivery(api.ctx.store, api.ctx.clock, api.instance, api.settings.allowLocalRequests)
  api.onClose(delivery.close)
  api.onReset(() => delivery.reset())
  api.workers.deliveries = delivery
  const events = hookEvents(api.ctx, delivery)
  // What the Events API lists, recorded as each write returns (services/events/observe.ts).
  const recorder = eventRecorder(api.ctx)
  const issues = withIssueEvents(
    api.ctx,
    withIssueHooks(
      issueService(api.ctx, {
        beforeCreate: (actor, project) => createLimit(`${project.id}:${actor.id}`),
      }),
      events,
    ),
    recorder,
  )
  // A malformed or unsupported `gitlabVersion` fails here, not as a 500 of the first runner call.
  supportedVersion(api.instance.version)
  const metricImages =
    api.instance.edition === 'ee' ? metricImageServices(api, { ctx: api.ctx, issues }) : undefined
  const projects = projectService(api.ctx)
  const removedFiles = {
    onRemoved: (files: RemovedFiles) => {
      for (const file of files.exports) rmSync(file, { force: true })
      metricImages?.discardFiles(files.metricImages)
    },
  }
  const projectWrites = withProjectEvents(
    api.ctx,
    projectWriteService(api.ctx, projects, removedFiles),
    recorder,
  )
  return {
    emulator,
    ...issueServices(api.ctx, issues, events, recorder),
    metricImages,
    projects,
    projectWrites,
    projectForks: projectForkService(api.ctx, projects, projectWrites),
    projectLabels: projectLabelService(api.ctx),
    projectMilestones: withMilestoneEvents(api.ctx, projectMilestoneService(api.ctx), recorder),
    groups: groupService(api.ctx),
    groupWrites: groupWriteService(api.ctx, removedFiles),
    users: userService(api.ctx),
    userAdmin: userAdminService(api.ctx),
    personalAccessTokens: personalAccessTokenService(api.ctx),
    impersonationTokens: impersonationTokenService(api.ctx),
    resourceAccessTokens: resourceAccessTokenService(api.ctx),
    namespaces: namespaceService(api.ctx),
    aliases: aliasService(api.ctx.store),
    runners: runnerService(api.ctx, (p) => projects.record(p)),
    jobTokenScopes: jobTokenScopeService(api.ctx, (p) => projects.record(p)),
    environments: withDeploymentHooks(
      // The runner is built with the CI services below; stop actions are played after start-up.
      environmentService(
        api.ctx,
        (p) => projects.record(p),
        () => api.workers.runner!,
      ),
      events,
    ),
    health: healthService(api.ctx.store),
    members: withMemberEvents(api.ctx, memberService(api.ctx), recorder),
    ...ciServices(api, events),
    transfers: transferServices(api, removals(api.ctx, removedFiles), recorder, options.transfers),
    groupLabels: groupLabelService(api.ctx),
    groupMilestones: groupMilestoneService(api.ctx),
    promotions: promotionService(api.ctx),
    pageReads: pageReadService(api.ctx),
    hooks: hookService(api.ctx, delivery, events, api.settings.allowLocalRequests),
    repository: observedRepository(api, delivery, events, recorder),
  }
}

/**
 * The repository service with what its writes set off, innermost first: a push's pipelines, its
 * webhooks and event; a commit comment's webhook and event.
 */
function observedRepository(
  api: Assembly,
  delivery: HookDelivery,
  events: HookEvents,
  recorder: EventRecorder,
): RepositoryService {
  let repository = repositoryService(api.ctx)
  const remote = remoteIncludes(api.settings.allowLocalRequests)
  repository = withPushPipelines(repository, api.ctx, api.workers.runner, remote)
  repository = withPushHooks(repository, api.ctx, delivery)
  repository = withPushEvents(repository, recorder)
  repository = withCommitNoteHooks(repository, events)
  return withCommitNoteEvents(repository, recorder)
}

/** The issue service and those of an issue's sub-resources, which work through it. */
function issueServices(
  ctx: ServiceContext,
  issues: IssueService,
  events: HookEvents,
  recorder: EventRecorder,
) {
  const deps: IssueDeps = { ctx, issues }
  const notes = withNoteEvents(ctx, withNoteHooks(noteService(deps), events), recorder)
  return {
    issues,
    issueMoves: withMoveEvents(ctx, issueMoveService(deps), recorder),
    issueRelations: issueRelationService(deps),
    todos: todoService(deps),
    notes,
    timeTracking: timeTrackingService(deps),
    issueLinks: issueLinkService(deps),
    awardEmoji: awardEmojiService(deps),
    discussions: discussionService(deps, notes),
    resourceEvents: resourceEventService(deps),
    events: eventService(deps),
  }
}

/**
 * Incident metric images (EE). Files live under `<data>/uploads/metric_images`, or a temporary
 * folder for `:memory:` that is removed when the server closes; a reset empties the folder.
 */
function metricImageServices(api: Assembly, deps: IssueDeps): MetricImageService {
  const uploads = workDir(api.settings.data, ['uploads', 'metric_images'], 'uploads')
  api.onClose(uploads.removeIfTemporary)
  api.onReset(() => uploads.empty)
  api.onSnapshot('metric_images', uploads)
  return metricImageService(deps, uploads, api.settings.allowLocalRequests)
}

/**
 * The CI services and authentication, which resolves job tokens through the pipeline runner
 * (started here, stopped when the server closes).
 */
function ciServices(api: Assembly, events: HookEvents) {
  const { ctx } = api
  const runner = pipelineRunner(ctx.store, ctx.clock, api.clockFrozen, events)
  api.workers.runner = runner
  api.onClose(runner.start())
  // A state brought back may hold bridges that waited for their child's remote includes.
  api.onRewind(runner.askWaitingBridges)
  const fetchRemote = remoteIncludes(api.settings.allowLocalRequests)
  const pipelines = pipelineService(ctx, runner, fetchRemote)
  const auth = authentication(ctx.store, ctx.clock, jobTokens(ctx.store, runner, ctx.instance.version))
  return {
    authentication: auth,
    pageSessions: pageSessions(ctx.store, ctx.clock, auth),
    pipelines,
    triggers: triggerService(ctx, runner, pipelines),
    pipelineSchedules: pipelineScheduleService(ctx, pipelines),
    ciVariables: ciVariableService(ctx),
    ciGroupVariables: ciGroupVariableService(ctx),
    ciInstanceVariables: ciInstanceVariableService(ctx),
    jobs: jobService(ctx, runner, pipelines),
    commitStatuses: commitStatusService(ctx, runner, pipelines),
    ciLint: ciLintService(ctx, fetchRemote),
  }
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
 * The services of project export and import, and the multipart settings of their uploads. Files
 * live in `<data>/transfers` with a persistent store, else in a temporary folder removed at close;
 * jobs still running at close are told to stop and awaited. A restart marks exports and imports
 * that were under way as failed.
 */
function transferServices(
  api: Assembly,
  removed: Removals,
  recorder: EventRecorder,
  options: TransferOptions = {},
): Transfers {
  const { store } = api.ctx
  const work = workDir(api.settings.data, ['transfers'], 'transfers')
  const now = api.ctx.clock.now().toISOString()
  for (const row of store.exports.unfinished()) store.exports.setStatus(row.id, 'failed', 'interrupted', now)
  for (const row of store.imports.unfinished())
    store.imports.setStatus(row.project_id, 'failed', 'Import interrupted: the server stopped', now)
  for (const id of store.relationImports.unfinished()) store.relationImports.setStatus(id, 'failed', now)
  if (!work.temporary) sweepAbandoned(work.dir, store.exports.files())
  api.onSnapshot('transfers', work)

  // The archives of finished exports go with their rows; jobs under way remove their own files.
  api.onReset(() => {
    const files = store.exports.files()
    return () => {
      for (const file of files) rmSync(file, { force: true })
    }
  })

  const queue = jobQueue()
  api.workers.queue = queue
  const limits = options.rateLimits ?? {}
  const limiters = {
    project_export: fixedWindowLimiter(api.ctx.clock, limits.project_export ?? 6),
    project_download_export: fixedWindowLimiter(api.ctx.clock, limits.project_download_export ?? 1),
    project_import: fixedWindowLimiter(api.ctx.clock, limits.project_import ?? 6),
  }
  api.onReset(() => () => Object.values(limiters).forEach((limiter) => limiter.clear()))
  const env = {
    workDir: work.dir,
    allowLocal: api.settings.allowLocalRequests,
    queue,
    transfer: { ...DEFAULT_TRANSFER_LIMITS, ...options.transferLimits },
    limit: (name: keyof typeof limiters, key: string) => limiters[name](key),
  }
  const maxImportSize = options.maxImportSize ?? defaultMaxImportSize(api.instance.version)
  const exports = exportService(api.ctx, env)
  const extractLimits = {
    ...DEFAULT_EXTRACT_LIMITS,
    ...(options.maxDecompressedArchiveSize !== undefined
      ? { maxDecompressedBytes: options.maxDecompressedArchiveSize }
      : {}),
  }
  const slots = jobSlots(CONCURRENT_IMPORTS)
  const imports = withImportEvents(
    importService(api.ctx, {
      ...env,
      removals: removed,
      limits: extractLimits,
      s3Endpoint: options.s3Endpoint,
      slots,
    }),
    recorder,
  )
  const relationImports = relationImportService(api.ctx, { ...env, limits: extractLimits, slots })
  api.onClose(async () => {
    await queue.close()
    work.removeIfTemporary()
  })
  const sources = importSources(remoteFiles, {
    allowLocal: api.settings.allowLocalRequests,
    s3Endpoint: options.s3Endpoint,
  })
  return { exports, imports, uploadDir: work.dir, sources, maxImportSize, relationImports }
}
