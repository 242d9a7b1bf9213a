import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { boolParam } from './params.js'

/*
 * The CI Lint API (`lib/api/lint.rb`, `Entities::Ci::Lint::Result`): a configuration checked as
 * `Gitlab::Ci::Lint` checks it, in a project's context.
 */

/** `POST /projects/:id/ci/lint`: a configuration given whole. */
export const CiLintCreate = Type.Object(
  {
    content: Type.String({ description: 'the CI/CD configuration' }),
    dry_run: Type.Optional(boolParam({ description: 'simulate the pipeline creation (default false)' })),
    include_jobs: Type.Optional(boolParam({ description: 'answer the jobs too' })),
    ref: Type.Optional(Type.String({ description: 'with dry_run: the branch or tag (default branch)' })),
  },
  { title: 'CiLintCreate' },
)
export type CiLintCreate = Static<typeof CiLintCreate>

/** `GET /projects/:id/ci/lint`: the project's own `.gitlab-ci.yml` at a commit. */
export const CiLintQuery = Type.Object(
  {
    content_ref: Type.Optional(Type.String({ description: 'commit, branch or tag (default branch head)' })),
    sha: Type.Optional(Type.String({ description: 'deprecated: content_ref' })),
    dry_run: Type.Optional(boolParam({ description: 'simulate the pipeline creation (default false)' })),
    dry_run_ref: Type.Optional(Type.String({ description: 'with dry_run: the branch or tag' })),
    ref: Type.Optional(Type.String({ description: 'deprecated: dry_run_ref' })),
    include_jobs: Type.Optional(boolParam({ description: 'answer the jobs too' })),
  },
  {
    title: 'CiLintQuery',
    'x-mutually-exclusive': [
      ['sha', 'content_ref'],
      ['ref', 'dry_run_ref'],
    ],
  },
)
export type CiLintQuery = Static<typeof CiLintQuery>

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

/** One file the configuration included (`Entities::Ci::Lint::Result::Include`). */
export const CiLintInclude = Type.Object(
  {
    /** `local`, `file` (`include: project`) or `remote`. */
    type: Type.String(),
    location: Type.String(),
    /** Its page on the server; `null` for a remote file. */
    blob: nullable(Type.String()),
    raw: nullable(Type.String()),
    /** `include: project`: `project` and `ref` as written. */
    extra: Type.Record(Type.String(), Type.String()),
    context_project: nullable(Type.String()),
    context_sha: nullable(Type.String()),
  },
  { title: 'CiLintInclude' },
)
export type CiLintInclude = Static<typeof CiLintInclude>

const Policy = Type.Record(Type.String(), Type.Unknown())

/** A job as the lint lists it (`Gitlab::Ci::Lint#yaml_processor_result_to_jobs`). */
export const CiLintJob = Type.Object(
  {
    name: Type.String(),
    stage: Type.String(),
    before_script: Type.Array(Type.String()),
    script: Type.Array(Type.String()),
    after_script: Type.Array(Type.String()),
    tag_list: Type.Array(Type.String()),
    /** The static check's only (`dry_run` leaves out `only`, `except` and `needs`). */
    only: Type.Optional(nullable(Policy)),
    except: Type.Optional(nullable(Policy)),
    environment: nullable(Type.String()),
    when: Type.String(),
    allow_failure: Type.Boolean(),
    needs: Type.Optional(
      nullable(
        Type.Array(Type.Object({ name: Type.String(), artifacts: Type.Boolean(), optional: Type.Boolean() })),
      ),
    ),
  },
  { title: 'CiLintJob' },
)
export type CiLintJob = Static<typeof CiLintJob>

export const CiLintResult = Type.Object(
  {
    valid: Type.Boolean(),
    errors: Type.Array(Type.String()),
    warnings: Type.Array(Type.String()),
    /** The configuration with its includes merged, as YAML; `null` when it could not be loaded. */
    merged_yaml: nullable(Type.String()),
    includes: nullable(Type.Array(CiLintInclude)),
    /** With `include_jobs` only. */
    jobs: Type.Optional(Type.Array(CiLintJob)),
  },
  { title: 'CiLintResult' },
)
export type CiLintResult = Static<typeof CiLintResult>
