import type { Issue, Todo } from '../../schema/index.js'
import type { ProjectRow } from '../store/projects.js'
import type { TodoRow } from '../store/todos.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/**
 * `Entities::Todo` (`lib/api/entities/todo.rb`): the to-do with its project identity and issue;
 * `nameWithNamespace` is the project's full name, `author` the to-do's author (both loaded by the service).
 */
export function presentTodo(
  instance: Instance,
  row: TodoRow,
  project: ProjectRow,
  target: Issue,
  loaded: { nameWithNamespace: string; author: UserRow | undefined },
): Todo {
  const { author } = loaded
  if (!author) throw new Error(`to-do ${row.id}: author ${row.author_id} is missing`)
  return {
    id: row.id,
    project: {
      id: project.id,
      description: project.description,
      name: project.name,
      name_with_namespace: loaded.nameWithNamespace,
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
