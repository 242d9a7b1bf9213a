import type { ProjectRow } from '../store/projects.js'
import type { ProtectedTagRow } from '../store/repository.js'

/** `ProjectFeature::ENABLED`: the feature is on for everyone who can see the project. */
const ENABLED = 20
/** `Gitlab::Access::MAINTAINER`. */
const MAINTAINER = 40

/**
 * The single-object settings relations real exports carry (`project_feature`, `ci_cd_settings`),
 * holding what the server knows: issues, merge requests, CI and the repository are on; group
 * runners pick up the project's jobs. Without them GitLab applies its defaults, which may not be
 * the source project's. Written as one JSON value without a newline, as GitLab writes a `has_one`.
 */
export function projectFeature(project: ProjectRow): string {
  return JSON.stringify({
    project_id: project.id,
    merge_requests_access_level: ENABLED,
    issues_access_level: ENABLED,
    wiki_access_level: ENABLED,
    snippets_access_level: ENABLED,
    builds_access_level: ENABLED,
    repository_access_level: ENABLED,
    created_at: project.created_at,
    updated_at: project.created_at,
  })
}

export const ciCdSettings = (): string => JSON.stringify({ group_runners_enabled: true })

/**
 * `protected_branches`: the server does not model protection, so its default branch is written as
 * GitLab protects a new project's default branch (Maintainers push and merge), rather than leaving
 * it unprotected after import. Nothing when the default branch is not a ref.
 */
export function protectedBranches(project: ProjectRow, branches: string[]): unknown[] {
  const name = project.default_branch
  if (name === null || !branches.includes(name)) return []
  const at = project.created_at
  const level = { access_level: MAINTAINER, created_at: at, updated_at: at, user_id: null, group_id: null }
  return [
    {
      project_id: project.id,
      name,
      created_at: at,
      updated_at: at,
      code_owner_approval_required: false,
      allow_force_push: false,
      merge_access_levels: [level],
      push_access_levels: [level],
    },
  ]
}

/**
 * `protected_tags` with their `create_access_levels` (`import_export.yml`), one line each as
 * GitLab's exporter writes them: the table's one create level as its only access level row.
 */
export const protectedTags = (rows: ProtectedTagRow[]): unknown[] =>
  rows.map((t) => ({
    id: t.id,
    name: t.name,
    project_id: t.project_id,
    created_at: t.created_at,
    updated_at: t.updated_at,
    create_access_levels: [
      {
        id: t.id,
        protected_tag_id: t.id,
        access_level: t.create_access_level,
        created_at: t.created_at,
        updated_at: t.updated_at,
        user_id: null,
        group_id: null,
        deploy_key_id: null,
      },
    ],
  }))
