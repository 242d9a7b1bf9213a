import { validRefName } from './git-ref-names.js'

/** `WebHook.branch_filter_strategies`. */
export type BranchFilterStrategy = 'wildcard' | 'regex' | 'all_branches'

/** `WebHooks::WildcardBranchFilterValidator`: the longest filter a hook keeps. */
const MAX_FILTER_LENGTH = 4000

/** `RefMatcher`: `*` stands for any run of characters, `/` included; otherwise the name itself. */
export const refMatcher = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*')}$`,
  )

/**
 * Why GitLab refuses a filter (`WildcardBranchFilterValidator`, `UntrustedRegexpValidator`), or
 * undefined when it takes it. A blank filter (all branches) is always taken.
 */
export function branchFilterError(filter: string, strategy: BranchFilterStrategy): string | undefined {
  const value = filter.trim().replace(/\s+/g, ' ')
  if (value === '' || strategy === 'all_branches') return undefined
  if (strategy === 'regex') {
    try {
      new RegExp(value)
      return undefined
    } catch (err) {
      return `not valid RE2 syntax: ${(err as Error).message}`
    }
  }
  if (!validRefName(value.replace(/\*/g, 'x'))) return 'is not a valid branch name'
  if (value.length > MAX_FILTER_LENGTH) return 'is longer than the allowed length of 4000 characters.'
  return undefined
}

/**
 * `WebHooks::ActiveHookFilter#matches?` for a push to `branch`: every branch when the strategy is
 * `all_branches` or the filter is blank; else the wildcard pattern, or the regex found anywhere in the
 * name (`Gitlab::UntrustedRegexp#match?`).
 */
export function branchFilterMatches(filter: string | null, strategy: string, branch: string): boolean {
  const value = filter?.trim() ?? ''
  if (strategy === 'all_branches' || value === '') return true
  if (strategy === 'regex') {
    try {
      return new RegExp(value).test(branch)
    } catch {
      return false
    }
  }
  return refMatcher(value).test(branch)
}
