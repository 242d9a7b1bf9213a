import type { CommitNote, CommitNoteCreate } from '../../../schema/commit-note.js'
import { isoNow } from '../../domain/clock.js'
import { createHash } from 'node:crypto'
import { diffLine, type LinePositions } from '../../git/diff-lines.js'
import { readCommit } from '../../git/history.js'
import { treeChanges } from '../../git/tree-diff.js'
import { unifiedDiff } from '../../git/unified-diff.js'
import { notFound } from '../../grape/gitlab-errors.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import { presentCommitNote } from '../../present/commit-notes.js'
import type { CommitNoteRow } from '../../store/commit-notes.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { MAX_NOTE, noteError } from '../notes.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** A comment on a commit just stored; `lineCode` (`Gitlab::Git.diff_line_code`) when it is on a line. */
export interface CommitNoteMade {
  row: CommitNoteRow
  project: ProjectRow
  lineCode: string | null
}

/**
 * Comments on a commit (`lib/api/commits.rb`): list (oldest first, offset pages) and create, for
 * whoever may read the code (`read_code`). The commit is a SHA, a short SHA, a branch or a tag
 * (`user_project.commit`): 404 `Commit Not Found` for none. A note with `path` lands on a line of the
 * commit's diff (against its first parent) when that file changed there and `line` is a line the diff
 * added (`line_type` `new`) or removed (`old`); otherwise it is a plain comment, `path`, `line` and
 * `line_type` null, as GitLab's is. `onCreated(listener)` hears of each comment once it is stored (its
 * event and Note Hook, as `Notes::PostProcessService` makes them).
 */
export function commitNoteService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const { store, instance, clock } = ctx
  const objects = store.gitObjects

  const commitOf = (project: ProjectRow, sha: string) => {
    const resolved = core.resolveCommit(project, sha)
    const c = resolved === undefined ? undefined : readCommit(objects, resolved)
    if (!c) throw notFound('Commit')
    return c
  }

  const author = (id: number) => store.users.get(id)!
  const listeners = new Set<(made: CommitNoteMade) => void>()

  /** Where the commit changed `path` with a `type` line numbered `line` (`commit.raw_diffs`); undefined: nowhere. */
  function onDiffLine(
    sha: string,
    path: string,
    line: number,
    type: 'new' | 'old',
  ): LinePositions | undefined {
    const c = readCommit(objects, sha)!
    const parent = c.parents[0] === undefined ? undefined : readCommit(objects, c.parents[0])
    const blob = (s: string | undefined) => (s === undefined ? undefined : objects.get(s)?.body)
    for (const change of treeChanges(objects, parent?.tree, c.tree)) {
      if (change.new_path !== path) continue
      const diff = unifiedDiff(blob(change.old_sha), blob(change.new_sha), change.old_path, change.new_path)
      const found = diffLine(diff, line, type)
      if (found) return found
    }
    return undefined
  }

  return {
    list(actor: Actor, projectRef: string, sha: string, page: Page): PageOut<CommitNote> {
      const project = reads.readable(actor, projectRef)
      const c = commitOf(project, sha)
      const rows = store.commitNotes.page(project.id, c.sha, page.perPage, page.offset)
      return {
        items: rows.map((r) => presentCommitNote(instance, r, author(r.author_id))),
        page,
        total: store.commitNotes.count(project.id, c.sha),
      }
    },

    /**
     * `POST .../comments` (its parameters checked as Grape's `given :path`, params.ts), then the
     * note's own checks (`400 Bad request - Note {...}`: blank, too long).
     */
    create(actor: Actor, projectRef: string, sha: string, input: CommitNoteCreate): CommitNote {
      const project = reads.readable(actor, projectRef)
      const c = commitOf(project, sha)
      if (input.note.trim() === '') throw noteError("can't be blank")
      if ([...input.note].length > MAX_NOTE)
        throw noteError(`is too long (maximum is ${MAX_NOTE} characters)`)
      const lineType = input.line_type ?? 'new'
      const at =
        input.path === undefined || input.line === undefined
          ? undefined
          : onDiffLine(c.sha, input.path, input.line, lineType)
      const onLine = at !== undefined
      const now = isoNow(clock)
      const id = store.transaction(() =>
        store.commitNotes.insert({
          project_id: project.id,
          commit_sha: c.sha,
          author_id: actor.user!.id,
          note: input.note,
          path: onLine ? input.path! : null,
          line: onLine ? input.line! : null,
          line_type: onLine ? lineType : null,
          created_at: now,
          updated_at: now,
        }),
      )
      const row = store.commitNotes.get(id)!
      // `Gitlab::Git.diff_line_code`: the path's SHA1, then the line's old and new numbers.
      const lineCode = at && `${createHash('sha1').update(input.path!).digest('hex')}_${at.old}_${at.new}`
      for (const listener of listeners) listener({ row, project, lineCode: lineCode ?? null })
      return presentCommitNote(instance, row, actor.user!)
    },

    /** Subscribes to comments made; returns the unsubscribe. */
    onCreated(listener: (made: CommitNoteMade) => void): () => void {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
export type CommitNoteService = ReturnType<typeof commitNoteService>
