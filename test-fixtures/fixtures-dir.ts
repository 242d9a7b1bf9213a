import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * GitLab export archives kept beside the repository (`../shared/fixtures/gitlab-export`, or
 * `$GITLAB_EXPORT_FIXTURES`): real exports and GitLab's spec fixtures, not shipped with the project.
 */
export const FIXTURES =
  process.env.GITLAB_EXPORT_FIXTURES ?? resolve(__dirname, '../../shared/fixtures/gitlab-export')

/** Jest `globalSetup` of `npm run test:fixtures`: stops at once, saying what is missing. */
export default function requireFixtures(): void {
  if (!existsSync(FIXTURES))
    throw new Error(
      `npm run test:fixtures needs GitLab export fixtures in ${FIXTURES} (real-exports/ and gitlab-spec-fixtures/); set GITLAB_EXPORT_FIXTURES to their folder`,
    )
}
