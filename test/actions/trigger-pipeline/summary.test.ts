import type { Settings } from '../../../src/actions/trigger-pipeline/inputs.js'
import type { TriggerResult } from '../../../src/actions/trigger-pipeline/result.js'
import { renderSummary } from '../../../src/actions/trigger-pipeline/summary.js'
import type { Pipeline } from '../../../src/schema/pipeline.js'

const G = 'http://gitlab.test'
const settings = {
  gitlabUrl: G,
  project: 'acme/app',
  ref: 'main',
  variables: { A: '1' },
  inputs: { environment: 'staging' },
} as unknown as Settings
const pipeline = {
  id: 12,
  iid: 3,
  project_id: 1,
  sha: 'a'.repeat(40),
  status: 'failed',
  web_url: `${G}/acme/app/-/pipelines/12`,
} as Pipeline
const bridge = (name: string, status: string) => ({
  id: 7,
  name,
  status,
  allow_failure: false,
  web_url: `${G}/acme/app/-/jobs/7`,
  downstream_pipeline: null,
})
const unit = {
  id: 31,
  name: 'unit <b>',
  stage: 'test',
  web_url: `${G}/acme/app/-/jobs/31`,
  failure_reason: 'script_failure',
  allow_failure: false,
}

const result: TriggerResult = {
  pipeline,
  waited: true,
  ended: 'final',
  elapsedMs: 5000,
  failedJobs: [],
  failure: 'Pipeline 12 failed.',
  downstream: [
    {
      bridge: bridge('tests', 'failed'),
      kind: 'child',
      pipeline: { id: 13, project_id: 1, status: 'failed', web_url: `${G}/acme/app/-/pipelines/13` },
      counts: true,
      failedJobs: [unit],
      children: [],
    },
    {
      bridge: bridge('docs', 'success'),
      kind: 'multi-project',
      pipeline: { id: 20, project_id: 2, status: 'failed', web_url: 'https://evil.test/x' },
      counts: false,
      failedJobs: [],
      children: [],
    },
  ],
  tails: [
    {
      job: unit,
      where: "child pipeline 13 (via 'tests')",
      lines: ['$ exit 1', 'ERROR: Job failed: exit code 1 <script>'],
    },
  ],
  artifacts: {
    path: '/w/gitlab-artifacts',
    jobs: [{ name: 'build', jobId: 5, folder: 'build', files: 2, bytes: 2048 }],
    missing: ["No job 'x'."],
    errors: [],
  },
}

describe('renderSummary', () => {
  const html = renderSummary(settings, result)

  it("shows the downstream tree with GitLab's verdict on each failure", () => {
    expect(html).toContain('<h3>Downstream pipelines</h3>')
    expect(html).toContain(
      `bridge <code>tests</code> (failed) → ❌ <a href="${G}/acme/app/-/pipelines/13">child pipeline 13</a>: failed (fails the parent)`,
    )
    expect(html).toContain('(does not fail the parent: no strategy: depend)')
    // A link off the configured GitLab is text only.
    expect(html).not.toContain('evil.test')
  })

  it('folds each failed job log into a details block, escaped, with a link to the job', () => {
    expect(html).toContain(
      '<details><summary>❌ unit &#60;b&#62; (test) in child pipeline 13 (via &#39;tests&#39;): last 2 lines</summary>',
    )
    expect(html).toContain('<pre>$ exit 1\nERROR: Job failed: exit code 1 &#60;script&#62;</pre>')
    expect(html).toContain(`<a href="${G}/acme/app/-/jobs/31">Job 31 on GitLab</a> script_failure`)
  })

  it('lists inputs by name and the artifacts downloaded', () => {
    expect(html).toContain('<th>Inputs</th><td>environment</td>')
    expect(html).not.toContain('staging')
    expect(html).toContain('<td>build</td><td><code>build</code></td><td>2</td><td>2.0 KiB</td>')
    expect(html).toContain('No job &#39;x&#39;.')
  })

  it('says nothing of downstream pipelines, logs or artifacts when there were none', () => {
    const plain = renderSummary(settings, {
      pipeline: { ...pipeline, status: 'success' } as Pipeline,
      waited: true,
      failedJobs: [],
      downstream: [],
      tails: [],
    })
    expect(plain).not.toMatch(/Downstream|Failed job logs|Artifacts/)
  })
})
