import type { RefKind } from '../store/projects.js'
import type { Store } from '../store/index.js'

export interface ResolvedRef {
  /** The short name a pipeline records (`Gitlab::Git.ref_name`). */
  name: string
  kind: RefKind
  sha: string
}

const FULL = /^refs\/(tags|heads|remotes)\//
/** `refs/remotes/x` is stripped by `ref_name` but is neither `branch_ref?` nor `tag_ref?`. */
const KIND_OF_PREFIX: Record<string, RefKind | undefined> = { heads: 'branch', tags: 'tag' }

/**
 * The ref a pipeline is created for, as `Gitlab::Ci::Pipeline::Chain::Command` resolves it
 * (lib/gitlab/ci/pipeline/chain/command.rb): a short name may be a branch or a tag, and one that
 * is both is `ambiguous` (`project.repository.ambiguous_ref?`, which
 * lib/gitlab/ci/pipeline/chain/validate/repository.rb refuses as `Ref is ambiguous`); a full name
 * (`refs/heads/x`, `refs/tags/x`) picks its kind, and is never ambiguous. Undefined: no such ref.
 */
export function resolveRef(
  store: Store,
  projectId: number,
  originRef: string,
): ResolvedRef | 'ambiguous' | undefined {
  const full = FULL.exec(originRef)
  const name = full ? originRef.slice(full[0].length) : originRef
  const found = store.pipelines.refsNamed(projectId, name)
  const wanted = full ? found.filter((r) => r.kind === KIND_OF_PREFIX[full[1]!]) : found
  if (wanted.length > 1) return 'ambiguous'
  const [ref] = wanted
  return ref && { name, kind: ref.kind, sha: ref.sha }
}

/**
 * The ref `Chain::Validate::Abilities#allowed_to_write_ref?` checks before the ref is validated
 * (lib/gitlab/ci/pipeline/chain/command.rb `branch_exists?`, then `tag_exists?`): a branch of the
 * name (a short name, or `refs/heads/`), else a tag (a short name, or `refs/tags/`). A short name that is
 * both is checked as the branch, so an ambiguous ref is refused for the caller's rights before `Ref is
 * ambiguous`. Undefined: no such ref (allowed there, refused later as `Reference not found`).
 */
export function refToWrite(store: Store, projectId: number, originRef: string): ResolvedRef | undefined {
  const full = FULL.exec(originRef)
  const name = full ? originRef.slice(full[0].length) : originRef
  const found = store.pipelines.refsNamed(projectId, name)
  const of = (kind: RefKind) =>
    full && KIND_OF_PREFIX[full[1]!] !== kind ? undefined : found.find((r) => r.kind === kind)
  const ref = of('branch') ?? of('tag')
  return ref && { name, kind: ref.kind, sha: ref.sha }
}
