import type { Commit } from '../../../schema/repository.js'
import { commitChanges, type FileChange } from '../../git/commit-changes.js'
import { entryAt, treeEntries } from '../../git/commit-files.js'
import { readCommit } from '../../git/history.js'
import { notFound } from '../../grape/gitlab-errors.js'
import { presentCommit } from '../../present/repository.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** A ref and a path in a readable project, as a page's address names them. */
export interface RefPath {
  project: ProjectRow
  /** The ref as written (a branch, a tag, a SHA). */
  ref: string
  /** The commit it names. */
  sha: string
  /** The path under the ref, without slashes at either end ('' for the root). */
  path: string
}

const FULL_SHA = /^[0-9a-f]{40}$/
/** Segments a path may not have: `Gitlab::PathTraversal` refuses `..`; `.` and empty ones name nothing. */
const BAD_SEGMENT = new Set(['', '.', '..'])
/** README names GitLab renders, in its order of preference (`Tree#readme`, `Gitlab::FileDetector`). */
const README = /^readme(\.(md|markdown|mdown|mkd|txt|rst|adoc))?$/i

/**
 * What the repository's HTML pages read beyond the API's services: an address split into its ref
 * and path, the last commit of a path, the files a commit changed, the README of a tree. Every read
 * checks `download_code` as the API does (the project 404s to those who may not see it).
 */
export function browseService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const objects = ctx.store.gitObjects
  const repo = ctx.store.repository

  const known = (project: ProjectRow, name: string) =>
    repo.ref(project.id, 'branch', name) !== undefined || repo.ref(project.id, 'tag', name) !== undefined

  return {
    /**
     * Splits `rest` (`<ref>/<path>`) as `ExtractsRef#extract_ref` does: a full SHA first, else the
     * longest branch or tag name that prefixes it, else the first segment (a short SHA, `HEAD`).
     * 404 `Commit Not Found` for a ref that names nothing; 404 `File Not Found` for a path with a
     * `..`, `.` or empty segment (GitLab answers such a path 400 or 404; a page says 404).
     */
    locate(actor: Actor, projectRef: string, rest: string): RefPath {
      const project = reads.readable(actor, projectRef)
      const segments = rest === '' ? [project.default_branch ?? 'HEAD'] : rest.split('/')
      let split = 1
      if (!FULL_SHA.test(segments[0]!))
        for (let n = segments.length; n > 1; n--)
          if (known(project, segments.slice(0, n).join('/'))) {
            split = n
            break
          }
      const ref = segments.slice(0, split).join('/')
      const path = segments.slice(split)
      if (path.some((s) => BAD_SEGMENT.has(s))) throw notFound('File')
      const sha = core.resolveCommit(project, ref)
      if (sha === undefined || !readCommit(objects, sha)) throw notFound('Commit')
      return { project, ref, sha, path: path.join('/') }
    },

    /** What the path names at the ref: a folder (`tree`), a file (`blob`), a submodule, or nothing. */
    kind: (at: RefPath) => entryAt(objects, at.sha, at.path)?.type,

    /** The last commit from `at.sha` back that changed `at.path` (the whole tree: the commit itself). */
    lastCommit(at: RefPath): Commit | undefined {
      const sha = at.path === '' ? at.sha : core.lastCommitFor(at.sha, at.path)
      const c = sha === undefined ? undefined : readCommit(objects, sha)
      return c && presentCommit(c, at.project.full_path, ctx.instance)
    },

    /** The files a commit of the project changed (see `commitChanges`); 404 `Commit Not Found`. */
    changes(actor: Actor, projectRef: string, sha: string): FileChange[] {
      const project = reads.readable(actor, projectRef)
      const resolved = core.resolveCommit(project, sha)
      const changes = resolved === undefined ? undefined : commitChanges(objects, resolved)
      if (!changes) throw notFound('Commit')
      return changes
    },

    /** The name of the README at the root of `sha`'s tree, markup before plain text; undefined: none. */
    readmeName(sha: string): string | undefined {
      const tree = readCommit(objects, sha)?.tree
      const names =
        tree === undefined
          ? []
          : treeEntries(objects, tree).filter((e) => e.mode.startsWith('100') && README.test(e.name))
      const rank = (name: string) => (/\.(md|markdown|mdown|mkd)$/i.test(name) ? 0 : /\./.test(name) ? 2 : 1)
      return names.map((e) => e.name).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))[0]
    },
  }
}
export type BrowseService = ReturnType<typeof browseService>
