import type { Contributor, ContributorQuery } from '../../../schema/repository-contributors.js'
import { history } from '../../git/history.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import type { Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import type { RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** `Repository#contributors` reads this many commits of the ref, merges skipped (`app/models/repository.rb`). */
const COMMIT_LIMIT = 2000

/** Ruby's `String#casecmp`: ASCII letters folded, then compared code unit by code unit. */
const casecmp = (a: string, b: string) => {
  const [x, y] = [a.replace(/[A-Z]/g, (c) => c.toLowerCase()), b.replace(/[A-Z]/g, (c) => c.toLowerCase())]
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * `GET /repository/contributors` (`lib/api/repositories.rb`, `Repository#contributors`): the first
 * 2,000 commits of `ref` (the default branch if not given), merges left out, grouped by author email
 * as written (case counts); each group's name is the first non-blank author name met, newest
 * commit first. Ordered as `Commit.order_by` orders them: names and emails case-insensitively,
 * `commits` by count. Ties keep the order of first appearance (Ruby's sort does not promise one).
 * A ref that names no commit lists none. Reading needs `read_code` (`reads.readable`).
 */
export function contributorService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const objects = ctx.store.gitObjects
  return {
    list(actor: Actor, projectRef: string, q: ContributorQuery, page: Page): PageOut<Contributor> {
      const project = reads.readable(actor, projectRef)
      const ref = q.ref ?? project.default_branch
      const head = ref ? core.resolveCommit(project, ref) : undefined
      const byEmail = new Map<string, Contributor>()
      let read = 0
      if (head)
        for (const c of history(objects, head)) {
          if (c.parents.length > 1) continue
          if (++read > COMMIT_LIMIT) break
          const { name, email } = c.author
          const found = byEmail.get(email)
          if (!found) byEmail.set(email, { name, email, commits: 1, additions: 0, deletions: 0 })
          else {
            found.commits++
            if (found.name.trim() === '') found.name = name
          }
        }
      const orderBy = q.order_by ?? 'commits'
      const sign = q.sort === 'desc' ? -1 : 1
      const rows = [...byEmail.values()].sort(
        (a, b) => sign * (orderBy === 'commits' ? a.commits - b.commits : casecmp(a[orderBy], b[orderBy])),
      )
      return { items: rows.slice(page.offset, page.offset + page.perPage), page, total: rows.length }
    },
  }
}
export type ContributorService = ReturnType<typeof contributorService>
