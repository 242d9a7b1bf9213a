import type { Issue, Todo } from '../../schema/index.js'
import { notModified } from '../grape/gitlab-errors.js'
import { presentTodo } from '../present/todos.js'
import type { ProjectRow } from '../store/projects.js'
import type { Actor } from './access.js'
import { isoNow } from '../domain/clock.js'
import { namespaceNames } from './groups.js'
import { presentIssue, requireUser, type IssueDeps } from './issues/lookup.js'

/** Subscriptions and to-dos on issues (`lib/api/subscriptions.rb`, `lib/api/issues.rb`). */
export function todoService(deps: IssueDeps) {
  const { store } = deps.ctx

  /** Whether the user follows the issue: an explicit choice, else being a participant (GitLab's `subscribed?`). */
  const subscribed = (issueId: number, userId: number) =>
    store.issues.subscription(issueId, userId)?.subscribed === 1

  return {
    /**
     * `POST .../subscribe` / `.../unsubscribe`: 201 with the issue (`subscribed` set), 304 with no
     * body when the caller already is (or is not) subscribed, 404 `Not found` for a hidden issue.
     */
    setSubscription(actor: Actor, project: ProjectRow, iid: number, subscribe: boolean): Issue {
      const user = requireUser(actor)
      const row = deps.issues.findIssue(actor, project, iid)
      if (subscribed(row.id, user.id) === subscribe) throw notModified()
      // Its record's `subscribed` (the caller's own, kept per caller) changes; no list filters or
      // orders by subscriptions.
      store.changes.issueWrite({ projectId: project.id, issues: [row.id], onlyColumns: [] }, () =>
        store.transaction(() => store.issues.setSubscription(row.id, user.id, subscribe)),
      )
      return presentIssue(deps, actor, row)
    },

    /**
     * `POST .../todo` (`lib/api/issues.rb`): a pending `marked` to-do for the caller, 201; 304 when the
     * caller already has a pending to-do on the issue. Anyone who can read the issue may mark it.
     */
    mark(actor: Actor, project: ProjectRow, iid: number): Todo {
      const user = requireUser(actor)
      const row = deps.issues.findIssue(actor, project, iid)
      if (store.todos.pending(user.id, row.id)) throw notModified()
      const now = isoNow(deps.ctx.clock)
      // A to-do shows in no issue record and no issue list: told to the caches as a write to no issue.
      const mine = { projectId: project.id, issues: [], onlyColumns: [] }
      const id = store.changes.issueWrite(mine, () =>
        store.transaction(() =>
          store.todos.insert({
            user_id: user.id,
            author_id: user.id,
            project_id: project.id,
            issue_id: row.id,
            action: 'marked',
            state: 'pending',
            body: row.title,
            created_at: now,
            updated_at: now,
          }),
        ),
      )
      const todo = store.todos.get(id)
      if (!todo) throw new Error('to-do vanished')
      // GitLab renders the target without the caller (`Entities::Todo`), so `subscribed` is false there.
      const target = { ...presentIssue(deps, actor, row), subscribed: false }
      return presentTodo(deps.ctx.instance, todo, project, target, {
        nameWithNamespace: [...namespaceNames(store, project.namespace_id), project.name].join(' / '),
        author: store.users.get(todo.author_id),
      })
    },
  }
}
export type TodoService = ReturnType<typeof todoService>
