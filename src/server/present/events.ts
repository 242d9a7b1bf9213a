import type { Event, Note } from '../../schema/index.js'
import { EVENT_ACTIONS, eventActionName } from '../domain/event-actions.js'
import type { EventRow } from '../store/events.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/** What an event's target shows: its id and iid (a note has no iid: its id), its title. */
export interface EventTarget {
  iid: number
  title: string | null
}

/** `Entities::Event`: in GitLab's key order; `note` for a comment, `push_data` for a push. */
export function presentEvent(
  instance: Instance,
  row: EventRow,
  author: UserRow | undefined,
  target: EventTarget | undefined,
  note: Note | undefined,
): Event {
  return {
    id: row.id,
    project_id: row.project_id,
    action_name: eventActionName(row.action, row.target_type, row.push_action),
    target_id: row.target_id,
    target_iid: target ? target.iid : row.target_id,
    target_type: row.target_type,
    author_id: row.author_id,
    target_title: target?.title ?? null,
    created_at: row.created_at,
    ...(note ? { note } : {}),
    ...(author ? { author: presentUser(author, instance) } : {}),
    imported: false,
    imported_from: 'none',
    ...(row.action === EVENT_ACTIONS.pushed
      ? {
          push_data: {
            commit_count: row.commit_count ?? 0,
            action: row.push_action ?? 'pushed',
            ref_type: row.ref_type ?? 'branch',
            commit_from: row.commit_from,
            commit_to: row.commit_to,
            ref: row.ref,
            commit_title: row.commit_title,
            ref_count: row.ref_count,
          },
        }
      : {}),
    author_username: author?.username ?? null,
  }
}
