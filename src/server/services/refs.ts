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
