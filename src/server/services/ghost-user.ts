import type { Store } from '../store/index.js'

/**
 * `Users::GhostUserService` (`app/services/users/ghost_user_service.rb`): the user a deleted user's
 * contributions go to, made on first need, with its namespace.
 */
export function ghostUser(store: Store, now: string): number {
  const existing = store.users.byUsername('ghost')
  if (existing?.state === 'deleted') return existing.id
  let username = 'ghost'
  for (let i = 1; store.users.byUsername(username) || store.namespaces.byPath(username); i++)
    username = `ghost${i}`
  const id = store.users.insert({
    username,
    name: 'Ghost User',
    email: `${username}@example.com`,
    state: 'deleted',
    admin: false,
    created_at: now,
  })
  store.namespaces.insert({
    kind: 'user',
    path: username,
    full_path: username,
    name: 'Ghost User',
    description: '',
    parent_id: null,
    owner_id: id,
    visibility: 'public',
    created_at: now,
  })
  return id
}
