import { tokens } from '../support/seeds.js'

/**
 * The repository pages' world: a public project whose files are a Markdown README trying markup, a
 * file whose name and text are hostile HTML, an HTML page and nested folders; a private project with
 * a file and a Guest (who may see the project but not its code); a member and a user who is none.
 */
export const repositorySeed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${tokens.root} }
  - { username: dana, name: Dana Developer, token: ${tokens.developer} }
  - { username: otto, name: Otto Outsider, token: ${tokens.outsider} }
  - { username: gus, name: Gus Guest, token: ${tokens.guest} }
groups:
  - { path: acme, name: ACME, visibility: public, members: { dana: maintainer } }
projects:
  - path: acme/widgets
    name: Widgets
    visibility: public
    branches: [main]
    tags: [v1.0]
    files:
      README.md: |
        # Widgets <script>alert(1)</script>

        Build with \`make all\` and <b>enjoy</b>.

        - first item
        - [a link](javascript:alert(2))

        \`\`\`sh
        make <all>
          indented
        \`\`\`
      "docs/<img src=x onerror=alert(3)>.txt": |
        <script>alert(4)</script>
        second & "line"
      site/index.html: "<html><body><script>alert(5)</script></body></html>"
      src/lib/deep.txt: deep
  - path: acme/secret
    name: Secret
    visibility: private
    members: { gus: guest }
    branches: [main]
    files:
      README.md: Top secret
`
