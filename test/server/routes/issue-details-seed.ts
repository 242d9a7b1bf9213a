/** The seed of the issue sub-resource tests: one role per member, two projects to move between. */

export const T = {
  root: 'glpat-root-token',
  owner: 'glpat-owner-token',
  maintainer: 'glpat-maintainer-token',
  reporter: 'glpat-reporter-token',
  planner: 'glpat-planner-token',
  guest: 'glpat-guest-token',
  outsider: 'glpat-outsider-token',
  dev: 'glpat-dev-token',
} as const

export const P = '/api/v4/projects/acme%2Fwidgets'
export const OTHER = '/api/v4/projects/acme%2Fother'
export const PUBLIC = '/api/v4/projects/acme%2Fpublic'

/**
 * acme (private group): olivia owner, mark maintainer, rita reporter, pam planner, gus guest.
 * acme/widgets (private; dana developer of the project only): 1 issue, 2 issue, 3 incident,
 * 4 confidential (author gus), 5 test case, 6 locked discussion. acme/other: same label and
 * milestone names. acme/public: public, for outsiders. solo/lab: another root namespace.
 */
export const detailSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${T.root} }
  - { username: olivia, name: Olivia Owner, token: ${T.owner} }
  - { username: mark, name: Mark Maintainer, token: ${T.maintainer} }
  - { username: rita, name: Rita Reporter, token: ${T.reporter} }
  - { username: pam, name: Pam Planner, token: ${T.planner} }
  - { username: gus, name: Gus Guest, token: ${T.guest} }
  - { username: otto, name: Otto Outsider, token: ${T.outsider} }
  - { username: dana, name: Dana Developer, token: ${T.dev} }
groups:
  - path: acme
    name: ACME
    visibility: private
    members: { olivia: owner, mark: maintainer, rita: reporter, pam: planner, gus: guest }
  - path: solo
    name: Solo
    visibility: private
    members: { mark: maintainer }
projects:
  - path: acme/widgets
    name: Widgets
    visibility: private
    members: { dana: developer }
    refs: [main]
    labels: [ { name: bug, color: "#d9534f" }, { name: only-here } ]
    milestones: [ { title: v1.0 } ]
    issues:
      - { title: First, author: mark, assignees: [rita], labels: [bug, only-here], milestone: v1.0, time_estimate: 1h, time_spent: 30m }
      - { title: Second, author: rita }
      - { title: Outage, author: mark, issue_type: incident }
      - { title: Secret, author: gus, confidential: true }
      - { title: A test case, author: mark, issue_type: test_case }
      - { title: Locked, author: mark, discussion_locked: true }
    merge_requests:
      - { title: Fix first, author: dana, source_branch: fix-1, closes_issues: [1] }
      - { title: Mention first, author: mark, state: merged, mentions_issues: [1] }
      - { title: Unrelated, author: mark }
  - path: acme/other
    name: Other
    visibility: private
    labels: [ { name: bug, color: "#ff0000" } ]
    milestones: [ { title: v1.0 } ]
    issues:
      - { title: Already here, author: mark }
  - path: acme/public
    name: Public
    visibility: public
    issues:
      - { title: Open to all, author: mark, issue_type: incident }
  - path: solo/lab
    visibility: private
    issues:
      - { title: Lab issue, author: mark }
`
