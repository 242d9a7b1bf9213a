import { CloneType, Type, type Static, type TSchema } from '@sinclair/typebox'
import { DateString, Role, Timestamp, Visibility } from './common.js'
import { IssueState, IssueType } from './issue.js'
import { MilestoneState } from './milestone.js'
import { CiVariableType } from './ci-variable.js'

/*
 * The seed file (docs/seed.md; schema/seed.schema.json is made from this), a contract that outside tests rely on: every
 * object is closed, every key but `username`/`path`/`title` (and an alias's `name`/`project`) is
 * optional. The `default` annotations document what the loader (src/server/services/seed.ts)
 * fills in; the schema itself fills nothing. Checks a schema cannot express (real dates, durations,
 * references, uniqueness) live in src/server/seed/parse.ts. `x-expected` words the pattern errors.
 */

const closed = { additionalProperties: false } as const

/** The shared enum itself, annotated with the loader's default. */
const withDefault = <T extends TSchema>(schema: T, value: Static<T>) => CloneType(schema, { default: value })

/** One path segment: GitLab's path characters, not starting with `.` or `-` (stricter than GitLab). */
const SEGMENT = '[A-Za-z0-9_][A-Za-z0-9_.-]*'

/** A username; the seed compares usernames and namespace paths case-insensitively, as GitLab does. */
export const SeedUsername = Type.String({
  pattern: `^${SEGMENT}$`,
  'x-expected': 'a username (letters, digits, _ . -)',
})

/** A duration in GitLab's time-tracking syntax (lib/gitlab/time_tracking_formatter.rb): `3h 30m`, `1w`; a bare number is hours. */
export const SeedDuration = Type.String({
  description: 'GitLab duration, e.g. 3h 30m; a bare number is hours',
})

/** `members: { alice: maintainer }`: username -> role. */
export const SeedMembers = Type.Record(Type.String(), Role)

export const SeedUser = Type.Object(
  {
    username: SeedUsername,
    name: Type.Optional(Type.String({ description: 'default: the username' })),
    email: Type.Optional(Type.String({ description: 'default: <username>@example.com' })),
    admin: Type.Optional(Type.Boolean({ default: false })),
    state: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('blocked')], {
        default: 'active',
        description: 'a blocked user cannot sign in and is listed to administrators only',
      }),
    ),
    token: Type.Optional(
      Type.String({ minLength: 1, description: 'personal access token (PRIVATE-TOKEN or Bearer)' }),
    ),
  },
  { ...closed, title: 'SeedUser' },
)
export type SeedUser = Static<typeof SeedUser>

export const SeedLabel = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    color: Type.Optional(
      Type.String({
        pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$',
        'x-expected': 'a colour like #d9534f',
        default: '#6699cc',
      }),
    ),
    description: Type.Optional(Type.String()),
  },
  { ...closed, title: 'SeedLabel' },
)
export type SeedLabel = Static<typeof SeedLabel>

export const SeedMilestone = Type.Object(
  {
    title: Type.String({ minLength: 1 }),
    state: Type.Optional(withDefault(MilestoneState, 'active')),
    start_date: Type.Optional(DateString),
    due_date: Type.Optional(DateString),
    description: Type.Optional(Type.String()),
  },
  { ...closed, title: 'SeedMilestone' },
)
export type SeedMilestone = Static<typeof SeedMilestone>

/**
 * A project's or group's CI/CD variable, as `POST /projects/:id/variables` or
 * `POST /groups/:id/variables` would make it (the same checks; the value kept sealed).
 */
export const SeedVariable = Type.Object(
  {
    key: Type.String({ description: "letters, digits and '_'" }),
    value: Type.String(),
    protected: Type.Optional(Type.Boolean({ default: false, description: 'only on protected refs' })),
    masked: Type.Optional(
      Type.Boolean({ default: false, description: '[MASKED] in job logs; needs 8 characters or more' }),
    ),
    raw: Type.Optional(Type.Boolean({ default: false, description: 'never expands $OTHER variables' })),
    variable_type: Type.Optional(withDefault(CiVariableType, 'env_var')),
    environment_scope: Type.Optional(Type.String({ default: '*' })),
    description: Type.Optional(Type.String()),
  },
  { ...closed, title: 'SeedVariable' },
)
export type SeedVariable = Static<typeof SeedVariable>

export const SeedGroup = Type.Object(
  {
    path: Type.String({
      pattern: `^${SEGMENT}(/${SEGMENT})*$`,
      'x-expected': 'a group path like acme or acme/platform',
    }),
    name: Type.Optional(Type.String({ description: 'default: the last path segment' })),
    visibility: Type.Optional(withDefault(Visibility, 'private')),
    members: Type.Optional(SeedMembers),
    description: Type.Optional(Type.String()),
    labels: Type.Optional(
      Type.Array(SeedLabel, { description: 'group labels, offered to every project below' }),
    ),
    milestones: Type.Optional(
      Type.Array(SeedMilestone, { description: 'group milestones, offered to every project below' }),
    ),
    variables: Type.Optional(
      Type.Array(SeedVariable, { description: 'CI/CD variables, seen by the jobs of every project below' }),
    ),
  },
  { ...closed, title: 'SeedGroup' },
)
export type SeedGroup = Static<typeof SeedGroup>

/** Issue iids follow list order from 1. */
export const SeedIssue = Type.Object(
  {
    title: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    author: Type.Optional(
      Type.String({ description: "default: the namespace's owner, else the first user" }),
    ),
    assignees: Type.Optional(Type.Array(Type.String())),
    labels: Type.Optional(
      Type.Array(Type.String(), { description: "names from the project's labels or its groups'" }),
    ),
    milestone: Type.Optional(
      Type.String({ description: "a title from the project's milestones or its groups'" }),
    ),
    state: Type.Optional(withDefault(IssueState, 'opened')),
    confidential: Type.Optional(Type.Boolean({ default: false })),
    issue_type: Type.Optional(withDefault(IssueType, 'issue')),
    due_date: Type.Optional(DateString),
    created_at: Type.Optional(Timestamp),
    time_estimate: Type.Optional(SeedDuration),
    time_spent: Type.Optional(SeedDuration),
    weight: Type.Optional(Type.Integer({ minimum: 0 })),
    discussion_locked: Type.Optional(Type.Boolean()),
  },
  { ...closed, title: 'SeedIssue' },
)
export type SeedIssue = Static<typeof SeedIssue>

/** Merge request states (GitLab's doc/api/merge_requests.md: `opened`, `merged`, `closed`); the seed is their only user so far. */
export const MergeRequestState = Type.Union([
  Type.Literal('opened'),
  Type.Literal('merged'),
  Type.Literal('closed'),
])
export type MergeRequestState = Static<typeof MergeRequestState>

const issueIids = (description: string) => Type.Array(Type.Integer({ minimum: 1 }), { description })

export const SeedMergeRequest = Type.Object(
  {
    title: Type.String({ minLength: 1 }),
    author: Type.Optional(Type.String()),
    source_branch: Type.Optional(Type.String({ minLength: 1 })),
    target_branch: Type.Optional(Type.String({ minLength: 1, description: 'default: the default branch' })),
    state: Type.Optional(withDefault(MergeRequestState, 'opened')),
    closes_issues: Type.Optional(issueIids('iids of issues the merge request closes when merged')),
    mentions_issues: Type.Optional(issueIids('iids of issues the merge request mentions')),
    description: Type.Optional(Type.String()),
  },
  { ...closed, title: 'SeedMergeRequest' },
)
export type SeedMergeRequest = Static<typeof SeedMergeRequest>

export const SeedTrigger = Type.Object(
  {
    description: Type.Optional(Type.String()),
    owner: Type.Optional(Type.String()),
    token: Type.Optional(Type.String({ minLength: 1, description: 'glptt-...; default: generated' })),
  },
  { ...closed, title: 'SeedTrigger' },
)
export type SeedTrigger = Static<typeof SeedTrigger>

/**
 * A pipeline schedule of a project, as `POST /projects/:id/pipeline_schedules` would make it for its
 * owner (the same cron and zone checks; `next_run_at` from the server's clock at seeding).
 */
export const SeedPipelineSchedule = Type.Object(
  {
    description: Type.String({ minLength: 1 }),
    ref: Type.String({
      minLength: 1,
      description: 'a branch or tag of the project, short (main) or full (refs/heads/main); kept full',
    }),
    cron: Type.String({
      description: "a cron line, e.g. '0 1 * * *' (docs/server.md: the syntax supported)",
    }),
    cron_timezone: Type.Optional(
      Type.String({ default: 'UTC', description: "an IANA (TZInfo) zone name, or one of ActiveSupport's" }),
    ),
    active: Type.Optional(Type.Boolean({ default: true })),
    owner: Type.String({ description: 'a listed username: the pipelines it runs are theirs' }),
    variables: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "KEY: value (letters, digits and '_')" }),
    ),
    inputs: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.Unknown())]),
        { description: 'name: value (text, number, boolean or list): the CI inputs its pipelines get' },
      ),
    ),
  },
  { ...closed, title: 'SeedPipelineSchedule' },
)
export type SeedPipelineSchedule = Static<typeof SeedPipelineSchedule>

/** How every simulated pipeline of a project ends (a subset of GitLab's pipeline statuses). */
export const CiOutcome = Type.Union([
  Type.Literal('success'),
  Type.Literal('failed'),
  Type.Literal('canceled'),
  Type.Literal('manual'),
])
export type CiOutcome = Static<typeof CiOutcome>

export const SeedProject = Type.Object(
  {
    path: Type.String({
      pattern: `^${SEGMENT}(/${SEGMENT})+$`,
      'x-expected': 'a namespace path and a project path like acme/widgets',
    }),
    name: Type.Optional(Type.String({ description: 'default: the last path segment' })),
    description: Type.Optional(Type.String()),
    visibility: Type.Optional(withDefault(Visibility, 'private')),
    archived: Type.Optional(Type.Boolean({ default: false })),
    public_jobs: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          "Project-based pipeline visibility (GitLab's public_jobs): false leaves the project's pipelines, " +
          'jobs, traces and artifacts to Reporters and up',
      }),
    ),
    job_token_allowlist: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description:
          'projects and groups (paths, listed anywhere in the seed or held by the server) whose CI/CD job tokens ' +
          'reach this project, as POST /projects/:id/job_token_scope/allowlist and groups_allowlist add them ' +
          "(a group lets in the projects below it); the project's inbound limit stays on",
      }),
    ),
    forked_from: Type.Optional(
      Type.String({
        pattern: `^${SEGMENT}(/${SEGMENT})+$`,
        'x-expected': 'the path of a project listed before this one, or one the server holds',
        description:
          'makes this project a fork of that one, as POST /projects/:id/fork does: in its fork network, ' +
          'with its branches, tags, commits, default branch and feature levels (so no files, branches, tags, refs or ' +
          'default_branch of its own), import_status finished',
      }),
    ),
    members: Type.Optional(SeedMembers),
    default_branch: Type.Optional(Type.String({ minLength: 1, default: 'main' })),
    branches: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description:
          'branch names besides default_branch (always a branch); pipelines on them report tag: false, ' +
          'and merge requests target them',
      }),
    ),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description:
          'tag names; a pipeline triggered on a tag reports tag: true. A name that is also a branch is ' +
          'ambiguous: a pipeline on its short name is refused with "Ref is ambiguous", as GitLab does; ' +
          'refs/heads/NAME or refs/tags/NAME picks one',
      }),
    ),
    refs: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'older name of branches (kept for existing seeds): every ref listed here is a branch',
      }),
    ),
    files: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.String(), {
        description:
          'files (path: content) committed as one commit that every seeded branch and tag points at, ' +
          'e.g. a .gitlab-ci.yml; read them through the files API',
      }),
    ),
    ci_config: Type.Optional(Type.Boolean({ default: true })),
    ci_jobs: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { default: ['build'] })),
    ci_outcome: Type.Optional(withDefault(CiOutcome, 'success')),
    ci_job_duration: Type.Optional(
      Type.String({
        default: '2s',
        description: 'wall-clock time per job; give a unit (a bare number is hours)',
      }),
    ),
    labels: Type.Optional(Type.Array(SeedLabel)),
    milestones: Type.Optional(Type.Array(SeedMilestone)),
    issues: Type.Optional(Type.Array(SeedIssue)),
    merge_requests: Type.Optional(Type.Array(SeedMergeRequest)),
    triggers: Type.Optional(Type.Array(SeedTrigger)),
    variables: Type.Optional(Type.Array(SeedVariable, { description: "the project's CI/CD variables" })),
    pipeline_schedules: Type.Optional(Type.Array(SeedPipelineSchedule)),
  },
  { ...closed, title: 'SeedProject' },
)
export type SeedProject = Static<typeof SeedProject>

/** An instance CI/CD variable, as `POST /admin/ci/variables` would make it: no environment scope. */
export const SeedInstanceVariable = Type.Omit(SeedVariable, ['environment_scope'], {
  ...closed,
  title: 'SeedInstanceVariable',
})
export type SeedInstanceVariable = Static<typeof SeedInstanceVariable>

export const SeedAlias = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    project: Type.String({ minLength: 1, description: 'full path of a project in the seed' }),
  },
  { ...closed, title: 'SeedAlias' },
)
export type SeedAlias = Static<typeof SeedAlias>

/** The whole seed file (docs/seed.md); src/server/seed/parse.ts reads and checks it. */
export const Seed = Type.Object(
  {
    users: Type.Optional(Type.Array(SeedUser)),
    groups: Type.Optional(Type.Array(SeedGroup)),
    projects: Type.Optional(Type.Array(SeedProject)),
    aliases: Type.Optional(Type.Array(SeedAlias)),
    variables: Type.Optional(
      Type.Array(SeedInstanceVariable, { description: "the instance's CI/CD variables, seen by every job" }),
    ),
  },
  { ...closed, title: 'Seed' },
)
export type Seed = Static<typeof Seed>
