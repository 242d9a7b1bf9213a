import type { Issue, Todo } from '../../schema/index.js'
import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'
import type { TodoRow } from '../store/todos.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/** `Entities::Todo` (`lib/api/entities/todo.rb`): the to-do with its project identity and issue. */
export function presentTodo(
  store: Store,
  instance: Instance,
  row: TodoRow,
  project: ProjectRow,
  target: Issue,
): Todo {
  const names: string[] = [project.name]
  let ns = store.namespaces.get(project.namespace_id)
  while (ns) {
    names.unshift(ns.name)
    ns = ns.parent_id === null ? undefined : store.namespaces.get(ns.parent_id)
  }
  const author = store.users.get(row.author_id)
  if (!author) throw new Error(`to-do ${row.id}: author ${row.author_id} is missing`)
  return {
    id: row.id,
    project: {
      id: project.id,
      description: project.description,
      name: project.name,
      name_with_namespace: names.join(' / '),
      path: project.path,
      path_with_namespace: project.full_path,
      created_at: project.created_at,
    },
    author: presentUser(author, instance),
    action_name: row.action,
    target_type: 'Issue',
    target,
    target_url: target.web_url,
    body: row.body,
    state: row.state === 'done' ? 'done' : 'pending',
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
