import { inspectDb } from '../../../src/server/store/inspect.js'
import type { TestServer } from '../../support/server.js'

/** The members tests' world: a group, a subgroup and a project in each, members at every level. */
export const TOKENS = {
  root: 'glpat-root-token',
  olivia: 'glpat-olivia-token',
  mark: 'glpat-mark-token',
  pat: 'glpat-pat-token',
  rita: 'glpat-rita-token',
  otto: 'glpat-otto-token',
  dana: 'glpat-dana-token',
} as const

export const membersSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${TOKENS.root} }
  - { username: olivia, name: Olivia Owner, email: olivia@example.com, token: ${TOKENS.olivia} }
  - { username: mark, name: Mark Maintainer, token: ${TOKENS.mark} }
  - { username: pat, name: Pat Project, token: ${TOKENS.pat} }
  - { username: rita, name: Rita Reporter, token: ${TOKENS.rita} }
  - { username: otto, name: Otto Outsider, token: ${TOKENS.otto} }
  - { username: dana, name: Dana Dev, token: ${TOKENS.dana} }
groups:
  - { path: acme, name: Acme, members: { olivia: owner, mark: maintainer } }
  - { path: acme/sub, name: Sub, members: { dana: developer, mark: developer } }
projects:
  - path: acme/app
    members: { pat: maintainer }
    issues: [ { title: First, author: olivia, assignees: [pat] } ]
  - path: acme/sub/lib
    members: { rita: reporter }
  - path: pat/tools
`

/** The store's memberships, for checks that a refused request changed nothing. */
export function memberRows(t: TestServer) {
  return inspectDb(t.server.store)
    .prepare(
      `SELECT m.source_type, m.source_id, u.username, m.access_level, t.expires_at, t.created_by_id
       FROM members m JOIN users u ON u.id = m.user_id
       LEFT JOIN member_terms t USING (source_type, source_id, user_id) ORDER BY m.rowid`,
    )
    .all()
}

/** A user's id by username. */
export function userId(t: TestServer, username: string): number {
  return (
    inspectDb(t.server.store).prepare('SELECT id FROM users WHERE username = ?').get(username) as {
      id: number
    }
  ).id
}
