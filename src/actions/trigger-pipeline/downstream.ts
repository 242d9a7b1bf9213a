/*
 * The pipelines a pipeline started: its trigger jobs (bridges, `GET /projects/:id/pipelines/:id/bridges`,
 * `lib/api/ci/pipelines.rb`, entity `lib/api/entities/ci/bridge.rb` with `downstream_pipeline`) and
 * the child (`trigger: include`) and multi-project (`trigger: project`) pipelines they created,
 * followed recursively and waited for. Reads only: what counts as failure is GitLab's rule below.
 *
 * GitLab's rule (doc/ci/pipelines/downstream_pipelines.md, `Ci::Bridge`): a bridge without
 * `strategy: depend` succeeds as soon as it has created its downstream pipeline, whatever that
 * pipeline does later; with `strategy: depend` (or `mirror`) the bridge takes the downstream
 * pipeline's status, so a failed downstream fails the bridge, and a failed bridge fails the parent
 * unless it has `allow_failure`. So a downstream failure counts exactly when its bridge failed and
 * may not: the parent's own status already says so, and the tree says which one it was.
 */

/** What the follower needs of a bridge (the Bridge entity has more). */
export interface BridgeLike {
  id: number
  name: string
  stage?: string
  status: string
  allow_failure: boolean
  web_url: string
  failure_reason?: string | null
  downstream_pipeline: DownstreamPipelineLike | null
}

/** The `downstream_pipeline` of a bridge (`Entities::Ci::PipelineBasic`). */
export interface DownstreamPipelineLike {
  id: number
  project_id: number
  status: string
  web_url: string
  ref?: string | null
  source?: string | null
}

/** A failed job, as the jobs list gives it. */
export interface FailedJobLike {
  id: number
  name: string
  stage: string
  web_url: string
  failure_reason?: string | null
  allow_failure: boolean
}

/** How the follower reads GitLab (the client, in after-pipeline.ts; fakes in unit tests). */
export interface DownstreamSource {
  bridges(projectId: number, pipelineId: number): Promise<BridgeLike[]>
  /** Waits for the pipeline to end (or stop at manual) and returns it as it then is. */
  wait(projectId: number, pipelineId: number): Promise<DownstreamPipelineLike>
  failedJobs(projectId: number, pipelineId: number): Promise<FailedJobLike[]>
}

/** One bridge of a pipeline and what it started. */
export interface DownstreamNode {
  bridge: BridgeLike
  /** `child` (same project, `trigger: include`) or `multi-project` (`trigger: project`). */
  kind: 'child' | 'multi-project'
  /** Undefined when the bridge created none (it failed first, or waits as a manual job). */
  pipeline?: DownstreamPipelineLike
  /** Whether a failure here fails the parent: the bridge failed and may not (GitLab's rule above). */
  counts: boolean
  failedJobs: FailedJobLike[]
  children: DownstreamNode[]
  /** Why it was not read or followed further (an access token that cannot see the project, the limits). */
  note?: string
}

export interface FollowLimits {
  /** Levels followed below the triggered pipeline (GitLab allows two levels of child pipelines). Default 4. */
  depth?: number
  /** Downstream pipelines followed in all. Default 50. */
  pipelines?: number
}

const FAILED = new Set(['failed'])
const UNFINISHED = new Set([
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'scheduled',
])

/**
 * Follows the bridges of pipeline `pipelineId` of project `projectId` down the tree: each
 * downstream pipeline is waited for, its failed jobs read, its own bridges followed. A pipeline
 * that cannot be read becomes a node with a `note` instead of an error: the parent's outcome is
 * known, and the tree reports what it could.
 */
export async function followDownstream(
  source: DownstreamSource,
  projectId: number,
  pipelineId: number,
  limits: FollowLimits = {},
): Promise<DownstreamNode[]> {
  const budget = { pipelines: limits.pipelines ?? 50 }
  return follow(source, projectId, pipelineId, limits.depth ?? 4, budget)
}

async function follow(
  source: DownstreamSource,
  projectId: number,
  pipelineId: number,
  depth: number,
  budget: { pipelines: number },
): Promise<DownstreamNode[]> {
  const nodes: DownstreamNode[] = []
  for (const bridge of await source.bridges(projectId, pipelineId)) {
    const down = bridge.downstream_pipeline
    const node: DownstreamNode = {
      bridge,
      kind: down && down.project_id !== projectId ? 'multi-project' : 'child',
      pipeline: down ?? undefined,
      counts: FAILED.has(bridge.status) && !bridge.allow_failure,
      failedJobs: [],
      children: [],
    }
    nodes.push(node)
    if (!down) continue
    if (depth <= 0 || budget.pipelines <= 0) {
      node.note = 'not followed: too deep or too many downstream pipelines'
      continue
    }
    budget.pipelines--
    try {
      node.pipeline = await source.wait(down.project_id, down.id)
      if (UNFINISHED.has(node.pipeline.status))
        node.note = `still ${node.pipeline.status} when the wait ended`
      if (FAILED.has(node.pipeline.status))
        node.failedJobs = (await source.failedJobs(down.project_id, down.id)).filter((j) => !j.allow_failure)
      node.children = await follow(source, down.project_id, down.id, depth - 1, budget)
    } catch (err) {
      node.note = `could not be read: ${(err as Error).message}`
    }
  }
  return nodes
}

/** Every node of the tree, parents before their children. */
export function* walk(nodes: readonly DownstreamNode[]): Generator<DownstreamNode> {
  for (const node of nodes) {
    yield node
    yield* walk(node.children)
  }
}

/** Short name of a node for logs and the summary: `child pipeline 13 (via 'deploy')`. */
export const nodeName = (n: DownstreamNode) =>
  `${n.kind} pipeline ${n.pipeline?.id ?? '(none)'} (via '${n.bridge.name}')`
