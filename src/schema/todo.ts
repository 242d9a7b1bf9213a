import { Type, type Static } from '@sinclair/typebox'
import { Timestamp, UserBasic } from './common.js'
import { Issue } from './issue.js'
import { ProjectIdentity } from './namespace.js'

/** `Entities::Todo` (`lib/api/entities/todo.rb`): a to-do item; `target` is the issue. */
export const Todo = Type.Object(
  {
    id: Type.Integer(),
    project: ProjectIdentity,
    author: UserBasic,
    action_name: Type.String({ description: 'marked for POST .../todo' }),
    target_type: Type.String({ description: 'Issue' }),
    target: Issue,
    target_url: Type.String(),
    body: Type.String(),
    state: Type.Union([Type.Literal('pending'), Type.Literal('done')]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Todo' },
)
export type Todo = Static<typeof Todo>
