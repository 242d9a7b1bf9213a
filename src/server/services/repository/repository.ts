import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { archiveService } from './archive.js'
import { branchService } from './branches.js'
import { browseService } from './browse.js'
import { commitNoteService } from './commit-notes.js'
import { commitService } from './commits.js'
import { compareService } from './compare.js'
import { contributorService } from './contributors.js'
import { repositoryCore } from './core.js'
import { fileService } from './files.js'
import { protectedTagService } from './protected-tags.js'
import { repositoryReads } from './reads.js'
import { tagService } from './tags.js'
import { treeService } from './tree.js'

export type { PushEvent, PushListener } from './core.js'

/**
 * The repository API over the git object store: files, commits, the tree, branches (and their
 * protection) and tags. `onPush(listener)` hears of every ref the API moves (a commit through the
 * files or commits API, a branch or tag created or deleted), after it is stored:
 * `services.repository.onPush(({ project, kind, ref, before, after, user }) => ...)`, `before` or
 * `after` being `BLANK_SHA` (forty zeros) for a ref created or deleted. The CI engine subscribes
 * here to create `push` pipelines; it reads files with `readFileAt` (git/read-file.ts).
 */
export function repositoryService(ctx: ServiceContext) {
  const core = repositoryCore(ctx)
  const reads = repositoryReads(ctx)
  return {
    files: fileService(ctx, core, reads),
    commits: commitService(ctx, core, reads),
    /** Comments on commits (`GET`/`POST .../commits/:sha/comments`). */
    commitNotes: commitNoteService(ctx, core, reads),
    tree: treeService(ctx, core, reads),
    branches: branchService(ctx, core, reads),
    tags: tagService(ctx, core, reads),
    protectedTags: protectedTagService(ctx, reads),
    /** Commit counts by author email (`GET /repository/contributors`). */
    contributors: contributorService(ctx, core, reads),
    /** Comparisons, a commit's diff, merge bases and blobs. */
    compare: compareService(ctx, core, reads),
    /** `git archive` of a ref, streamed. */
    archive: archiveService(ctx, core, reads),
    /** What the repository's HTML pages read beyond the API (refs and paths of an address, a commit's changes). */
    browse: browseService(ctx, core, reads),
    onPush: core.onPush,
    /** `authorize_read_code!`: throws 404 for a hidden project, 403 below Reporter in a private one. */
    authorizeReadCode: (actor: Actor, projectRef: string) => void reads.readable(actor, projectRef),
    /** The commit a branch, tag or SHA names in the project (undefined: none). */
    resolveCommit: core.resolveCommit,
  }
}
export type RepositoryService = ReturnType<typeof repositoryService>
