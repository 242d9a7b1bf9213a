import type { JobEnvironment } from './environment.js'

/**
 * What a job of a pipeline was told to do by the `.gitlab-ci.yml` it came from, once its config is
 * resolved (`include`, `extends`, `default`, `inputs` and variables applied): GitLab keeps the same in
 * `ci_builds_metadata.config_options` and `p_ci_job_definitions`. The CI engine writes one per job when
 * it creates a pipeline from a config; the job runner reads it to emulate the job (its trace, the files
 * it writes, its artifacts). Jobs made from a seed's `ci_jobs` shortcut have none.
 */
export interface JobDefinition {
  /** `before_script` then `script`, each line as the runner would execute it. */
  script: string[]
  after_script: string[]
  /** GitLab's `when`, `on_success` by default; `never` jobs are not created at all. */
  when: 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed'
  /** For `when: delayed`: GitLab's `start_in` as written (`30 minutes`). */
  start_in?: string
  /** `allow_failure: true`, or the exit codes it allows (`allow_failure: exit_codes`). */
  allow_failure: boolean | { exit_codes: number[] }
  /** Job names from `needs:`; `null` when the job waits for the stages before its own. */
  needs: string[] | null
  /** Variables the job sees beyond the pipeline's (its own `variables:`, resolved). */
  variables: Record<string, string>
  /** `environment:`: the environment the job deploys to, whose scoped CI/CD variables it sees. */
  environment?: JobEnvironment
  /** `coverage:`: the expression (without its slashes) whose match in the trace is the job's coverage. */
  coverage?: string
  /** Declared artifacts, when the job has any. */
  artifacts?: {
    paths: string[]
    when: 'on_success' | 'on_failure' | 'always'
    name?: string
    expire_in?: string
  }
  /** A trigger job (a bridge, `Ci::Bridge`): a child pipeline or another project's pipeline. */
  trigger?: {
    /**
     * Child pipeline: the `include:` entries of the child's configuration as written (a path or URL,
     * or a `local`, `project` or `remote` hash).
     */
    include?: (string | Record<string, unknown>)[]
    /** Multi-project pipeline: the downstream project's full path and branch. */
    project?: string
    branch?: string
    /** `depend`: the bridge mirrors the downstream pipeline's status. */
    strategy?: 'depend'
    /** Variables forwarded to the downstream pipeline. */
    forward?: { yaml_variables: boolean; pipeline_variables: boolean }
  }
}
