import { writeTree } from '../../src/server/git/commit-files.js'
import { gitObject } from '../../src/server/git/objects.js'
import { commitObject, signatureAt } from '../../src/server/git/trees.js'
import type { TestServer } from './server.js'

/**
 * Commits `files` (path → text) on top of nothing as the new head of `branch` of `projectPath`, straight
 * into the server's store; answers the commit's SHA. For CI tests that need a `.gitlab-ci.yml` at a
 * commit without going through the files API.
 */
export function commitFiles(
  t: TestServer,
  projectPath: string,
  branch: string,
  files: Record<string, string>,
): string {
  const store = t.server.store
  const project = store.projects.byPath(projectPath)
  if (!project) throw new Error(`no project ${projectPath}`)
  const entries = new Map(
    Object.entries(files).map(([path, text]) => {
      const blob = gitObject('blob', Buffer.from(text, 'utf8'))
      store.gitObjects.put(blob)
      return [path, { mode: '100644', sha: blob.sha }]
    }),
  )
  const who = signatureAt('CI Test', 'ci@example.com', '2026-03-01T09:00:00Z')
  const commit = commitObject({
    tree: writeTree(store.gitObjects, entries),
    parents: [],
    author: who,
    committer: who,
    message: 'CI\n',
  })
  store.gitObjects.put(commit)
  store.repository.addCommit(project.id, commit.sha)
  store.repository.setRef(project.id, 'branch', branch, commit.sha)
  return commit.sha
}
