import { pipeline, Readable } from 'node:stream'
import { createGzip } from 'node:zlib'
import type { ArchiveQuery } from '../../../schema/repository-compare.js'
import { tarParts, type TarMember } from '../../archive/tar-parts.js'
import { zipParts, type ZipEntry } from '../../archive/zip-writer.js'
import { entryInTree, treeEntries, type ObjectSource } from '../../git/commit-files.js'
import { readCommit } from '../../git/history.js'
import { isTreeMode } from '../../git/trees.js'
import { notFound } from '../../grape/gitlab-errors.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** An archive on its way out: the file name Workhorse gives it, its type, and its bytes as they are made. */
export interface RepositoryArchive {
  fileName: string
  contentType: 'application/zip' | 'application/octet-stream'
  body: Readable
}

/**
 * The formats of `archive.<format>` (`Gitlab::PathRegex.archive_formats_regex`) by the extension
 * `Repository#archive_file_path` gives them. bzip2 (`tar.bz2`, `tbz`, `tbz2`, `tb2`, `bz2`) is not
 * made here (node:zlib has no bzip2): those answer 404 `File Not Found`, our choice.
 */
export const ARCHIVE_FORMATS = ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2']
/** One part made ahead of the socket (a part is a whole member: Readable.from's 16 would be 16 files). */
const ONE_AHEAD = { highWaterMark: 1 }
const BZIP2 = new Set(['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'])
const extension = (format: string) => (format === 'zip' || format === 'tar' ? format : 'tar.gz')

/** A path's segments as git compares them: no leading, trailing or doubled slashes. */
const clean = (path: string) =>
  path
    .split('/')
    .filter((s) => s !== '')
    .join('/')

const folder = (path: string): TarMember => ({
  path: `${path}/`,
  type: 'directory',
  mode: 0o775,
  content: Buffer.alloc(0),
})

/**
 * The members under `tree` (at `path/`), depth first in tree order as `git archive` lists them
 * (`archive.c`, `queue_or_write_archive_entry`): a folder is written before its contents, and only
 * once something under it is (`queued`: the folders waiting for that), so a folder whose contents
 * are all excluded is left out; a submodule is an empty folder. Permissions as git writes them in a
 * tar (`tar.umask` 002, which symlinks escape): 775 for folders and executables, 777 for symlinks,
 * 664 for other files. Blobs are read one at a time as the archive is written.
 */
function* members(
  objects: ObjectSource,
  tree: string,
  path: string,
  excluded: (path: string) => boolean,
  queued: TarMember[],
): Generator<TarMember> {
  for (const e of treeEntries(objects, tree)) {
    const at = path === '' ? e.name : `${path}/${e.name}`
    if (excluded(at)) continue
    if (isTreeMode(e.mode)) {
      queued.push(folder(at))
      yield* members(objects, e.sha, at, excluded, queued)
      // Still queued: nothing under it was written.
      if (queued.at(-1)?.path === `${at}/`) queued.pop()
      continue
    }
    yield* queued.splice(0)
    if (e.mode === '160000') {
      yield folder(at)
      continue
    }
    const content = objects.get(e.sha)?.body ?? Buffer.alloc(0)
    const type = e.mode === '120000' ? 'symlink' : 'file'
    const mode = type === 'symlink' ? 0o777 : e.mode === '100755' ? 0o775 : 0o664
    yield { path: at, type, mode, content }
  }
}

/**
 * A member as `git archive --format=zip` writes it (`archive-zip.c`): the tree's own modes, not the
 * tar's umask: an executable `0755`, a symlink `0777`, other files and folders none.
 */
function zipEntry(m: TarMember, mtime: Date): ZipEntry {
  const entry = { path: m.path, content: m.content, mtime, type: m.type }
  if (m.type === 'symlink') return { ...entry, unixMode: 0o777 }
  return m.type === 'file' && m.mode === 0o775 ? { ...entry, unixMode: 0o755 } : entry
}

/**
 * `GET /repository/archive[.format]` (`lib/api/repositories.rb`, `Repository#archive_metadata`,
 * Workhorse's `git-archive`): `git archive` of `sha` (default: the default branch), or of its
 * folder or file `path` (Gitaly's `GetArchive` takes any path the commit has), under the prefix `<project>-<ref>-<sha>[-<path>]/`, streamed: tar.gz (the
 * default, also `tgz`, `gz` and any unknown `format` parameter), tar or zip. A ref or path that
 * names nothing answers 404 `File Not Found` (GitLab's rescue of a failed archive).
 */
export function archiveService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const objects = ctx.store.gitObjects
  return {
    archive(
      actor: Actor,
      projectRef: string,
      q: ArchiveQuery,
      pathFormat: string | undefined,
    ): RepositoryArchive {
      const project = reads.readable(actor, projectRef)
      const format = (pathFormat ?? q.format ?? 'tar.gz').toLowerCase()
      const ref = q.sha ?? project.default_branch ?? 'HEAD'
      const sha = core.resolveCommit(project, ref)
      const commit = sha === undefined ? undefined : readCommit(objects, sha)
      if (!commit || BZIP2.has(format)) throw notFound('File')
      const path = q.path === undefined ? '' : clean(q.path)
      const named = entryInTree(objects, commit.tree, path)
      if (!named) throw notFound('File')
      // A file (or submodule) is `git archive <sha> -- <file>`: its folders, then it alone, so the walk
      // is of the folder holding it, keeping only it.
      const parent = named.type === 'tree' ? path : path.slice(0, Math.max(path.lastIndexOf('/'), 0))
      const root = named.type === 'tree' ? named : entryInTree(objects, commit.tree, parent)!
      const segments = [project.path, ref.replace(/\//g, '-'), commit.sha]
      if (q.path !== undefined) segments.push(q.path.replace(/\//g, '-'))
      const prefix = segments.join('-')
      const excludes = (q.exclude_paths ?? []).map(clean).filter((p) => p !== '')
      const excluded = (p: string) =>
        (named.type !== 'tree' && p !== path) || excludes.some((x) => p === x || p.startsWith(`${x}/`))
      const mtime = new Date(commit.committer.seconds * 1000)
      const all = function* (): Generator<TarMember> {
        yield folder(prefix)
        // `path`'s own folders come before its contents, as any folder.
        const above =
          parent === '' ? [] : parent.split('/').map((_, i, s) => folder(s.slice(0, i + 1).join('/')))
        for (const m of members(objects, root.sha, parent, excluded, above))
          yield { ...m, path: `${prefix}/${m.path}` }
      }
      const ext = extension(format)
      const fileName = `${prefix}.${ext}`
      if (ext === 'zip') {
        const entries = function* (): Generator<ZipEntry> {
          for (const m of all()) yield zipEntry(m, mtime)
        }
        return {
          fileName,
          contentType: 'application/zip',
          body: Readable.from(zipParts(entries()), ONE_AHEAD),
        }
      }
      const tar = Readable.from(tarParts(commit.sha, all(), mtime), ONE_AHEAD)
      return {
        fileName,
        contentType: 'application/octet-stream',
        // pipeline: a client gone destroys both streams, and the walk stops.
        body: ext === 'tar' ? tar : pipeline(tar, createGzip(), () => undefined),
      }
    },
  }
}
export type ArchiveService = ReturnType<typeof archiveService>
