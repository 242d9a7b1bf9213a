import type { JobDefinition } from '../../src/server/ci/job-definition.js'
import type { TestServer } from './server.js'

/** A job definition as the CI engine writes one, with only what a test says filled in. */
export const definition = (over: Partial<JobDefinition>): JobDefinition => ({
  script: [],
  after_script: [],
  when: 'on_success',
  allow_failure: false,
  needs: null,
  variables: {},
  ...over,
})

/**
 * Gives the jobs of a pipeline, by name, the definitions a `.gitlab-ci.yml` would have given them
 * (through the store, as the CI engine writes them), before they run.
 */
export function defineJobs(
  t: TestServer,
  pipelineId: number,
  byName: Record<string, Partial<JobDefinition>>,
) {
  const store = t.server.store
  for (const job of store.pipelines.jobs(pipelineId)) {
    const over = byName[job.name]
    if (over) store.jobDefinitions.put(job.id, definition(over))
  }
}
