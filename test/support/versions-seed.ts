import type { TestServer } from './server.js'

/** Tokens of the versions seed: a private group `acme` with one member at each role, and an outsider. */
export const vt = {
  root: 'glpat-root-token',
  owner: 'glpat-owner-token',
  maintainer: 'glpat-maintainer-token',
  developer: 'glpat-developer-token',
  outsider: 'glpat-outsider-token',
} as const

/** Private group and project, so that outsiders get 404 and members their role's answer. */
export const versionsSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${vt.root} }
  - { username: olivia, token: ${vt.owner} }
  - { username: mark, token: ${vt.maintainer} }
  - { username: dana, token: ${vt.developer} }
  - { username: otto, token: ${vt.outsider} }
groups:
  - { path: acme, visibility: private, members: { olivia: owner, mark: maintainer, dana: developer } }
projects:
  - path: acme/widgets
    visibility: private
    issues:
      - { title: Plain, description: No checklist here, author: dana, assignees: [mark] }
      - { title: Checklist, description: "- [x] one\\n- [ ] two", author: dana }
      - { title: Empty, author: dana }
`

export const PROJECT = '/api/v4/projects/acme%2Fwidgets'
export const GROUP = '/api/v4/groups/acme'
export const RESET = {
  instance: '/api/v4/runners/reset_registration_token',
  project: `${PROJECT}/runners/reset_registration_token`,
  group: `${GROUP}/runners/reset_registration_token`,
} as const
export type ResetScope = keyof typeof RESET

/** The stored digest of a scope's registration token (undefined before the first reset). */
export function storedToken(t: TestServer, scope: ResetScope): string | undefined {
  const { store } = t.server
  const runners = store.runners
  if (scope === 'instance') return runners.registrationToken({ kind: 'instance' })?.token_digest
  if (scope === 'project')
    return runners.registrationToken({ kind: 'project', id: store.projects.byPath('acme/widgets')!.id })
      ?.token_digest
  return runners.registrationToken({ kind: 'group', id: store.namespaces.byPath('acme')!.id })?.token_digest
}

/** How many runners the store holds. */
export const runnerCount = (t: TestServer) => t.server.store.runners.runnerCount()
