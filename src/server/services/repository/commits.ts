import type {
  Commit,
  CommitCreate,
  CommitDetailAnswer,
  CommitListQuery,
  CommitRef,
  CommitRefsQuery,
} from '../../../schema/repository.js'
import { ancestors } from '../../git/merge-base.js'
import { history, readCommit, type HistoryCommit } from '../../git/history.js'
import { forbidden, notFound } from '../../grape/gitlab-errors.js'
import { MAX_COUNT, type Page, type PageOut } from '../../grape/pagination.js'
import { pipelinePresenter } from '../../present/pipelines.js'
import { presentCommit } from '../../present/repository.js'
import type { Store } from '../../store/index.js'
import type { ProjectRow, RefKind } from '../../store/projects.js'
import type { Actor } from '../access.js'
import { readsPipelineRecords } from '../ci-access.js'
import type { ServiceContext } from '../context.js'
import { checkActions } from './commit-actions.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/**
 * The names of the project's branches (or tags) whose history holds `commit`, sorted as `git branch
 * --contains` lists them (`Repository#branch_names_contains`).
 */
export function refNamesContaining(store: Store, projectId: number, kind: RefKind, commit: string): string[] {
  const reach = new Map<string, boolean>()
  const holds = (head: string) => {
    if (!reach.has(head)) reach.set(head, ancestors(store.gitObjects, [head]).has(commit))
    return reach.get(head) as boolean
  }
  return store.repository
    .refs(projectId, kind, undefined, -1, 0)
    .filter((r) => holds(r.sha))
    .map((r) => r.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** Seconds since the epoch of a Grape DateTime parameter. */
const seconds = (t: string | undefined) => (t === undefined ? undefined : Math.floor(Date.parse(t) / 1000))

/**
 * Commits (`lib/api/commits.rb`): list (`ref_name` or `all`, `path`, `since`, `until`, offset pages, counted
 * as GitLab counts them), get one (`stats` by default), and `POST` with `actions[]`.
 */
export function commitService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const { store, instance } = ctx
  const objects = store.gitObjects

  const present = (p: ProjectRow, c: HistoryCommit) => presentCommit(c, p.full_path, instance)

  const pipelines = pipelinePresenter(instance)
  /**
   * `Entities::CommitDetail`: `status` and `last_pipeline` from the project's newest pipeline for
   * the commit (`lazy_latest_pipeline`), null when it has none; `last_pipeline` is null too for a
   * caller who may not read that pipeline (`can_read_pipeline?`: public_jobs off, a guest...).
   */
  const detail = (actor: Actor, p: ProjectRow, c: HistoryCommit, withStats: boolean): CommitDetailAnswer => {
    const [latest] = store.pipelines.page({ projectId: p.id, sha: c.sha, order: 'id', sort: 'desc' }, 1, 0)
    const shown = latest && readsPipelineRecords(store, ctx.access, actor, p) ? latest : undefined
    return {
      ...present(p, c),
      ...(withStats ? { stats: core.stats(c) } : {}),
      status: latest?.status ?? null,
      project_id: p.id,
      last_pipeline: shown ? pipelines.basic(p, shown) : null,
    }
  }

  return {
    present,

    list(
      actor: Actor,
      projectRef: string,
      q: CommitListQuery,
      page: Page,
    ): PageOut<Commit & { stats?: object }> {
      const project = reads.readable(actor, projectRef)
      // `all` walks every branch and tag (`git log --all`), `ref_name` ignored.
      const heads = q.all
        ? [
            ...store.repository.refs(project.id, 'branch', undefined, -1, 0),
            ...store.repository.refs(project.id, 'tag', undefined, -1, 0),
          ].map((r) => r.sha)
        : [core.resolveCommit(project, q.ref_name ?? project.default_branch ?? 'master') ?? []].flat()
      if (heads.length === 0) return { items: [], page, total: 0 } // `repository.commits` of no ref: none
      const since = seconds(q.since)
      const until = seconds(q.until)
      const walk = history(objects, heads, {
        ...(q.path ? { path: q.path } : {}),
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
      })
      const items: (Commit & { stats?: object })[] = []
      let total = 0
      for (const c of walk) {
        if (total >= page.offset && items.length < page.perPage)
          items.push(q.with_stats ? { ...present(project, c), stats: core.stats(c) } : present(project, c))
        if (++total > MAX_COUNT && items.length === page.perPage) break
      }
      return { items, page, total }
    },

    get(actor: Actor, projectRef: string, sha: string, withStats: boolean): CommitDetailAnswer {
      const project = reads.readable(actor, projectRef)
      const resolved = core.resolveCommit(project, sha)
      const c = resolved === undefined ? undefined : readCommit(objects, resolved)
      if (!c) throw notFound('Commit')
      return detail(actor, project, c, withStats)
    },

    /**
     * `GET .../commits/:sha/refs`: the branches, then the tags, whose history holds the commit (`git
     * branch --contains`, `git tag --contains`), each by name; `type` keeps one kind. 404 `Commit Not Found`.
     */
    refs(actor: Actor, projectRef: string, sha: string, q: CommitRefsQuery, page: Page): PageOut<CommitRef> {
      const project = reads.readable(actor, projectRef)
      const commit = core.resolveCommit(project, sha)
      if (commit === undefined || !readCommit(objects, commit)) throw notFound('Commit')
      const kinds = q.type === 'branch' || q.type === 'tag' ? [q.type] : (['branch', 'tag'] as const)
      const all = kinds.flatMap((type) =>
        refNamesContaining(store, project.id, type, commit).map((name) => ({ type, name })),
      )
      return { items: all.slice(page.offset, page.offset + page.perPage), page, total: all.length }
    },

    create(actor: Actor, projectRef: string, input: CommitCreate): CommitDetailAnswer {
      const project = reads.readable(actor, projectRef)
      if (!reads.pushCode(actor, project)) throw forbidden()
      const sha = core.commit(actor, project, {
        branch: input.branch,
        commit_message: input.commit_message,
        actions: checkActions(input.actions),
        start_branch: input.start_branch,
        start_sha: input.start_sha,
        author_email: input.author_email,
        author_name: input.author_name,
        force: input.force,
      })
      // GitLab makes a push's pipelines afterwards, in Sidekiq (`PostReceive`), so the commit's own
      // answer shows none; ours exist already (push-pipelines.ts) and show from the next read on.
      return {
        ...detail(actor, project, readCommit(objects, sha)!, input.stats !== false),
        status: null,
        last_pipeline: null,
      }
    },
  }
}
export type CommitService = ReturnType<typeof commitService>
