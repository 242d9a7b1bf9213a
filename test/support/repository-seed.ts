export const MARK = 'glpat-mark-token' // maintainer
export const DANA = 'glpat-dana-token' // developer
export const RITA = 'glpat-rita-token' // reporter
export const GUS = 'glpat-gus-token' // guest
export const OTTO = 'glpat-otto-token' // not a member

/** Group acme (private): maintainer mark, developer dana, reporter rita, guest gus; outsider otto. */
export const repositorySeed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: mark, name: Mark Maintainer, email: mark@example.com, token: ${MARK} }
  - { username: dana, name: Dana Developer, email: dana@example.com, token: ${DANA} }
  - { username: rita, name: Rita Reporter, token: ${RITA} }
  - { username: gus, name: Gus Guest, token: ${GUS} }
  - { username: otto, name: Otto Outsider, token: ${OTTO} }
groups:
  - path: acme
    visibility: private
    members: { mark: maintainer, dana: developer, rita: reporter, gus: guest }
projects:
  - path: acme/app
    branches: [develop]
  - path: acme/ci
    branches: [develop]
    tags: [v0]
    files:
      .gitlab-ci.yml: |
        build:
          script: [make]
      docs/README.md: "# Docs"
`
