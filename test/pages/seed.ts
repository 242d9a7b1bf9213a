import { tokens } from '../support/seeds.js'

/** The trigger token of acme/widgets. */
export const PAGES_TRIGGER = `glptt-${'9f8e'.repeat(10)}`

/**
 * The pages' world: a public project with an issue whose title and description try markup, labels,
 * a milestone, time tracking and notes; a private project; a user who is no member; the admin.
 */
export const pagesSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${tokens.root} }
  - { username: dana, name: Dana Developer, token: ${tokens.developer} }
  - { username: otto, name: Otto Outsider, token: ${tokens.outsider} }
groups:
  - path: acme
    name: ACME
    visibility: public
    members: { dana: developer }
  - path: acme/platform
    name: Platform
    visibility: public
projects:
  - path: acme/widgets
    name: Widgets
    description: "Widgets <b>for</b> everyone"
    visibility: public
    refs: [main]
    ci_jobs: [build, test]
    triggers: [ { description: ci, owner: root, token: ${PAGES_TRIGGER} } ]
    labels:
      - { name: bug, color: "#d9534f" }
    milestones:
      - { title: v1.0 }
    issues:
      - title: "<script>alert(1)</script> Crash"
        description: "First line\\nsecond <img src=x onerror=alert(2)>\\n\\nNew paragraph"
        author: dana
        assignees: [dana]
        labels: [bug]
        milestone: v1.0
        time_estimate: 3h
        time_spent: 1h 30m
      - { title: Closed one, author: dana, state: closed }
  - path: acme/platform/secret
    name: Secret
    visibility: private
    issues:
      - { title: Hidden issue, author: dana }
`
