import type { SeedProject } from '../../schema/seed.js'
import type { SeedPath } from './problem.js'

/** The keys that describe a repository: a fork's is its source's, copied as `POST /projects/:id/fork` does. */
const REPOSITORY_KEYS = ['files', 'branches', 'tags', 'refs', 'default_branch'] as const

/**
 * A project's `forked_from`: a project listed before it (`listedBefore`, which counts the ones the
 * server holds), not itself, and no repository of its own.
 */
export function checkForkedFrom(
  report: (path: SeedPath, message: string) => void,
  at: SeedPath,
  project: SeedProject,
  listedBefore: (path: string) => boolean,
): void {
  const source = project.forked_from ?? ''
  if (source.toLowerCase() === project.path.toLowerCase())
    report([...at, 'forked_from'], 'a project cannot be a fork of itself')
  else if (!listedBefore(source))
    report([...at, 'forked_from'], `unknown project ${source} (not a project listed before this one)`)
  for (const key of REPOSITORY_KEYS)
    if (project[key] !== undefined)
      report([...at, key], `a fork's repository is its source's (${source}): it takes no ${key}`)
}
