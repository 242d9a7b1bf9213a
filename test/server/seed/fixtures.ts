/** A seed using every field docs/seed.md describes, with its comments: the contract outside tests rely on. */
export const designSeed = `
users:
  - username: root          # required, unique
    name: Administrator
    email: root@example.com
    admin: true             # default false
    token: glpat-root-token # a personal access token accepted in PRIVATE-TOKEN / Authorization: Bearer
  - username: alice
    token: glpat-alice-token
  - username: bob
    token: glpat-bob-token
groups:
  - path: acme              # full path; a nested group is acme/platform
    name: ACME
    visibility: private     # public | internal | private (default private)
    members: { alice: maintainer }   # guest | reporter | developer | maintainer | owner
projects:
  - path: acme/widgets      # namespace full path (a group, or a username) + project path
    name: Widgets
    description: Widget factory
    visibility: private
    archived: false
    members: { bob: developer }      # inherited group membership applies too
    default_branch: main
    branches: [main, develop]        # branches that exist (besides default_branch)
    refs: [hotfix]                   # the older name of branches:
    tags: [v1.0.0]                   # tags that exist: pipelines on them report tag: true
    ci_config: true                  # the project has a CI configuration at its refs
    ci_jobs: [build, test]           # jobs of every pipeline (default [build])
    ci_outcome: success              # success | failed | canceled | manual (default success)
    ci_job_duration: 2s              # how long each simulated job runs (default 2s)
    labels: [ { name: bug, color: "#d9534f", description: Something is broken } ]
    milestones: [ { title: v1.0, state: active, start_date: 2026-11-01, due_date: 2026-12-31 } ]
    issues:
      - title: Crash on start
        description: "- [x] reproduce\\n- [ ] fix"
        author: alice
        assignees: [bob]
        labels: [bug]
        milestone: v1.0
        state: opened                # opened | closed
        confidential: false
        issue_type: issue            # issue | incident | test_case | task
        due_date: 2026-12-01
        created_at: 2026-11-02T10:00:00.000Z
        time_estimate: 3h 30m
        time_spent: 1h
    merge_requests:
      - title: Fix crash
        author: bob
        source_branch: fix-crash
        target_branch: main
        state: opened                # opened | merged | closed
        closes_issues: [1]           # issue iids closed when merged
        mentions_issues: [1]         # issue iids referenced (related)
    triggers: [ { description: deploy, owner: alice, token: glptt-0123456789abcdef0123 } ]
aliases: [ { name: widgets, project: acme/widgets } ]
`
