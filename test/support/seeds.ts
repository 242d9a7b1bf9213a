/** Seeds for the tests, in the seed file format of docs/seed.md. */

export const tokens = {
  root: 'glpat-root-token',
  owner: 'glpat-owner-token',
  maintainer: 'glpat-maintainer-token',
  developer: 'glpat-developer-token',
  reporter: 'glpat-reporter-token',
  guest: 'glpat-guest-token',
  outsider: 'glpat-outsider-token',
} as const
export type Role = keyof typeof tokens

/**
 * The administrator `root` (token `glpat-root-token`) and a private group `acme`, followed by
 * `rest`: more top-level seed keys, usually `projects:`. The preamble of the crash and transfer tests.
 */
export const rootAndAcme = (rest = '') => `
users:
  - { username: root, admin: true, token: ${tokens.root} }
groups:
  - { path: acme, visibility: private }
${rest}`

/**
 * `acme` (public group) holds one project of each visibility, with five members of the group at
 * every role, and an outsider who belongs to nothing: the access matrix of the foundation issue.
 */
export const matrixSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${tokens.root} }
  - { username: olivia, name: Olivia Owner, token: ${tokens.owner} }
  - { username: mark, name: Mark Maintainer, token: ${tokens.maintainer} }
  - { username: dana, name: Dana Developer, token: ${tokens.developer} }
  - { username: rita, name: Rita Reporter, token: ${tokens.reporter} }
  - { username: gus, name: Gus Guest, token: ${tokens.guest} }
  - { username: otto, name: Otto Outsider, token: ${tokens.outsider} }
groups:
  - path: acme
    name: ACME
    visibility: public
    members: { olivia: owner, mark: maintainer, dana: developer, rita: reporter, gus: guest }
projects:
  - path: acme/private-proj
    visibility: private
    issues:
      - { title: Private one, author: dana }
  - path: acme/internal-proj
    visibility: internal
    issues:
      - { title: Internal one, author: dana }
  - path: acme/public-proj
    visibility: public
    issues:
      - { title: Public one, author: dana }
      - { title: Secret one, author: dana, confidential: true }
`

/** One private project with labels, milestones and varied issues, for filters and ordering. */
export const widgetsSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
  - { username: bob, name: Bob, token: glpat-bob-token }
  - { username: carol, name: Carol, token: glpat-carol-token }
groups:
  - path: acme
    name: ACME
    visibility: private
    members: { alice: maintainer }
  - path: acme/platform
    name: Platform
    visibility: private
projects:
  - path: acme/widgets
    name: Widgets
    visibility: private
    members: { bob: developer }
    labels:
      - { name: bug, color: "#d9534f" }
      - { name: feature, color: "#5cb85c" }
      - { name: docs, color: "#f0ad4e", description: Documentation }
    milestones:
      - { title: v1.0, state: active, start_date: 2020-01-01, due_date: 2099-12-31 }
      - { title: v2.0, state: active, start_date: 2099-01-01, due_date: 2100-06-30 }
    issues:
      - title: Crash on start
        description: "- [x] reproduce\\n- [ ] fix"
        author: alice
        assignees: [bob]
        labels: [bug]
        milestone: v1.0
        created_at: 2026-01-01T10:00:00.000Z
        due_date: 2026-02-01
        time_estimate: 3h 30m
        time_spent: 1h
      - title: Add dark mode
        description: Users want a dark theme
        author: bob
        labels: [feature]
        created_at: 2026-01-02T10:00:00.000Z
      - title: Document the API
        author: alice
        labels: [docs, feature]
        milestone: v2.0
        state: closed
        created_at: 2026-01-03T10:00:00.000Z
      - title: Leaked credentials
        author: bob
        confidential: true
        labels: [bug]
        created_at: 2026-01-04T10:00:00.000Z
      - title: Outage in production
        author: alice
        issue_type: incident
        assignees: [alice]
        created_at: 2026-01-05T10:00:00.000Z
  - path: acme/platform/api
    visibility: private
    issues:
      - { title: Platform issue, author: alice, labels: [] }
`

/**
 * A valid-looking seed whose aliases expand to `width`² label names (one project, `width` aliases of
 * an issue whose labels are `width` aliases of one name): about 35 KB at the default width, the alias
 * bomb that ran the server out of heap while it listed 16 million duplicate labels.
 */
export function aliasBombSeed(width = 4400): string {
  const list = (first: string, rest: string) =>
    `[${[first, ...Array<string>(width - 1).fill(rest)].join(', ')}]`
  const issues = list(`&i { title: t, labels: ${list('&l x', '*l')} }`, '*i')
  return `${rootAndAcme()}projects:\n  - { path: acme/bomb, labels: [{ name: x }], issues: ${issues} }\n`
}

/**
 * `root` and `alice` (token `glpat-alice-token`), owner of the private group `acme` and so of its
 * private project `acme/widgets`, which holds one issue of alice's per title: the world of the
 * request log's, the faults' and the client's retries' tests.
 */
export const aliceWidgets = (...titles: string[]) => `
users:
  - { username: root, admin: true, token: ${tokens.root} }
  - { username: alice, token: glpat-alice-token }
groups:
  - { path: acme, visibility: private, members: { alice: owner } }
projects:
  - path: acme/widgets
    visibility: private
    issues: [ ${titles.map((title) => `{ title: ${title}, author: alice }`).join(', ')} ]
`

/** The tokens of `plannerAndGuest`'s people. */
export const plannerTokens = {
  root: tokens.root,
  planner: 'glpat-pia-token',
  guest: 'glpat-gus-token',
  outsider: 'glpat-otto-token',
} as const

/**
 * The administrator `root`, `pia` (Planner of the private group `acme`), `gus` (its Guest) and `otto`
 * (an outsider), tokens in `plannerTokens`; `moreGroups` goes on with the `groups:` list (its items and
 * the top-level keys after it, usually `projects:`). The group labels' and milestones' people.
 */
export const plannerAndGuest = (moreGroups: string) => `
users:
  - { username: root, admin: true, token: ${plannerTokens.root} }
  - { username: pia, token: ${plannerTokens.planner} }
  - { username: gus, token: ${plannerTokens.guest} }
  - { username: otto, token: ${plannerTokens.outsider} }
groups:
  - { path: acme, visibility: private, members: { pia: planner, gus: guest } }
${moreGroups}`

/**
 * An internal group `corp` with two internal projects (`corp/member` has extin as Reporter) and a public
 * group `pub` with a public project, each with one issue; users extout and extin (whom the external-user
 * tests make external) and bob, a normal user: tokens `glpat-ext-out-token`, `glpat-ext-in-token`,
 * `glpat-bob-token`, root's `glpat-root-token`.
 */
export const externalUsersSeed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: extout, token: glpat-ext-out-token }
  - { username: extin, token: glpat-ext-in-token }
  - { username: bob, token: glpat-bob-token }
groups:
  - { path: corp, visibility: internal }
  - { path: pub, visibility: public }
projects:
  - path: corp/shared
    visibility: internal
    issues: [{ title: Shared issue, author: root }]
  - path: corp/member
    visibility: internal
    members: { extin: reporter }
    issues: [{ title: Member issue, author: root }]
  - path: pub/open
    visibility: public
    issues: [{ title: Open issue, author: root }]
`
