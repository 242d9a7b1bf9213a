import type { ObjectSource } from './commit-files.js'
import { history, readCommit } from './history.js'

/** Every commit reachable from `heads` (themselves included) that the store holds. */
export function ancestors(objects: ObjectSource, heads: readonly string[]): Set<string> {
  const seen = new Set<string>()
  const stack = [...heads]
  while (stack.length > 0) {
    const sha = stack.pop()!
    if (seen.has(sha)) continue
    const c = readCommit(objects, sha)
    if (!c) continue
    seen.add(sha)
    stack.push(...c.parents)
  }
  return seen
}

/**
 * The best common ancestor of `first` and the others, as `git merge-base first other...` finds it
 * (the others taken as one hypothetical merge of them): the newest commit, by committer date, of
 * `first`'s history that one of the others reaches. Undefined when they share none. Where git finds
 * several best ancestors (criss-cross merges) this takes the newest of them.
 */
export function mergeBase(
  objects: ObjectSource,
  first: string,
  others: readonly string[],
): string | undefined {
  const reached = ancestors(objects, others)
  for (const c of history(objects, first)) if (reached.has(c.sha)) return c.sha
  return undefined
}
