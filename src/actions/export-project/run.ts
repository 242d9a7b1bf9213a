import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { collect, GitLabApiError, type GitLabClient, statusText } from '../../api/client.js'
import { exportTimeOf, type SavedArchive } from '../../api/project-exports.js'
import { waitOutRateLimits } from '../../api/poll.js'
import { defaultSleep } from '../../api/retry.js'
import { actionClient, formatBytes, formatDuration, projectRef } from '../connection.js'
import type { ActionIO } from '../io.js'
import { mapBounded, pacer } from '../pacer.js'
import { oneLine, pathInside, safeFileName, shaped } from '../server-text.js'
import { Outputs, readInputs, type Settings } from './inputs.js'
import type { ExportResult } from './result.js'
import { renderSummary } from './summary.js'
import { checkUpload } from './upload-check.js'
import type { EncryptedArchive } from './encrypted-download.js'
import { buildManifest, keepEarlierArchives, writeManifest } from './manifest.js'
import { type Candidate, cutoffOf, readLastRun, skipReason, writeLastRun } from './selection.js'

export type Log = Pick<ActionIO, 'info' | 'warning' | 'debug'>
export interface Clock {
  now?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** The archive's file name: the project path (server text when it came from a group) made safe everywhere. */
export const fileNameOf = (project: string) => `${safeFileName(project, 180)}_export.tar.gz`

/**
 * A 429 still holding at 'timeout': which limit (the download is the one GET that GitLab limits
 * here, scheduling the POST) and what would help. Lowering a per-minute input helps only when it
 * paces; at 0 the advice is to turn pacing on.
 */
function rateLimitAdvice(err: GitLabApiError, s: Settings): string {
  const download = err.method === 'GET'
  const [what, input, perMinute] = download
    ? (['export download', 'downloads-per-minute', s.downloadsPerMinute] as const)
    : (['export', 'exports-per-minute', s.exportsPerMinute] as const)
  const pacing =
    perMinute > 0 ? `lower '${input}' (${perMinute})` : `set '${input}' to pace them (0: no pacing)`
  return `GitLab's ${what} limit (429) would still hold at 'timeout': raise 'timeout', or ${pacing}`
}

function explain(err: unknown, project: string, s: Settings): string {
  if (err instanceof GitLabApiError) {
    if (err.status === 404) return `project '${project}' not found, or the token cannot see it (404)`
    if (err.status === 403) return `the token may not export '${project}': exports need Maintainer (403)`
    if (err.status === 401) return `GitLab refused the token (${statusText(err)})`
    if (err.status === 429) return rateLimitAdvice(err, s)
    return err.message
  }
  return err instanceof Error ? err.message : String(err)
}

/**
 * A project to export: as given (`project`, an id or a path) or as a group listed it (with its id
 * and `last_activity_at`, which a given project gets from `GET /projects/:id` before its export).
 */
export interface Target extends Candidate {
  project: string
  id?: number | undefined
}

/**
 * The projects to export: the list given, or the group's (paths, sorted). A group's path that is not
 * a GitLab path (a hostile server's `$(...)` or `##[`) is left out with a warning: the paths become the
 * `matrix` output, which workflows expand.
 */
export async function resolveProjects(gitlab: GitLabClient, s: Settings, log: Log): Promise<Target[]> {
  if (!s.group) return (s.project ?? []).map((project) => ({ project, path: project }))
  try {
    const found = await collect(
      gitlab.groups.projects(projectRef(s.group), {
        include_subgroups: s.includeSubgroups,
        ...(s.includeArchived ? {} : { archived: false }),
        order_by: 'path',
        sort: 'asc',
      }),
    )
    const targets: Target[] = []
    for (const { path_with_namespace: path, id, last_activity_at } of found)
      if (shaped(path, 'path') !== undefined) targets.push({ project: path, path, id, last_activity_at })
      else log.warning(`Group '${s.group}' lists a project path that is not a GitLab path; left out: ${path}`)
    return targets.sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0))
  } catch (err) {
    if (err instanceof GitLabApiError && err.status === 404)
      throw new Error(`Group '${s.group}' not found on ${s.gitlabUrl}, or the token cannot see it (404)`)
    throw err
  }
}

/**
 * Exports every project (at most `concurrency` at once, paced per minute), waits for each with the
 * freshness guard, then downloads (streamed, hashed, verified) or lets GitLab upload. Never throws
 * for one project's failure: it is reported in its result.
 */
export async function exportProjects(s: Settings, log: Log, signal?: AbortSignal, clock: Clock = {}) {
  const now = clock.now ?? Date.now
  const sleep = clock.sleep ?? defaultSleep
  const gitlab = actionClient(s.gitlabUrl, s.token, 'export-project', { retry: { sleep } })
  const scheduleSlot = pacer(s.exportsPerMinute, now, sleep)
  const downloadSlot = pacer(s.downloadsPerMinute, now, sleep)
  const dir = resolve(s.downloadDir)
  const exclude = s.exclude ?? []
  try {
    const targets = await resolveProjects(gitlab, s, log)
    const last = s.skipUnchangedSince === 'last-run' ? await readLastRun(dir) : undefined
    const { cutoff, note } = cutoffOf(s.skipUnchangedSince, last, s.gitlabUrl)
    if (note) log.info(note)
    // What is known before any export: a group's paths and activity, a given project's text.
    const known = targets.map((target) => ({ target, skip: skipReason(target, exclude, cutoff) }))
    const projects = known.filter((k) => !k.skip).map((k) => k.target.project)
    if (s.listOnly || targets.length === 0)
      return { projects, results: [] as ExportResult[], gitlabVersion: null }
    if (!s.uploadUrl) await mkdir(dir, { recursive: true })
    const gitlabVersion = await gitlab
      .version({ signal })
      .then((v) => v.version)
      .catch((err: unknown) => {
        log.warning(`Could not read GitLab's version for the manifest: ${explain(err, '', s)}`)
        return null
      })
    log.info(`Exporting ${projects.length} project(s) from ${s.gitlabUrl}, ${s.concurrency} at a time`)
    const skipped = (target: Target, reason: string): ExportResult => {
      log.info(`${target.project}: skipped, ${reason}`)
      return {
        project: target.project,
        status: 'skipped',
        id: target.id,
        lastActivityAt: target.last_activity_at,
        elapsedMs: 0,
        reason,
      }
    }

    const one = async (target: Target): Promise<ExportResult> => {
      const { project } = target
      const start = now()
      const stamp = () => `[${formatDuration(now() - start)}] ${project}:`
      const ref = projectRef(project)
      if (target.id === undefined) {
        // A project given by id or path: its full path and activity, for 'exclude', the date and the manifest.
        const found = await gitlab.projects.get(ref, { signal })
        Object.assign(target, {
          id: found.id,
          path: found.path_with_namespace,
          last_activity_at: found.last_activity_at,
        })
        const skip = skipReason(target, exclude, cutoff)
        if (skip) return skipped(target, skip.reason)
      }
      const about = { id: target.id, lastActivityAt: target.last_activity_at }
      const deadline = start + s.timeout
      /** A 429 on scheduling or downloading is waited out (GitLab counts per minute) until 'timeout'. */
      const limit = (what: string) => ({
        deadline,
        signal,
        sleep,
        now,
        onWait: (ms: number) =>
          log.info(`${stamp()} waiting ${Math.ceil(ms / 1000)} s for GitLab's ${what} limit (429)`),
      })
      const before = (await gitlab.projectExports.status(ref, { signal })).export_status
      const waited = await scheduleSlot(signal)
      if (waited > 0) log.info(`${stamp()} waited ${formatDuration(waited)} for an export slot (rate limit)`)
      const upload = s.uploadUrl ? { url: s.uploadUrl, http_method: s.uploadMethod } : undefined
      let scheduledAt = now()
      await waitOutRateLimits(() => {
        scheduledAt = now()
        return gitlab.projectExports.schedule(ref, upload ? { upload } : {}, { signal })
      }, limit('export'))
      log.info(
        `${stamp()} export scheduled${before === 'finished' ? ' (an earlier export exists; waiting for the new one)' : ''}`,
      )

      const waitedFor = await gitlab.projectExports.waitForExport(ref, {
        upload: upload !== undefined,
        timeoutMs: Math.max(0, deadline - now()),
        intervalMs: s.pollInterval,
        signal,
        sleep,
        now,
        onChange: (status) => log.info(`${stamp()} ${status}`),
        onTransientError: (err, _ms, kind) =>
          log.warning(`${stamp()} reading the export status failed (${kind}); still waiting: ${err.message}`),
      })
      if (waitedFor.ended === 'timeout')
        throw new Error(
          `still ${waitedFor.status ?? 'unknown'} after ${formatDuration(s.timeout)} ('timeout')`,
        )
      if (s.uploadUrl) {
        const uploadCheck = await checkUpload(s.uploadUrl, signal)
        log.info(`${stamp()} finished; GitLab uploaded the archive with ${s.uploadMethod}; ${uploadCheck}`)
        return {
          project,
          ...about,
          status: 'finished',
          uploaded: true,
          uploadCheck,
          elapsedMs: now() - start,
        }
      }
      const waitedDl = await downloadSlot(signal)
      if (waitedDl > 0)
        log.info(`${stamp()} waited ${formatDuration(waitedDl)} for a download slot (rate limit)`)
      const recipients = s.encryptTo
      const file = pathInside(dir, fileNameOf(project) + (recipients ? '.age' : ''))
      // Loaded here, not at start-up: the age implementation is needed only with 'encrypt-to'.
      const saved = await waitOutRateLimits<SavedArchive | EncryptedArchive>(
        recipients
          ? async () => {
              const { saveEncrypted } = await import('./encrypted-download.js')
              const got = await gitlab.projectExports.download(ref, { signal, timeoutMs: 0 })
              return saveEncrypted(got, file, recipients, signal)
            }
          : () => gitlab.projectExports.downloadTo(ref, file, { signal, timeoutMs: 0 }),
        limit('export download'),
      )
      // Freshness guard: GitLab's status describes only the latest export and has no export time
      // (`app/models/project.rb`). A `finished` counts once this export was seen in progress, or when no
      // finished export existed before we asked; otherwise the download's file name must carry a
      // time no earlier than the minute we scheduled in.
      const madeAt = exportTimeOf(saved.filename)
      if (
        !waitedFor.seenProgress &&
        before === 'finished' &&
        madeAt !== undefined &&
        madeAt < scheduledAt - 60_000
      )
        throw new Error(`GitLab served an export made before this run asked for one (${saved.filename})`)
      // Loaded here, not at start-up: tar-stream is needed only once an archive is on disk.
      const check =
        'check' in saved ? saved.check : await (await import('./verify.js')).verifyExportArchive(file)
      const plain = 'plain' in saved ? saved.plain : undefined
      log.info(
        `${stamp()} downloaded ${formatBytes(saved.size)} to ${file} (VERSION ${check.version}, ${check.entries} entries, sha256 ${saved.sha256}${plain ? `, encrypted to ${recipients?.length} age recipient(s)` : ''})`,
      )
      return {
        project,
        ...about,
        status: 'finished',
        path: file,
        size: saved.size,
        sha256: saved.sha256,
        ...(plain && { plain }),
        exportedAt: new Date(now()).toISOString(),
        elapsedMs: now() - start,
      }
    }

    const settled = await mapBounded(known, s.concurrency, async ({ target, skip }) => {
      if (skip) return skipped(target, skip.reason)
      const start = now()
      try {
        return await one(target)
      } catch (err) {
        if (signal?.aborted) throw err
        const { project } = target
        const error = explain(err, project, s)
        log.warning(`${project}: ${error}`)
        return {
          project,
          id: target.id,
          lastActivityAt: target.last_activity_at,
          status: 'failed' as const,
          elapsedMs: now() - start,
          error,
        }
      }
    })
    if (signal?.aborted) throw signal.reason
    const results = settled.map((r) =>
      r.status === 'fulfilled'
        ? r.value
        : { project: '?', status: 'failed' as const, elapsedMs: 0, error: String(r.reason) },
    )
    return { projects, results, gitlabVersion }
  } finally {
    await gitlab.close()
  }
}

/** The whole action: inputs -> exports -> outputs -> summary -> verdict. */
export async function run(io: ActionIO, signal?: AbortSignal, clock: Clock = {}): Promise<void> {
  const s = await readInputs(io)
  const startedAt = (clock.now ?? Date.now)()
  const { projects, results, gitlabVersion } = await exportProjects(s, io, signal, clock)
  io.setOutput(Outputs.Matrix, JSON.stringify(projects))
  if (s.listOnly) {
    io.info(`${projects.length} project(s): ${projects.join(', ')}`)
    await io.summary(renderSummary(s, projects, results))
    return
  }
  const first = results.find((r) => r.status !== 'skipped')
  const failed = results.filter((r) => r.status === 'failed')
  const skipped = results.filter((r) => r.status === 'skipped')
  io.setOutput(Outputs.ArchivePath, first?.path ?? '')
  io.setOutput(Outputs.ArchiveSize, first?.size === undefined ? '' : String(first.size))
  io.setOutput(Outputs.Sha256, first?.sha256 ?? '')
  io.setOutput(Outputs.ExportStatus, failed.length || results.length === 0 ? 'failed' : 'finished')
  io.setOutput(
    Outputs.Archives,
    JSON.stringify(
      results.map(({ project, status, path, size, sha256, plain, reason, error }) => ({
        project,
        status,
        path,
        size,
        sha256,
        encrypted: plain ? true : undefined,
        reason,
        error: error === undefined ? undefined : oneLine(error),
      })),
    ),
  )
  io.setOutput(Outputs.Skipped, JSON.stringify(skipped.map(({ project, reason }) => ({ project, reason }))))
  if (!s.uploadUrl && results.length > 0) {
    const dir = resolve(s.downloadDir)
    const manifest = await keepEarlierArchives(
      dir,
      buildManifest(results, { gitlabUrl: s.gitlabUrl, gitlabVersion, startedAt }),
    )
    io.setOutput(Outputs.ManifestPath, await writeManifest(dir, manifest))
    // The state 'last-run' reads: only a run in which no export failed moves it on.
    if (failed.length === 0) await writeLastRun(dir, startedAt, s.gitlabUrl)
  }
  await io.summary(renderSummary(s, projects, results))
  if (results.length === 0) io.fail(`Group '${s.group}' has no project the token can read: nothing exported`)
  else if (failed.length)
    io.fail(
      `${failed.length} of ${results.length} export(s) failed: ${failed.map((r) => `${r.project} (${r.error})`).join('; ')}`,
    )
}
