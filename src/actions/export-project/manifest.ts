/*
 * `manifest.json` beside the archives: what each run exported, skipped or failed, with the size and
 * sha256 of each stored file (of the encrypted file when `encrypt-to` is set), so a restore can
 * check an archive before it imports it. Our format; GitLab has none for this.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { ExportResult } from './result.js'

export const MANIFEST_FILE = 'manifest.json'

/** One project's line in the manifest; snake_case like the API it describes. */
export interface ManifestEntry {
  path: string
  id: number | null
  last_activity_at: string | null
  status: ExportResult['status']
  file?: string
  size?: number
  sha256?: string
  encrypted?: boolean
  /** With `encrypted`: the size and sha256 of the archive inside, to check what `age -d` gives back. */
  archive_size?: number
  archive_sha256?: string
  gitlab_version: string | null
  exported_at?: string
  reason?: string
  error?: string
}

export interface Manifest {
  gitlab_url: string
  gitlab_version: string | null
  started_at: string
  projects: ManifestEntry[]
  skipped: ManifestEntry[]
}

/** The manifest of a run's results (skipped projects listed apart, with their reason). */
export function buildManifest(
  results: ExportResult[],
  run: { gitlabUrl: string; gitlabVersion: string | null; startedAt: number },
): Manifest {
  const entry = (r: ExportResult): ManifestEntry => ({
    path: r.project,
    id: r.id ?? null,
    last_activity_at: r.lastActivityAt ?? null,
    status: r.status,
    ...(r.path !== undefined && {
      file: basename(r.path),
      size: r.size,
      sha256: r.sha256,
      encrypted: r.plain !== undefined,
      ...(r.plain && { archive_size: r.plain.size, archive_sha256: r.plain.sha256 }),
    }),
    gitlab_version: run.gitlabVersion,
    ...(r.exportedAt !== undefined && { exported_at: r.exportedAt }),
    ...(r.reason !== undefined && { reason: r.reason }),
    ...(r.error !== undefined && { error: r.error }),
  })
  return {
    gitlab_url: run.gitlabUrl,
    gitlab_version: run.gitlabVersion,
    started_at: new Date(run.startedAt).toISOString(),
    projects: results.filter((r) => r.status !== 'skipped').map(entry),
    skipped: results.filter((r) => r.status === 'skipped').map(entry),
  }
}

const ARCHIVE_FIELDS = [
  'file',
  'size',
  'sha256',
  'encrypted',
  'archive_size',
  'archive_sha256',
  'exported_at',
] as const

/**
 * A skipped project's archive from an earlier run is still in `dir`: its entry keeps what the previous
 * manifest said of that file (when the file is still there, at the same size), so the manifest
 * describes every archive beside it. A missing or unreadable previous manifest adds nothing.
 */
export async function keepEarlierArchives(dir: string, manifest: Manifest): Promise<Manifest> {
  let previous: Partial<Manifest>
  try {
    previous = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Partial<Manifest>
  } catch {
    return manifest
  }
  const earlier = new Map<string, ManifestEntry>()
  for (const e of [...(previous.projects ?? []), ...(previous.skipped ?? [])])
    if (e && typeof e.path === 'string' && typeof e.file === 'string' && basename(e.file) === e.file)
      earlier.set(e.path, e)
  const skipped = await Promise.all(
    manifest.skipped.map(async (entry) => {
      const e = earlier.get(entry.path)
      if (!e?.file) return entry
      const size = await stat(join(dir, e.file)).then(
        (st) => st.size,
        () => undefined,
      )
      if (size === undefined || size !== e.size) return entry
      const kept = Object.fromEntries(ARCHIVE_FIELDS.filter((k) => e[k] !== undefined).map((k) => [k, e[k]]))
      return { ...entry, ...kept }
    }),
  )
  return { ...manifest, skipped }
}

/** Writes `manifest.json` into `dir` (whole, then renamed into place); returns its path. */
export async function writeManifest(dir: string, manifest: Manifest): Promise<string> {
  const file = join(dir, MANIFEST_FILE)
  await writeFile(`${file}.part`, JSON.stringify(manifest, null, 2) + '\n')
  await rename(`${file}.part`, file)
  return file
}
