/*
 * 'download-artifacts': each line names a job (`build`) or a job and a glob of its files
 * (`build:dist/**`), looked up in the triggered pipeline first, then in its downstream pipelines;
 * the job's archive (`GET /projects/:id/jobs/:job_id/artifacts`, `lib/api/ci/job_artifacts.rb`)
 * goes to `<artifacts-path>/<job>/`, streamed and size-limited, checked entry by entry (artifacts-zip.ts).
 */
import { mkdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { collect, GitLabApiError, type GitLabClient } from '../../api/client.js'
import type { Job } from '../../schema/pipeline.js'
import { formatBytes } from '../connection.js'
import { ArchiveRefused, extractZip, saveLimited } from './artifacts-zip.js'
import type { Settings } from './inputs.js'
import type { ArtifactsResult, Log } from './result.js'

/** A pipeline whose jobs may hold the artifacts. */
export interface PipelineRef {
  projectId: number
  pipelineId: number
}

/** A job asked for, and the part of its archive wanted. */
export interface ArtifactsSpec {
  job: Job
  projectId: number
  glob?: string
}

/**
 * Which job (and glob) a line names, given the jobs of the pipelines in order. A job name may hold
 * `:` itself (`test:unit`), so the whole line is tried as a name first, then each prefix before a
 * `:`, longest first. Among jobs of one name (parallel or retried), the newest. Undefined: no such job.
 */
export function resolveSpec(
  line: string,
  pipelines: readonly { projectId: number; jobs: readonly Job[] }[],
): ArtifactsSpec | undefined {
  const cuts = [line.length]
  for (let i = line.length - 1; i > 0; i--) if (line[i] === ':') cuts.push(i)
  for (const cut of cuts) {
    const name = line.slice(0, cut)
    for (const p of pipelines) {
      const job = p.jobs.filter((j) => j.name === name).sort((a, b) => b.id - a.id)[0]
      if (job)
        return { job, projectId: p.projectId, glob: cut < line.length ? line.slice(cut + 1) : undefined }
    }
  }
  return undefined
}

/** A folder name for a job: its name with anything but letters, digits, `.`, `_` and `-` as `_`. */
export const jobFolder = (name: string) => {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_')
  return /^\.*$/.test(safe) ? `job_${safe.length}` : safe
}

/**
 * Downloads and extracts the artifacts 'download-artifacts' names into 'artifacts-path'. A line that
 * names no job, or a job without artifacts, is a warning (`missing`); an archive refused or a
 * download that fails is an error (the caller fails the step).
 */
export async function downloadArtifacts(
  reader: GitLabClient,
  s: Settings,
  pipelines: readonly PipelineRef[],
  log: Log,
  signal?: AbortSignal,
): Promise<ArtifactsResult> {
  const folder = resolve(s.artifactsPath)
  const result: ArtifactsResult = { path: folder, jobs: [], missing: [], errors: [] }
  const listed = []
  for (const p of pipelines)
    listed.push({
      projectId: p.projectId,
      jobs: await collect(reader.pipelines.jobs(p.projectId, p.pipelineId, {}, { signal }), { limit: 1000 }),
    })
  await mkdir(folder, { recursive: true })
  const used = new Set<string>()
  for (const line of s.downloadArtifacts ?? []) {
    const spec = resolveSpec(line, listed)
    if (!spec) {
      result.missing.push(`No job '${line}' in the pipeline or its downstream pipelines.`)
      continue
    }
    const { job, projectId, glob } = spec
    let name = jobFolder(job.name)
    if (used.has(name)) name = `${name}-${job.id}`
    used.add(name)
    const zip = join(folder, `.${name}.zip.part`)
    const what = `the artifacts of job '${job.name}'`
    try {
      let download
      try {
        download = await reader.jobs.artifacts(projectId, job.id, { signal })
      } catch (err) {
        if (!(err instanceof GitLabApiError && err.status === 404)) throw err
        result.missing.push(`Job '${job.name}' (${job.id}) has no artifacts.`)
        continue
      }
      await saveLimited(download.body, zip, s.artifactsMaxSize, what, download.length, signal)
      const got = await extractZip(zip, join(folder, name), { maxBytes: s.artifactsMaxSize, glob })
      result.jobs.push({
        name: job.name,
        jobId: job.id,
        folder: name,
        files: got.files.length,
        bytes: got.bytes,
      })
      log.info(
        `Artifacts of job '${job.name}' (${job.id}): ${got.files.length} files, ${formatBytes(got.bytes)} in ${join(folder, name)}`,
      )
    } catch (err) {
      const why =
        err instanceof ArchiveRefused
          ? `refused: ${err.message}`
          : err instanceof GitLabApiError
            ? `GitLab answered ${err.status}`
            : (err as Error).message
      result.errors.push(`Artifacts of job '${job.name}' (${job.id}) ${why}.`)
    } finally {
      await rm(zip, { force: true })
    }
  }
  for (const m of result.missing) log.warning(m)
  return result
}
