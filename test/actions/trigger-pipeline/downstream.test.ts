import {
  followDownstream,
  nodeName,
  walk,
  type BridgeLike,
  type DownstreamSource,
} from '../../../src/actions/trigger-pipeline/downstream.js'
import { downstreamFailures } from '../../../src/actions/trigger-pipeline/after-pipeline.js'

const url = (p: number, what: string) => `http://gitlab.test/p${p}/-/${what}`
const bridge = (
  id: number,
  name: string,
  status: string,
  down?: [number, number, string],
  allow = false,
): BridgeLike => ({
  id,
  name,
  status,
  allow_failure: allow,
  web_url: url(1, `jobs/${id}`),
  downstream_pipeline: down
    ? { id: down[1], project_id: down[0], status: 'running', web_url: url(down[0], `pipelines/${down[1]}`) }
    : null,
})

/** A tree: pipeline 10 (project 1) -> depend child 11 (failed) -> grandchild 12; a non-depend multi-project 20 (project 2, failed). */
function source(): DownstreamSource & { calls: string[] } {
  const calls: string[] = []
  const statuses: Record<number, string> = { 11: 'failed', 12: 'failed', 20: 'failed' }
  const bridges: Record<number, BridgeLike[]> = {
    10: [bridge(1, 'child', 'failed', [1, 11, 'failed']), bridge(2, 'deploy', 'success', [2, 20, 'failed'])],
    11: [bridge(3, 'grandchild', 'failed', [1, 12, 'failed'], true)],
    12: [],
    20: [bridge(4, 'manual-bridge', 'manual')],
  }
  return {
    calls,
    bridges: async (p, id) => (calls.push(`bridges ${p}/${id}`), bridges[id] ?? []),
    wait: async (p, id) => {
      calls.push(`wait ${p}/${id}`)
      if (id === 12 && p !== 1) throw new Error('404')
      return { id, project_id: p, status: statuses[id] ?? 'success', web_url: url(p, `pipelines/${id}`) }
    },
    failedJobs: async (p, id) => {
      calls.push(`jobs ${p}/${id}`)
      return [
        {
          id: id * 100,
          name: `unit-${id}`,
          stage: 'test',
          web_url: url(p, `jobs/${id * 100}`),
          allow_failure: false,
        },
        { id: id * 100 + 1, name: 'lint', stage: 'test', web_url: url(p, 'jobs/1'), allow_failure: true },
      ]
    },
  }
}

describe('followDownstream', () => {
  it("follows child and multi-project pipelines recursively, with GitLab's rule of what counts", async () => {
    const src = source()
    const tree = await followDownstream(src, 1, 10)
    const flat = [...walk(tree)].map((n) => [
      nodeName(n),
      n.pipeline?.status,
      n.counts,
      n.failedJobs.map((j) => j.name),
    ])
    expect(flat).toEqual([
      ["child pipeline 11 (via 'child')", 'failed', true, ['unit-11']],
      ["child pipeline 12 (via 'grandchild')", 'failed', false, ['unit-12']],
      ["multi-project pipeline 20 (via 'deploy')", 'failed', false, ['unit-20']],
      ["child pipeline (none) (via 'manual-bridge')", undefined, false, []],
    ])
    expect(src.calls).toEqual([
      'bridges 1/10',
      'wait 1/11',
      'jobs 1/11',
      'bridges 1/11',
      'wait 1/12',
      'jobs 1/12',
      'bridges 1/12',
      'wait 2/20',
      'jobs 2/20',
      'bridges 2/20',
    ])
  })

  it('stops at the depth and pipeline limits, saying so', async () => {
    const tree = await followDownstream(source(), 1, 10, { depth: 1 })
    expect([...walk(tree)].map((n) => n.note)).toEqual([
      undefined,
      'not followed: too deep or too many downstream pipelines',
      undefined,
      undefined,
    ])
    const few = await followDownstream(source(), 1, 10, { pipelines: 1 })
    expect([...walk(few)].filter((n) => n.note).length).toBe(2)
  })

  it('reports a pipeline it cannot read as a note, and a wait that ended early', async () => {
    const src = source()
    src.wait = async (p, id) => {
      if (id === 11) throw new Error('GitLab answered 404 Not Found')
      return { id, project_id: p, status: 'running', web_url: url(p, `pipelines/${id}`) }
    }
    const tree = await followDownstream(src, 1, 10)
    expect(tree.map((n) => n.note)).toEqual([
      'could not be read: GitLab answered 404 Not Found',
      'still running when the wait ended',
    ])
  })
})

describe('downstreamFailures', () => {
  it('names what failed the parent: a failed child with its jobs, a bridge that started nothing', async () => {
    const tree = await followDownstream(source(), 1, 10)
    tree.push({
      bridge: { ...bridge(5, 'deploy', 'failed'), failure_reason: 'downstream_pipeline_creation_failed' },
      kind: 'child',
      counts: true,
      failedJobs: [],
      children: [],
    })
    expect(downstreamFailures(tree)).toEqual([
      "child pipeline 11 (via 'child') failed: job 'unit-11' (failed)",
      "bridge 'deploy' failed (downstream_pipeline_creation_failed)",
    ])
    expect(downstreamFailures(undefined)).toEqual([])
  })
})
