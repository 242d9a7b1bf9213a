import type { TestServer } from './server.js'

/**
 * Commits `files` (path → text) through `POST /repository/commits` as the new head of `branch` of
 * `projectPath`, made afresh from `main` each time (`force`), by a maintainer; answers the commit's SHA.
 * The message says `[skip ci]`, so the commit makes no push pipeline: a test triggers the pipelines it wants.
 */
export async function commitFiles(
  t: TestServer,
  projectPath: string,
  branch: string,
  files: Record<string, string>,
  token = 'glpat-mark-token',
): Promise<string> {
  const res = await t.http('POST', `/api/v4/projects/${encodeURIComponent(projectPath)}/repository/commits`, {
    token,
    json: {
      branch,
      start_branch: 'main',
      force: true,
      commit_message: 'CI configuration [skip ci]',
      actions: Object.entries(files).map(([file_path, content]) => ({
        action: 'create',
        file_path,
        content,
      })),
    },
  })
  if (res.status !== 201) throw new Error(`commit failed: ${res.status} ${res.text}`)
  return (res.body as { id: string }).id
}
