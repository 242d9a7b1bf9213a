import type { SeedProject } from '../../schema/seed.js'
import type { SeedPath } from './problem.js'

/** The keys that describe a repository: a fork's is its source's, copied as `POST /projects/:id/fork` does. */
const REPOSITORY_KEYS = ['files', 'branches', 'tags', 'refs', 'default_branch'] as const

const RANK: Record<string, number> = { private: 0, internal: 1, public: 2 }

/**
 * A project's `forked_from`: a project listed before it (`visibilityOf` answers the visibility of
 * one listed before or held by the server, undefined for any other), not itself, no more visible
 * than it (`Project#visibility_level_allowed_as_fork`), and no repository of its own.
 */
export function checkForkedFrom(
  report: (path: SeedPath, message: string) => void,
  at: SeedPath,
  project: SeedProject,
  visibilityOf: (path: string) => string | undefined,
): void {
  const source = project.forked_from ?? ''
  const sourceVisibility = visibilityOf(source)
  const visibility = project.visibility ?? 'private'
  if (source.toLowerCase() === project.path.toLowerCase())
    report([...at, 'forked_from'], 'a project cannot be a fork of itself')
  else if (sourceVisibility === undefined)
    report([...at, 'forked_from'], `unknown project ${source} (not a project listed before this one)`)
  else if ((RANK[visibility] ?? 0) > (RANK[sourceVisibility] ?? 0))
    report(
      [...at, 'visibility'],
      `${visibility} is not allowed since the fork source project (${source}) has lower visibility`,
    )
  for (const key of REPOSITORY_KEYS)
    if (project[key] !== undefined)
      report([...at, key], `a fork's repository is its source's (${source}): it takes no ${key}`)
}
