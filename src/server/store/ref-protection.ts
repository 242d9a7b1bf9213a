import { refMatcher } from '../domain/branch-filter.js'
import type { ProtectedBranchRow, ProtectedTagRow, RepositoryTables } from './repository.js'

/** The protection of a branch: its own, or the first wildcard one that matches. */
export function branchProtection(
  repo: RepositoryTables,
  projectId: number,
  branch: string,
): ProtectedBranchRow | undefined {
  return (
    repo.protectedBranch(projectId, branch) ??
    repo.protectedBranches(projectId).find((p) => p.name.includes('*') && refMatcher(p.name).test(branch))
  )
}

/** The protected tags whose name (exact or wildcard) matches `tag` (`ProtectedTag.matching`). */
export function tagProtections(repo: RepositoryTables, projectId: number, tag: string): ProtectedTagRow[] {
  return repo
    .protectedTags(projectId)
    .filter((p) => p.name === tag || (p.name.includes('*') && refMatcher(p.name).test(tag)))
}

/** `Project#protected_for?(ref)`: a protected branch, or a tag a protection matches. */
export function refProtected(repo: RepositoryTables, projectId: number, ref: string, tag: boolean): boolean {
  return tag
    ? tagProtections(repo, projectId, ref).length > 0
    : branchProtection(repo, projectId, ref) !== undefined
}
